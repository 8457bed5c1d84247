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


class RulesetLabelsSchema(Schema):
    events = fields.Dict(keys=fields.String(), values=fields.Raw(), required=True, metadata={
        "description": "event `type` -> the template of its sentence, e.g. `\"{seat|seat} spun {value}.\"`: every "
                       "type of `event_types`."})
    end_reasons = fields.Dict(keys=fields.String(), values=fields.Raw(), required=True, metadata={
        "description": "`result.reason` -> a template of why the game ended, filled from the result's `details` "
                       "(or the end event)."})
    decisions = fields.Dict(keys=fields.String(), values=fields.String(), required=True, metadata={
        "description": "decision `kind` -> its heading (\"Stand or lie down?\")."})
    actions = fields.Dict(keys=fields.String(), values=fields.Raw(), required=True, metadata={
        "description": "action `type` -> the template of a button that sends it, filled from the action body."})
    ranged = fields.Dict(keys=fields.String(), values=fields.Dict(), required=True, metadata={
        "description": "action `type` with a ranged parameter -> `button`: the label of its button, and per "
                       "parameter the label of its input (the range follows it)."})
    parts = fields.Dict(keys=fields.String(), values=fields.Raw(), required=True, metadata={
        "description": "name -> a template the `each:<name>` formatter fills once per item of a list."})
    terms = fields.Dict(keys=fields.String(), values=fields.Dict(), required=True, metadata={
        "description": "table -> code -> words, read by the `term:<table>` formatter: e.g. `bots` (a bot's name "
                       "and level), `reasons` (what a payment is for), `parties` (who a non-seat payee is), "
                       "card names (`card_ranks`, `card_suits`, `card_values`)."})
    seats = fields.Dict(keys=fields.String(), values=fields.String(), required=True, metadata={
        "description": "how a seat without a name reads: `seat` (\"Seat {number}\", counted from 1), `bot_seat` "
                       "(\"Seat {number} · {bot|term:bots}\"), `open_seat`, and `nobody`."})
