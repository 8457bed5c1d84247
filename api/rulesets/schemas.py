"""Response bodies of the rulesets resource."""

from __future__ import annotations

from marshmallow import Schema, fields


class RulesetSummarySchema(Schema):
    id = fields.String(required=True, metadata={"description": "Stable ruleset id, used in `POST /v1/games`."})
    title = fields.String(required=True)
    rules_version = fields.Integer(required=True, metadata={
        "description": "Version of the rules as the service plays them; it goes up with every change that can "
                       "change a game's outcome. Each game keeps the version it was created under."})
    min_players = fields.Integer(required=True)
    max_players = fields.Integer(required=True)
    bots = fields.List(fields.String(), required=True, metadata={"description": "Bot names a seat may use."})
    action_types = fields.List(fields.String(), required=True)
    rules_doc = fields.String(required=True, metadata={"description": "The rules as implemented, every reading "
                                                       "of the rulebook included: a URL of this service (Markdown)."})
    links = fields.Dict(keys=fields.String(), values=fields.String(), required=True)


class RulesetListSchema(Schema):
    rulesets = fields.List(fields.Nested(RulesetSummarySchema), required=True)


class RulesetSchema(RulesetSummarySchema):
    options_schema = fields.Dict(required=True, metadata={
        "description": "JSON Schema of the game options (`options` of `POST /v1/games`)."})
    action_schemas = fields.Dict(keys=fields.String(), values=fields.Dict(), required=True, metadata={
        "description": "action type -> JSON Schema of its body."})
    data = fields.Dict(keys=fields.String(), required=True, metadata={
        "description": "The published data a game starts from (board, decks, charts...), keyed by the "
                       "option that overrides it and in the format that option accepts: edit a copy and "
                       "send it as `options` to play a house rule (see the rules document)."})
    event_types = fields.List(fields.String(), required=True, metadata={
        "description": "Every event `type` a game of this ruleset can show in its events and stream: the "
                       "service's own (`game_created`, `timed_out`, seat changes) and the ruleset's."})
    end_reasons = fields.List(fields.String(), required=True, metadata={
        "description": "Every `result.reason` a game of this ruleset can end with."})
