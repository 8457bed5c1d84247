"""Request and response bodies of the games resource."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from api.deadlines import MAX_TIMEOUT, MIN_TIMEOUT
from api.http import CURSOR_PATTERN

MAX_SEED = 2**63 - 1


class SeatRequestSchema(Schema):
    name = fields.String(required=True, validate=validate.Length(min=1, max=64),
                         metadata={"description": "The player's display name."})
    bot = fields.String(load_default=None, allow_none=True, validate=validate.Length(min=1, max=64),
                        metadata={"description": "A bot name from the ruleset's `bots` (e.g. `random`): the seat "
                                  "is then played by a worker and gets no token."})


class CreateGameSchema(Schema):
    ruleset = fields.String(required=True, validate=validate.Length(min=1, max=64),
                            metadata={"description": "A ruleset id from `GET /v1/rulesets`."})
    seats = fields.List(fields.Nested(SeatRequestSchema), required=True, validate=validate.Length(min=1, max=16),
                        metadata={"description": "One entry per seat, in turn order."})
    options = fields.Dict(keys=fields.String(), load_default=dict,
                          metadata={"description": "Game options (house rules, board or deck overrides, "
                                    "`turn_cap`); see the ruleset's `options_schema`."})
    seed = fields.Integer(load_default=None, allow_none=True, validate=validate.Range(min=0, max=MAX_SEED),
                          metadata={"description": "Seed of the game's random generator; random when absent. "
                                    "The same ruleset, options, seed and actions replay the same game."})
    decision_timeout = fields.Integer(
        load_default=None, allow_none=True, strict=True, validate=validate.Range(min=MIN_TIMEOUT, max=MAX_TIMEOUT),
        metadata={"description": "Seconds each human seat has for a decision; when they pass, the service plays "
                  "the decision's `default` for it (see Deadlines in docs/http-api.md). Null or absent: no limit."})


def decision_timeout_field() -> fields.Integer:
    return fields.Integer(required=True, allow_none=True,
                          metadata={"description": "Seconds per human decision; null: no limit."})


def deadline_field() -> fields.String:
    return fields.String(required=True, allow_none=True, metadata={
        "description": "ISO 8601 UTC time when the pending human decisions get their defaults; null when no "
                       "deadline runs (no `decision_timeout`, or no human seat pending)."})


class SeatSchema(Schema):
    seat = fields.Integer(required=True)
    name = fields.String(required=True)
    bot = fields.String(required=True, allow_none=True)


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


def rules_version_field() -> fields.Integer:
    return fields.Integer(required=True, metadata={
        "description": "The ruleset's rules version the game is played under (fixed when it was created)."})


class CreatedGameSchema(Schema):
    id = fields.String(required=True)
    ruleset = fields.String(required=True)
    rules_version = rules_version_field()
    version = fields.Integer(required=True)
    status = fields.String(required=True, validate=validate.OneOf(["active", "finished"]))
    seed = fields.Integer(required=True, allow_none=True, metadata={
        "description": "The seed you sent; null when the service drew one, which stays secret (it would "
                       "foretell every die and deck of the game)."})
    seats = fields.List(fields.Nested(CreatedSeatSchema), required=True)
    creator_token = fields.String(required=True, metadata={
        "description": "Secret bearer token of the game's creator: spectator view, and may delete the game."})
    decision_timeout = decision_timeout_field()
    deadline = deadline_field()


class GameSchema(Schema):
    id = fields.String(required=True)
    ruleset = fields.String(required=True)
    rules_version = rules_version_field()
    version = fields.Integer(required=True, metadata={"description": "Increases by one per accepted action."})
    status = fields.String(required=True, validate=validate.OneOf(["active", "finished"]))
    role = fields.String(required=True, validate=validate.OneOf(["seat", "creator", "spectator"]),
                         metadata={"description": "What the bearer token names."})
    seat = fields.Integer(required=True, allow_none=True, metadata={"description": "The caller's seat, if any."})
    seats = fields.List(fields.Nested(SeatSchema), required=True)
    waiting_for = fields.List(fields.Integer(), required=True,
                              metadata={"description": "Seats that have a decision pending."})
    view = fields.Dict(required=True, metadata={"description": "What the caller's seat may see (the spectator "
                                                "view for the creator and for no token)."})
    result = fields.Nested(ResultSchema, required=True, allow_none=True)
    created = fields.String(required=True, metadata={"description": "ISO 8601 UTC time."})
    updated = fields.String(required=True, metadata={"description": "ISO 8601 UTC time of the last action."})
    decision_timeout = decision_timeout_field()
    deadline = deadline_field()


class DecisionSchema(Schema):
    seat = fields.Integer(required=True)
    kind = fields.String(required=True)
    options = fields.List(fields.Dict(), required=True, metadata={
        "description": "Complete legal action bodies; a numeric parameter is given by its extremes."})
    ranges = fields.Dict(metadata={"description": "action type -> parameter -> [min, max] (inclusive): any value "
                                   "in between is legal too."})
    default = fields.Dict(required=True, metadata={"description": "What is played if the seat never decides."})


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
    status = fields.String(required=True, validate=validate.OneOf(["active", "finished"]))
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
    after = fields.String(load_default="0", validate=validate.Regexp(CURSOR_PATTERN),
                          metadata={"description": "Cursor: return events after this one (`0`: from the start)."})
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=1000))


class StreamQuerySchema(Schema):
    after = fields.String(validate=validate.Regexp(CURSOR_PATTERN), metadata={
        "description": "Resume after this cursor: events after it are sent before the live ones."})


class EventPageSchema(Schema):
    version = fields.Integer(required=True)
    events = fields.List(fields.Nested(EventEntrySchema), required=True)
    next = fields.String(required=True, metadata={
        "description": "The cursor to pass as `after` next time (unchanged when there was nothing new)."})
