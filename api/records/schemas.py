"""Request and response bodies of the records resource; the record itself is
``engine.records.RecordSchema`` (one definition for the engine, the service and the spec)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from api.seats.schemas import DecisionSchema
from engine.records import MAX_SEAT, RecordSchema


class EvaluateRequestSchema(Schema):
    record = fields.Nested(RecordSchema, required=True, metadata={
        "description": "Setup (players, options, seed or start) and the log of actions so far; `ruleset` may be "
                       "left out (the path names it). Recorded events are not needed (and not compared)."})
    seat = fields.Integer(load_default=None, allow_none=True, strict=True, validate=validate.Range(min=0, max=MAX_SEAT),
                          metadata={
        "description": "The seat whose view, decisions and events to answer with; null: a spectator's."})


class EvaluatedDecisionSchema(DecisionSchema):
    """A pending decision as the engine states it: a stored game's decisions also carry an ``id``
    (api/play/preconditions.py), which a record evaluated without storage does not have."""

    id = fields.String(load_default=None, metadata={"description": "Absent: decision ids belong to stored games."})


class IllegalEntrySchema(Schema):
    index = fields.Integer(required=True, metadata={"description": "Position in `log` of the first illegal action."})
    version = fields.Integer(required=True, allow_none=True)
    reason = fields.String(required=True, metadata={"description": "The engine's reason code (as in a 409)."})
    message = fields.String(required=True)
    seat = fields.Integer(required=True, allow_none=True)
    action = fields.Dict(required=True, allow_none=True)


class EvaluationSchema(Schema):
    legal = fields.Boolean(required=True, metadata={"description": "Every action of the log was legal."})
    illegal = fields.Nested(IllegalEntrySchema, required=True, allow_none=True, metadata={
        "description": "The first illegal action; the answer describes the position just before it."})
    applied = fields.Integer(required=True, metadata={"description": "Log entries applied."})
    seat = fields.Integer(required=True, allow_none=True)
    status = fields.String(required=True, validate=validate.OneOf(["active", "finished"]))
    view = fields.Dict(required=True, metadata={"description": "The seat's view (a spectator's for null)."})
    decisions = fields.List(fields.Nested(EvaluatedDecisionSchema), required=True,
                            metadata={"description": "The seat's pending decisions."})
    waiting_for = fields.List(fields.Integer(), required=True)
    setup_events = fields.List(fields.Dict(), required=True, metadata={"description": "What the setup resolved."})
    events = fields.List(fields.List(fields.Dict()), required=True, metadata={
        "description": "Per applied log entry, the events the seat may see."})
    result = fields.Dict(required=True, allow_none=True)
