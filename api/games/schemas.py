"""Request and response bodies of the games resource."""

from __future__ import annotations

from marshmallow import Schema, ValidationError, fields, pre_load, validate, validates_schema

from api.competition.games import RATED_DECISION_TIMEOUT, rated_game_problems
from api.http.helpers import CURSOR_PATTERN
from api.play.deadlines import MAX_TIMEOUT, MIN_TIMEOUT
from api.records.creation import MAX_SEED
from api.seats.schemas import DecisionSchema, SeatRequestSchema, SeatSchema
from engine.core.strict import StrictBoolean, WholeRegexp

STATUSES = ["waiting", "active", "finished", "aborted"]

class ForkRequestSchema(Schema):
    game = fields.String(required=True, validate=validate.Length(min=1, max=64),
                         metadata={"description": "The id of the game to fork."})
    version = fields.Integer(load_default=None, allow_none=True, strict=True, validate=validate.Range(min=0),
                             metadata={"description": "The version to start from; absent: its current one."})


class CreateGameSchema(Schema):
    # ``x-positional``: the SDK keeps these first positional arguments although a fork may leave them out.
    ruleset = fields.String(load_default=None, validate=validate.Length(min=1, max=64), metadata={
        "description": "A ruleset id from `GET /v1/rulesets`; required unless `fork` is given.",
        "x-positional": True})
    seats = fields.List(fields.Nested(SeatRequestSchema), load_default=None,
                        validate=validate.Length(min=1, max=16), metadata={
                            "description": "One entry per seat, in turn order; required unless `fork` is given "
                                           "(a fork keeps the forked game's seat names and bots by default).",
                            "x-positional": True})
    fork = fields.Nested(ForkRequestSchema, load_default=None, allow_none=True, metadata={
        "description": "Start at another game's position (docs/records.md, Forks): anyone may fork a finished "
                       "game; a running one only with its creator token (`Authorization`), and then what its "
                       "creator could not see is re-dealt and the dice re-seeded. Not with `options` or `seed`."})
    options = fields.Dict(keys=fields.String(), load_default=dict,
                          metadata={"description": "Game options (house rules, board or deck overrides, "
                                    "`turn_cap`); see the ruleset's `options_schema`."})
    seed = fields.Integer(load_default=None, allow_none=True, strict=True, validate=validate.Range(min=0, max=MAX_SEED),
                          metadata={"description": "Seed of the game's random generator; random when absent. "
                                    "The same ruleset, options, seed and actions replay the same game."})
    decision_timeout = fields.Integer(
        load_default=None, allow_none=True, strict=True, validate=validate.Range(min=MIN_TIMEOUT, max=MAX_TIMEOUT),
        metadata={"description": "Seconds each human seat has for a decision; when they pass, the service plays "
                  "the decision's `default` for it (see Deadlines in docs/http-api.md). Null or absent: no limit; "
                  f"but a rated game always has one: absent, {RATED_DECISION_TIMEOUT}; null is 422."})
    listed = StrictBoolean(load_default=False, metadata={
        "description": "Show the game in the lobby (`GET /v1/games?status=waiting`) while it waits for players; "
                       "anyone may then join it without an invite. Unlisted games are reached by id or invite."})
    chat = StrictBoolean(load_default=True, metadata={
        "description": "The table chat (`/v1/games/{id}/chat`): seated players post short messages, anyone who "
                       "may watch reads them. On by default; `false` turns it off (the creator may turn it on or "
                       "off later: `POST /v1/games/{id}/chat/settings`)."})
    hints = StrictBoolean(load_default=False, metadata={
        "description": "Let each seated player ask a search bot for a hint on their own decision "
                       "(`GET /v1/games/{id}/hint`); every seat's hint count is then public in the game and its "
                       "record. Off by default (the hint endpoint answers 403 `hints_disabled`)."})
    win_chances = fields.String(load_default="seats", validate=validate.OneOf(["seats", "spectators"]), metadata={
        "description": "Who may ask for a live game's win chances (`GET /v1/games/{id}/win-chances`): `seats` "
                       "(the default: a seat, from its own view, where hints are on; each ask counts as a hint) or "
                       "`spectators` too (from the spectator view). A finished game's chances are open to all."})

    rated = StrictBoolean(load_default=False, metadata={
        "description": "Rate the players when the game finishes (docs/competition.md): every seat a named "
                       "`player` or a bot, each player once; no open seats, no hints, no mid-game joins, not a "
                       "fork."})

    @pre_load
    def _rated_game_deadline(self, data, **_kwargs):
        """A rated game sent without ``decision_timeout`` gets ``RATED_DECISION_TIMEOUT`` (an explicit null
        stays null, and ``_rated_game`` refuses it)."""
        if isinstance(data, dict) and data.get("rated") is True and "decision_timeout" not in data:
            return {**data, "decision_timeout": RATED_DECISION_TIMEOUT}
        return data

    @validates_schema
    def _rated_game(self, data: dict, **_kwargs) -> None:
        if data["rated"]:
            problems = rated_game_problems(data)
            if problems:
                raise ValidationError(problems)

    @validates_schema
    def _fork_or_setup(self, data: dict, **_kwargs) -> None:
        if data["fork"] is None:
            missing = {name: ["required unless `fork` is given"] for name in ("ruleset", "seats")
                       if data[name] is None}
            if missing:
                raise ValidationError(missing)
        else:
            taken = {name: ["a fork takes it from the forked game"] for name in ("options", "seed")
                     if data[name] not in (None, {})}
            if taken:
                raise ValidationError(taken)


def seed_commitment_field() -> fields.String:
    return fields.String(required=True, allow_none=True, metadata={
        "description": "`sha256:` + SHA-256 of the game's secret salt and seed, published before the first move; "
                       "the finished game's record reveals both (docs/records.md, Provable dice)."})


def decision_timeout_field() -> fields.Integer:
    return fields.Integer(required=True, allow_none=True,
                          metadata={"description": "Seconds per human decision; null: no limit."})


def deadline_field() -> fields.String:
    return fields.String(required=True, allow_none=True, metadata={
        "description": "ISO 8601 UTC time when the pending human decisions get their defaults; null when no "
                       "deadline runs (no `decision_timeout`, or no human seat pending)."})


class InviteSchema(Schema):
    seat = fields.Integer(required=True)
    invite = fields.String(required=True, metadata={"description": "Secret: whoever has it may take this seat."})


class CreatedSeatSchema(SeatSchema):
    token = fields.String(required=True, allow_none=True,
                          metadata={"description": "The seat's secret bearer token (null for a bot seat). "
                                    "Shown only in this response."})


class ResultSchema(Schema):
    winners = fields.List(fields.Integer(), required=True, metadata={"description": "Several seats: a shared win."})
    ranking = fields.List(fields.Integer(), required=True)
    scores = fields.List(fields.Integer(), required=True)
    reason = fields.String(required=True)
    turn_cap_hit = fields.Boolean(required=True)
    details = fields.Dict(required=True)


def hints_field() -> fields.Boolean:
    return fields.Boolean(required=True, metadata={"description": "Whether the seats may ask for hints."})


def win_chances_field() -> fields.String:
    return fields.String(required=True, validate=validate.OneOf(["seats", "spectators"]), metadata={
        "description": "Who may ask for the live game's win chances (`seats`, or `spectators` too)."})


def hint_counts_field() -> fields.List:
    return fields.List(fields.Integer(), required=True, allow_none=True, metadata={
        "description": "Hints asked per seat (once per seat and version), counted once the game has moved on "
                       "from the version they were asked at; null when hints are off."})


def rules_version_field() -> fields.Integer:
    return fields.Integer(required=True, metadata={
        "description": "The ruleset's rules version the game is played under (fixed when it was created)."})


class CreatedGameSchema(Schema):
    id = fields.String(required=True)
    ruleset = fields.String(required=True)
    rules_version = rules_version_field()
    version = fields.Integer(required=True)
    status = fields.String(required=True, validate=validate.OneOf(STATUSES), metadata={
        "description": "`waiting` while open seats remain (the game starts when they are filled, or early)."})
    seed = fields.Integer(required=True, allow_none=True, metadata={
        "description": "The seed you sent; null when the service drew one, which stays secret (it would "
                       "foretell every die and deck of the game)."})
    seats = fields.List(fields.Nested(CreatedSeatSchema), required=True)
    creator_token = fields.String(required=True, metadata={
        "description": "Secret bearer token of the game's creator: spectator view, and may delete the game, "
                       "start it early, and hand any seat to a bot."})
    invites = fields.List(fields.Nested(InviteSchema), required=True,
                          metadata={"description": "One invite per open seat (shown only here)."})
    invite = fields.String(required=True, allow_none=True, metadata={
        "description": "The per-game invite of a ruleset that seats players mid-game (null for the others): "
                       "it takes an open seat before the start and a new seat after it."})
    listed = fields.Boolean(required=True)
    hints = hints_field()
    win_chances = win_chances_field()
    chat = fields.Boolean(required=True, metadata={
        "description": "Whether the table chat was on at creation (`GET /v1/games/{id}/chat` says it now)."})
    decision_timeout = decision_timeout_field()
    deadline = deadline_field()
    seed_commitment = seed_commitment_field()
    fork = fields.Dict(required=True, allow_none=True, metadata={
        "description": "For a fork: `{game, version, hidden_redealt}` of the game it started from."})
    rated = fields.Boolean(required=True, metadata={
        "description": "Whether the game is rated (docs/competition.md)."})


class GameSchema(Schema):
    id = fields.String(required=True)
    ruleset = fields.String(required=True)
    rules_version = rules_version_field()
    version = fields.Integer(required=True, metadata={
        "description": "Increases by one per accepted action or seat change."})
    status = fields.String(required=True, validate=validate.OneOf(STATUSES), metadata={
        "description": "`waiting` for open seats, `active`, `finished`, or `aborted`: stopped by the service before "
                       "its end (a cancelled tournament's table): no result, no more moves, unrated, kept."})
    role = fields.String(required=True, validate=validate.OneOf(["seat", "creator", "spectator"]),
                         metadata={"description": "What the bearer token names."})
    seat = fields.Integer(required=True, allow_none=True, metadata={"description": "The caller's seat, if any."})
    seats = fields.List(fields.Nested(SeatSchema), required=True)
    waiting_for = fields.List(fields.Integer(), required=True,
                              metadata={"description": "Seats that have a decision pending."})
    view = fields.Dict(required=True, allow_none=True, metadata={
        "description": "What the caller's seat may see (the spectator view for the creator and for no token); "
                       "null while the game is waiting."})
    result = fields.Nested(ResultSchema, required=True, allow_none=True)
    created = fields.String(required=True, metadata={"description": "ISO 8601 UTC time."})
    updated = fields.String(required=True, metadata={"description": "ISO 8601 UTC time of the last action."})
    decision_timeout = decision_timeout_field()
    deadline = deadline_field()
    seed_commitment = seed_commitment_field()
    listed = fields.Boolean(required=True)
    hints = hints_field()
    hint_counts = hint_counts_field()
    win_chances = win_chances_field()
    rated = fields.Boolean(required=True, metadata={
        "description": "Whether the game is rated (docs/competition.md)."})
    tournament = fields.String(required=True, allow_none=True, metadata={
        "description": "The id of the tournament this game is a table of, or null."})




class DecisionsSchema(Schema):
    version = fields.Integer(required=True)
    seat = fields.Integer(required=True, allow_none=True)
    decisions = fields.List(fields.Nested(DecisionSchema), required=True,
                            metadata={"description": "The caller's own pending decisions (empty for others)."})
    waiting_for = fields.List(fields.Integer(), required=True)
    deadline = deadline_field()


class EventEntrySchema(Schema):
    cursor = fields.String(required=True, metadata={"description": "Pass as `after` to read what follows."})
    version = fields.Integer(required=True, metadata={"description": "The game version this event led to."})
    event = fields.Dict(required=True, metadata={"description": "`type` plus the event's data; `visible_to` lists "
                                                 "the seats of a private event."})


class ActionResultSchema(Schema):
    game_id = fields.String(required=True)
    seat = fields.Integer(required=True)
    version = fields.Integer(required=True)
    status = fields.String(required=True, validate=validate.OneOf(STATUSES))
    events = fields.List(fields.Nested(EventEntrySchema), required=True,
                         metadata={"description": "What the action caused, as far as the caller may see."})
    result = fields.Nested(ResultSchema, required=True, allow_none=True)
    replayed = fields.Boolean(required=True, metadata={
        "description": "True when this answers a repeated Idempotency-Key: nothing was applied again."})


class ActionSchema(Schema):
    """Documentation only: the body is checked against the ruleset's own action schemas."""

    class Meta:
        unknown = "include"

    type = fields.String(required=True, metadata={"description": "An action type of the game's ruleset."})


class EventsQuerySchema(Schema):
    after = fields.String(load_default="0", validate=WholeRegexp(CURSOR_PATTERN),
                          metadata={"description": "Cursor: return events after this one (`0`: from the start)."})
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=1000))


class StreamQuerySchema(Schema):
    after = fields.String(validate=WholeRegexp(CURSOR_PATTERN), metadata={
        "description": "Resume after this cursor: events after it are sent before the live ones."})


class EventPageSchema(Schema):
    version = fields.Integer(required=True)
    events = fields.List(fields.Nested(EventEntrySchema), required=True)
    next = fields.String(required=True, metadata={
        "description": "The cursor to pass as `after` next time (unchanged when there was nothing new)."})


# -- the lines of the live stream (documentation: the stream writes them itself) --------


def line_kind(value: str) -> fields.String:
    """The ``kind`` field of one kind of stream line."""
    return fields.String(required=True, validate=validate.OneOf([value]))


class StreamStateSchema(Schema):
    """The first line: the game now, as `GET /v1/games/{id}` shows it, and the cursor the events follow."""

    kind = line_kind("state")
    cursor = fields.String(required=True, metadata={"description": "The last event's cursor at this moment."})
    id = fields.String(required=True)
    ruleset = fields.String(required=True)
    rules_version = rules_version_field()
    version = fields.Integer(required=True)
    status = fields.String(required=True, validate=validate.OneOf(STATUSES), metadata={
        "description": "`waiting` for open seats, `active`, `finished`, or `aborted`: stopped by the service before "
                       "its end (a cancelled tournament's table): no result, no more moves, unrated, kept."})
    role = fields.String(required=True, validate=validate.OneOf(["seat", "creator", "spectator"]))
    seat = fields.Integer(required=True, allow_none=True)
    waiting_for = fields.List(fields.Integer(), required=True)
    view = fields.Dict(required=True, allow_none=True, metadata={"description": "Null while the game waits for "
                                                                "its players (it is set up when it starts)."})
    result = fields.Nested(ResultSchema, required=True, allow_none=True)
    deadline = deadline_field()


class StreamEventSchema(EventEntrySchema):
    """One event the caller may see."""

    kind = line_kind("event")


class StreamKeepaliveSchema(Schema):
    """Written after each silent `STREAM_KEEPALIVE_SECONDS`."""

    kind = line_kind("keepalive")


class StreamEndSchema(Schema):
    """The last line."""

    kind = line_kind("end")
    reason = fields.String(required=True, validate=validate.OneOf(["finished", "aborted", "gone", "time_limit",
                                                                    "unavailable"]), metadata={
        "description": "`finished`: the game is over; `aborted`: the service stopped it before its end (a cancelled "
                       "tournament's table: no result); `gone`: it was deleted or expired; `time_limit`: the "
                       "connection reached `STREAM_MAX_SECONDS`; `unavailable`: the service lost Redis (for the "
                       "last two, resume with `after` = the last cursor)."})
    version = fields.Integer(required=True)
    result = fields.Nested(ResultSchema, required=True, allow_none=True)


#: Schemas only the spec shows (components a generator types: action bodies and stream lines).
SPEC_SCHEMAS = {"Action": ActionSchema, "StreamState": StreamStateSchema, "StreamEvent": StreamEventSchema,
                "StreamKeepalive": StreamKeepaliveSchema, "StreamEnd": StreamEndSchema}
STREAM_LINE_KINDS = {"state": "StreamState", "event": "StreamEvent", "keepalive": "StreamKeepalive",
                     "end": "StreamEnd"}


def line_union(kinds: dict[str, str]) -> dict:
    """The schema of one line of a stream, whichever its ``kind`` (``kinds``: kind -> component name)."""
    return {
        "oneOf": [{"$ref": f"#/components/schemas/{name}"} for name in kinds.values()],
        "discriminator": {"propertyName": "kind",
                          "mapping": {kind: f"#/components/schemas/{name}" for kind, name in kinds.items()}},
    }


#: One line of the live stream, whichever its ``kind``.
STREAM_LINE = line_union(STREAM_LINE_KINDS)
