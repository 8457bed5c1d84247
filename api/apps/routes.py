"""``/v1/apps/me`` (who the caller's key is, its limits, quotas and what it owns) and ``/v1/webhooks``."""

from __future__ import annotations

from flask import Response, current_app, g
from flask.views import MethodView
from flask_smorest import Blueprint

from api.apps import accounting, limits, ownership, quotas
from api.apps.access import keys
from api.apps.schemas import (
    AppSchema,
    CreatedWebhookSchema,
    DeliveryListSchema,
    OwnedListSchema,
    OwnedQuerySchema,
    WebhookListSchema,
    WebhookRequestSchema,
    WebhookSchema,
)
from api.apps.webhooks import EXTENSION_NAME, UnsafeUrl, Webhooks
from api.http.helpers import json_response
from api.http.problems import ApiProblem, problem_response, validation_problem

APP_KEY_AUTH = [{"appKey": []}]

blp = Blueprint("apps", __name__, url_prefix="/v1/apps",
                description="The calling app: its key, rate limits, quotas and what it owns.")
hooks_blp = Blueprint("webhooks", __name__, url_prefix="/v1/webhooks",
                      description="URLs the service calls when something happens to an app's games or simulations.")


def webhooks() -> Webhooks:
    return current_app.extensions[EXTENSION_NAME]


@blp.route("/me")
class Me(MethodView):
    @blp.doc(operationId="get_app")
    @blp.doc(security=APP_KEY_AUTH)
    @blp.response(200, AppSchema)
    @blp.alt_response(**problem_response(401, "No app key where one is required, or an unknown one."))
    def get(self):
        """Read the calling app

        The app the `X-Api-Key` names (or the `local` app of development mode): its
        scopes, its rate limits per class, its quotas and what it uses of them now.
        Through a publishable key: that key's own figures (no scopes, the publishable
        limits per client address and quotas) and no usage of the app's (zeros), as a
        page's key sees nothing of its app that the public lobby does not show.
        """
        app = g.app
        allowed = {name: accounting.quota_of(app, name) for name in accounting.QUOTAS}
        usage = {"live_games": 0, "queued_chunks": 0, "simulation_work_today": 0, "search_work_today": 0,
                 "rated_players": 0}
        if not app.publishable:
            usage = {
                "live_games": quotas.used(app.id, "live_games"),
                "queued_chunks": quotas.used(app.id, "queued_chunks"),
                "rated_players": quotas.used(app.id, "rated_players"),
                "simulation_work_today": accounting.current().work_today(app.id, "simulation_work_per_day"),
                "search_work_today": accounting.current().work_today(app.id, "search_work_per_day"),
            }
        return json_response({
            "id": app.id, "name": app.name, "key_kind": app.key_kind,
            "scopes": [] if app.publishable else list(app.scopes),
            "rate_limits": {cls: limits.limit_of(app, cls) for cls in limits.CLASSES},
            "quotas": allowed, "usage": usage, "retention": ownership.retention(app),
        })


def _owned(kind: str, query: dict) -> Response:
    rows = keys().owned(g.app.id, kind, limit=query["limit"], before=query["before"])
    items = [{"id": resource_id, "created": created} for resource_id, created in rows]
    next_before = items[-1]["created"] if len(items) == query["limit"] else None
    return json_response({"items": items, "next_before": next_before})


@blp.route("/me/games")
class MyGames(MethodView):
    @blp.doc(operationId="list_app_games")
    @blp.doc(security=APP_KEY_AUTH)
    @blp.arguments(OwnedQuerySchema, location="query")
    @blp.response(200, OwnedListSchema)
    @blp.alt_response(**problem_response(403, "The app key lacks the `games` scope (a publishable key never has it)."))
    def get(self, query: dict):
        """List the app's games

        Newest first, finished ones included, until they expire (export their records
        before then). Needs the `games` scope: a publishable key, which is in every page,
        sees only the lobby's games (`GET /v1/games`).
        """
        return _owned("games", query)


@blp.route("/me/simulations")
class MySimulations(MethodView):
    @blp.doc(operationId="list_app_simulations")
    @blp.doc(security=APP_KEY_AUTH)
    @blp.arguments(OwnedQuerySchema, location="query")
    @blp.response(200, OwnedListSchema)
    @blp.alt_response(**problem_response(403, "The app key lacks the `simulations` scope (a publishable key never "
                                              "has it)."))
    def get(self, query: dict):
        """List the app's simulations

        Newest first, until they expire. Needs the `simulations` scope.
        """
        return _owned("sims", query)


@hooks_blp.route("")
class WebhookList(MethodView):
    @hooks_blp.doc(security=APP_KEY_AUTH)
    @hooks_blp.arguments(WebhookRequestSchema, example={"url": "https://hooks.example.com/rulehouse",
                                                        "events": ["game.finished", "decision.waiting"]})
    @hooks_blp.response(201, CreatedWebhookSchema)
    @hooks_blp.alt_response(**problem_response(403, "The app key lacks the `webhooks` scope."))
    @hooks_blp.alt_response(**problem_response(422, "Not a URL the service will call, an unknown event, or too "
                                                    "many webhooks."))
    @hooks_blp.doc(operationId="create_webhook")
    def post(self, body: dict):
        """Register a webhook

        The service POSTs each chosen event of this app's games and simulations to the
        URL, signed with the returned `secret` (header `Rulehouse-Signature`), retried
        with backoff until the receiver answers 2xx. See docs/apps.md.
        """
        try:
            created = webhooks().register(g.app.id, body["url"], body["events"])
        except UnsafeUrl as error:
            raise validation_problem({"url": [f"refused: {error}"]}, f"the webhook URL is refused: {error}",
                                     reason="webhook_url_refused") from None
        except ValueError as error:
            raise validation_problem({"url": [str(error)]}, str(error), reason="too_many_webhooks") from None
        return json_response(created, 201)

    @hooks_blp.doc(operationId="list_webhooks")
    @hooks_blp.doc(security=APP_KEY_AUTH)
    @hooks_blp.response(200, WebhookListSchema)
    def get(self):
        """List the app's webhooks

        Every webhook this app registered, without their secrets.
        """
        return json_response({"webhooks": webhooks().list(g.app.id)})


def _webhook(webhook_id: str) -> dict:
    found = webhooks().get(g.app.id, webhook_id)
    if found is None:
        raise ApiProblem("not-found", f"this app has no webhook {webhook_id!r}")
    return found


@hooks_blp.route("/<webhook_id>")
class Webhook(MethodView):
    @hooks_blp.doc(security=APP_KEY_AUTH)
    @hooks_blp.response(200, WebhookSchema)
    @hooks_blp.alt_response(**problem_response(404, "This app has no such webhook."))
    def get(self, webhook_id: str):
        """Read a webhook

        Its URL and events, without its secret.
        """
        return json_response(_webhook(webhook_id))

    @hooks_blp.doc(security=APP_KEY_AUTH)
    @hooks_blp.response(204)
    @hooks_blp.alt_response(**problem_response(404, "This app has no such webhook."))
    def delete(self, webhook_id: str):
        """Delete a webhook

        Deliveries still queued for it are dropped.
        """
        _webhook(webhook_id)
        webhooks().delete(g.app.id, webhook_id)
        return Response(status=204)


@hooks_blp.route("/<webhook_id>/deliveries")
class Deliveries(MethodView):
    @hooks_blp.doc(operationId="list_webhook_deliveries")
    @hooks_blp.doc(security=APP_KEY_AUTH)
    @hooks_blp.response(200, DeliveryListSchema)
    @hooks_blp.alt_response(**problem_response(404, "This app has no such webhook."))
    def get(self, webhook_id: str):
        """List a webhook's deliveries

        Its newest 50 deliveries: status (`pending`, `delivered`, `failed`), attempts and
        the last answer or error.
        """
        _webhook(webhook_id)
        return json_response({"deliveries": webhooks().deliveries(webhook_id)})
