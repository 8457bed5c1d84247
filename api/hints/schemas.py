"""The hint resource's query and answer."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

#: The longest ``?wait=`` a request may hold its connection for a hint, in seconds.
MAX_WAIT_SECONDS = 10


class HintQuerySchema(Schema):
    wait = fields.Float(load_default=0.0, validate=validate.Range(min=0, max=MAX_WAIT_SECONDS), metadata={
        "description": f"Seconds (0 .. {MAX_WAIT_SECONDS}) to wait for the search before answering 202; "
                       "default 0: answer at once."})
    seat = fields.Integer(validate=validate.Range(min=0, max=999), metadata={
        "description": "The seat the caller means to ask for; 403 unless it is the token's own seat."})


class HintOptionSchema(Schema):
    action = fields.Dict(required=True, metadata={"description": "A complete action body the seat may send."})
    value = fields.Float(required=True, allow_none=True, metadata={
        "description": "The search's estimate of the seat's share of the win after this action, 0 .. 1 (null: "
                       "not searched, e.g. the only option)."})
    visits = fields.Integer(required=True, metadata={"description": "Simulated games that began with it."})


class HintSchema(Schema):
    game_id = fields.String(required=True)
    seat = fields.Integer(required=True)
    version = fields.Integer(required=True, metadata={"description": "The game version the hint is for."})
    decision = fields.String(required=True, metadata={
        "description": "The id of the decision it answers: act on it with `If-Match: \"d:<decision>\"`."})
    status = fields.String(required=True, validate=validate.OneOf(["ready", "pending"]), metadata={
        "description": "`ready` (200, with `action` and `options`) or `pending` (202: the search workers are "
                       "on it; ask again)."})
    bot = fields.String(required=True, metadata={"description": "The search bot that gives hints (`mcts`)."})
    level = fields.Integer(required=True, metadata={"description": "Its level (docs/bots.md)."})
    iterations = fields.Integer(metadata={
        "description": "Simulated games the search played in all (when `ready`; 0 when the decision has a single "
                       "option)."})
    action = fields.Dict(metadata={"description": "The suggested action (when `ready`)."})
    options = fields.List(fields.Nested(HintOptionSchema), metadata={
        "description": "Every candidate the search weighed, with its value and visits (when `ready`)."})
