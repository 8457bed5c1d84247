"""Request and response bodies of seats and the lobby."""

from __future__ import annotations

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from api.seats.names import DisplayName
from engine.core.strict import StrictBoolean, WholeRegexp

_BOT_NAME = validate.Length(min=1, max=64)
_PERSON = r"[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}"
#: A person's player id (docs/competition.md, "Players"); it never starts with ``bot:``.
PERSON_ID_PATTERN = f"^{_PERSON}$"
#: An app's player id: a person's, or ``bot:<bot>[#<tag>]`` for a bot.
PLAYER_ID_PATTERN = rf"^(?:bot:[A-Za-z0-9_.-]{{1,64}}(?:#[A-Za-z0-9_-]{{1,16}})?|{_PERSON})$"
_PERSON_ERROR = "a person's player id: 1 to 64 of A-Z a-z 0-9 _ . @ - (starting with a letter or digit)"


def player_field(*, person: bool = False, **metadata) -> fields.String:
    """A seat's player id; with ``person``, where only a person may sit (a join: ``bot:`` ids are bot seats')."""
    pattern, error = (PERSON_ID_PATTERN, _PERSON_ERROR) if person else (PLAYER_ID_PATTERN,
                                                                        f"{_PERSON_ERROR}, or bot:<bot>[#<tag>]")
    return fields.String(load_default=None, allow_none=True, validate=WholeRegexp(pattern, error=error), metadata={
        "description": "The app's id of the player in this seat (docs/competition.md): its games are listed "
                       "under it and rated games rate it. Set only with the app's secret key. A bot seat's "
                       "player is `bot:<bot>` unless it names `bot:<bot>#<tag>`.", **metadata})
_CURSOR = r"^[0-9]{1,12}(\.[0-9]{1,9})?:[0-9a-f]{1,32}$"


class SeatRequestSchema(Schema):
    name = DisplayName(load_default=None, allow_none=True, metadata={
        "description": "The player's display name (a named human seat gets its token now; a bot seat may have one)."})
    bot = fields.String(load_default=None, allow_none=True, validate=_BOT_NAME,
                        metadata={"description": "A bot name from the ruleset's `bots` (e.g. `random`): the seat "
                                  "is then played by a worker and gets no token."})
    player = player_field()
    open = StrictBoolean(load_default=False, metadata={
        "description": "An open seat: no name yet; someone takes it with an invite (`POST /v1/games/{id}/join`). "
                       "A game with open seats waits for them before it starts."})

    @validates_schema
    def _one_kind(self, data: dict, **kwargs) -> None:
        if data["open"] and (data["name"] is not None or data["bot"] is not None or data["player"] is not None):
            raise ValidationError("an open seat has no name, bot or player yet", "open")
        player = data["player"]
        if player is not None and data["bot"] is None and player.startswith("bot:"):
            raise ValidationError("`bot:` player ids are for bot seats", "player")
        if player is not None and data["bot"] is not None and player.split("#")[0] != f"bot:{data['bot']}":
            raise ValidationError(f"a bot seat's player is bot:{data['bot']}[#<tag>]", "player")
        if data["name"] is None and player is not None and data["bot"] is None:
            data["name"] = player  # a named player with no display name shows its id
        if not data["open"] and data["name"] is None and data["bot"] is None:
            raise ValidationError("a seat needs a name, a bot, or `\"open\": true`", "name")


class JoinSchema(Schema):
    invite = fields.String(load_default=None, allow_none=True, validate=validate.Length(min=1, max=128),
                           metadata={"description": "An invite from the game's creation answer; may be omitted for "
                                     "a listed game that has not started (the first open seat)."})
    name = DisplayName(required=True)
    player = player_field(person=True, description=(
        "The app's id of the joining person (docs/competition.md; never a `bot:` id: a person joins). Only with "
        "the app's secret key, from its own backend: a publishable key's join with a `player` is 403 "
        "`secret_key_required`."))


class JoinedSchema(Schema):
    seat = fields.Integer(required=True)
    token = fields.String(required=True, metadata={"description": "The seat's secret bearer token; shown only here."})
    version = fields.Integer(required=True, metadata={"description": "The game's version after the join."})


class StartSchema(Schema):
    fill = fields.String(required=True, validate=validate.OneOf(["bot", "remove"]), metadata={
        "description": "`bot`: each open seat is played by `bot`; `remove`: open seats are dropped (the seats "
                       "after them move up) where the ruleset's player range allows."})
    bot = fields.String(load_default="random", validate=_BOT_NAME,
                        metadata={"description": "The bot for `fill: bot`."})


class BotSeatSchema(Schema):
    bot = fields.String(load_default="random", validate=_BOT_NAME,
                        metadata={"description": "A bot name from the ruleset's `bots`."})


class LobbyQuerySchema(Schema):
    status = fields.String(load_default="waiting", validate=validate.OneOf(["waiting"]),
                           metadata={"description": "Only `waiting` games are listed."})
    ruleset = fields.String(validate=validate.Length(min=1, max=64))
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))
    cursor = fields.String(validate=WholeRegexp(_CURSOR), metadata={"description": "`next` of the last page."})


class SeatSchema(Schema):
    seat = fields.Integer(required=True)
    name = fields.String(required=True, allow_none=True)
    bot = fields.String(required=True, allow_none=True)
    player = fields.String(required=True, allow_none=True, metadata={
        "description": "The app's player id of the seat (docs/competition.md); null when the app named none."})
    open = fields.Boolean(required=True)


class SeatsChangedSchema(Schema):
    id = fields.String(required=True)
    version = fields.Integer(required=True, metadata={"description": "The game's version after the change."})
    status = fields.String(required=True)
    seats = fields.List(fields.Nested(SeatSchema), required=True)


class LobbyGameSchema(Schema):
    id = fields.String(required=True)
    ruleset = fields.String(required=True)
    status = fields.String(required=True)
    players = fields.Integer(required=True, metadata={"description": "Seats at the table."})
    open_seats = fields.Integer(required=True)
    seats = fields.List(fields.Nested(SeatSchema), required=True)
    decision_timeout = fields.Integer(required=True, allow_none=True)
    hints = fields.Boolean(required=True, metadata={"description": "Whether its seats may ask for hints."})
    created = fields.String(required=True, metadata={"description": "ISO 8601 UTC time."})


class LobbyPageSchema(Schema):
    games = fields.List(fields.Nested(LobbyGameSchema), required=True)
    next = fields.String(required=True, allow_none=True,
                         metadata={"description": "Pass as `cursor` for the next page; null on the last."})

class DecisionSchema(Schema):
    """A seat's pending decision as the API shows it: in a game's decisions and, evaluated, in its record."""
    id = fields.String(required=True, metadata={
        "description": "`<seat>.<since>`: `since` is the version at which this seat's decision appeared. It stays "
                       "while only other seats act; send `If-Match: \"d:<id>\"` to answer this decision."})
    seat = fields.Integer(required=True)
    kind = fields.String(required=True)
    options = fields.List(fields.Dict(), required=True, metadata={
        "description": "Complete legal action bodies; a numeric parameter is given by its extremes."})
    ranges = fields.Dict(metadata={"description": "action type -> parameter -> [min, max] (inclusive): any value "
                                   "in between is legal too."})
    default = fields.Dict(required=True, allow_none=True, metadata={
        "description": "Exactly what a timeout plays if the seat never decides (see `decision_timeout`): the "
                       "engine's choice for this position, never one that puts the seat out of the game, hands a "
                       "rival the game or throws away something of value when another option does not. Null for "
                       "a secret choice, where a timeout draws from what the seat holds."})
    secret = fields.Boolean(metadata={
        "description": "Present and true for a secret (face-down) choice: the other seats learn only that it "
                       "was made, and a timeout draws it at random from what the seat really holds (a card of "
                       "its hand), so they cannot tell what was played."})
