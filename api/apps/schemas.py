"""Request and response bodies of the apps and webhooks resources."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from api.apps.webhook_addresses import MAX_URL_LENGTH
from api.apps.webhooks import EVENTS


class UsageSchema(Schema):
    live_games = fields.Integer(required=True)
    queued_chunks = fields.Integer(required=True)
    simulation_work_today = fields.Integer(required=True)
    search_work_today = fields.Integer(required=True, metadata={
        "description": "Engine actions of the searches run today (UTC) for the app's games: searching bot "
                       "seats' moves and hints (see docs/apps.md)."})
    rated_players = fields.Integer(required=True, metadata={
        "description": "Players (persons, and bots by `bot:<bot>[#<tag>]`) of the app's rated games and "
                       "tournaments that have a game kept or a rating (see docs/apps.md)."})


class AppSchema(Schema):
    id = fields.String(required=True, metadata={"description": "The app's id (`local` in development mode)."})
    name = fields.String(required=True)
    key_kind = fields.String(required=True, metadata={"description": "`secret` or `publishable`."})
    scopes = fields.List(fields.String(), required=True)
    rate_limits = fields.Dict(keys=fields.String(), values=fields.String(allow_none=True), required=True,
                              metadata={"description": "Per class (`moves`, `writes`, `reads`, `streams`), e.g. "
                                        "`600/minute`; null: unlimited."})
    quotas = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    usage = fields.Nested(UsageSchema, required=True)
    retention = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True,
                            metadata={"description": "Seconds games and simulations are kept (see docs/apps.md)."})


class OwnedQuerySchema(Schema):
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=500))
    before = fields.Float(load_default=None, allow_none=True, validate=validate.Range(min=0, max=1e11),
                          metadata={"description": "Only those created before this Unix time (paging: pass the "
                                    "`created` of the last one you got)."})


class OwnedSchema(Schema):
    id = fields.String(required=True)
    created = fields.Float(required=True, metadata={"description": "Unix time of creation."})


class OwnedListSchema(Schema):
    items = fields.List(fields.Nested(OwnedSchema), required=True)
    next_before = fields.Float(required=True, allow_none=True)


class WebhookRequestSchema(Schema):
    url = fields.Url(required=True, schemes={"http", "https"}, require_tld=False,
                     validate=validate.Length(max=MAX_URL_LENGTH),
                     metadata={"description": "Where to POST deliveries. Loopback, private and link-local "
                               "addresses are refused unless the service allows them."})
    events = fields.List(fields.String(validate=validate.OneOf(EVENTS)), required=True,
                         validate=validate.Length(min=1, max=len(EVENTS)),
                         metadata={"description": f"Any of {', '.join(EVENTS)}."})


class WebhookSchema(Schema):
    id = fields.String(required=True)
    url = fields.String(required=True)
    events = fields.List(fields.String(), required=True)
    created = fields.String(required=True)


class CreatedWebhookSchema(WebhookSchema):
    secret = fields.String(required=True, metadata={"description": "Signs every delivery (HMAC-SHA256). Shown "
                                                    "only in this response."})


class WebhookListSchema(Schema):
    webhooks = fields.List(fields.Nested(WebhookSchema), required=True)


class DeliverySchema(Schema):
    id = fields.String(required=True)
    type = fields.String(required=True)
    status = fields.String(required=True, metadata={"description": "`pending`, `delivered` or `failed`."})
    attempts = fields.Integer(required=True)
    last_status = fields.Integer(required=True, allow_none=True)
    last_error = fields.String(required=True, allow_none=True)
    created = fields.String(required=True)
    delivered = fields.String(required=True, allow_none=True)


class DeliveryListSchema(Schema):
    deliveries = fields.List(fields.Nested(DeliverySchema), required=True)
