"""The win-chances resource's query and answer."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from engine.values.model import DEFAULT_WORLDS, MAX_WORLDS


class WinChancesQuerySchema(Schema):
    worlds = fields.Integer(load_default=DEFAULT_WORLDS, validate=validate.Range(min=1, max=MAX_WORLDS), metadata={
        "description": f"Worlds (1 .. {MAX_WORLDS}, default {DEFAULT_WORLDS}) the hidden cards are re-dealt in and "
                       "the model averaged over. A view's chances at a version (a seat's, the spectator's) are "
                       "computed once: later asks of that version answer the same, whatever `worlds`."})
    seat = fields.Integer(validate=validate.Range(min=0, max=999), metadata={
        "description": "The seat the caller means to ask for; 403 unless it is the token's own seat."})


class WinChancesSchema(Schema):
    game_id = fields.String(required=True)
    version = fields.Integer(required=True, metadata={"description": "The game version the chances are for."})
    seat = fields.Integer(required=True, allow_none=True, metadata={
        "description": "The seat whose view they are judged from; null for the spectator view or a finished game."})
    basis = fields.String(required=True, validate=validate.OneOf(["seat", "spectator", "result"]), metadata={
        "description": "`seat`: from that seat's view; `spectator`: from the spectator view; `result`: the game "
                       "is over and the chances are each winner's share of the win."})
    chances = fields.List(fields.Float(), required=True, metadata={
        "description": "Every seat's chance of winning, 0 .. 1, in seat order; they sum to 1 (a shared win counts "
                       "1/k for each of its k winners)."})
    worlds = fields.Integer(required=True, metadata={"description": "Worlds averaged over (0 for a result)."})
    rules_version = fields.Integer(required=True, metadata={
        "description": "The rules version the game and the model are of (a model is never used for another)."})
