"""The Flask application factory."""

from __future__ import annotations

import http
import json
import logging

import redis
from flask import Flask, Response, current_app, g, request
from flask_smorest import Api
from flask_smorest.spec import prepare_response
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from api.analysis.routes import blp as analysis_blp
from api.apps import access, limits, quotas
from api.apps.app_store import AppKeys
from api.apps.routes import blp as apps_blp
from api.apps.routes import hooks_blp as webhooks_blp
from api.apps.webhooks import EXTENSION_NAME as WEBHOOKS_EXTENSION
from api.apps.webhooks import Webhooks
from api.chat.routes import blp as chat_blp
from api.chat.schemas import CHAT_LINE
from api.chat.schemas import SPEC_SCHEMAS as CHAT_SPEC_SCHEMAS
from api.competition import closed_round
from api.competition.routes import players_blp, ratings_blp
from api.competition.tournament_routes import blp as tournaments_blp
from api.experiments.routes import blp as experiments_blp
from api.games.routes import blp as games_blp
from api.games.schemas import SPEC_SCHEMAS, STREAM_LINE
from api.ground.concurrency import cooperative
from api.ground.config import settings
from api.hints.routes import blp as hints_blp
from api.http.cors import init_cors
from api.http.operation_ids import OperationIdPlugin
from api.http.play_errors import play_error_response
from api.http.problems import PROBLEM_CONTENT_TYPE, ApiProblem, ProblemSchema, kind_for_status, validation_problem
from api.observability import dashboard
from api.observability.app_hooks import init_app as init_observability
from api.play import moves
from api.play.errors import PlayError
from api.play.store import GameStore
from api.records.routes import blp as records_blp
from api.rulesets.routes import blp as rulesets_blp
from api.seats.routes import blp as seats_blp
from api.service.game_listeners import wire
from api.service.quota_census import census
from api.simulations.routes import blp as simulations_blp
from api.system.routes import bench
from api.system.routes import blp as system_blp
from api.views.routes import blp as views_blp
from api.views.timeline import timelines
from api.web.routes import blp as web_blp
from api.win_chances.routes import blp as win_chances_blp

log = logging.getLogger(__name__)

API_DESCRIPTION = """Rulehouse referees money board games over HTTP: create a game, act with a seat's
bearer token, and follow what happens. Every action is checked against the rulebook; state lives in
Redis and every write is a compare-and-set on the game's version (`If-Match`, `ETag`).

Errors are RFC 9457 `application/problem+json` documents whose `type` is one stable URI per kind
of error (`https://rulehouse.dev/problems/<kind>`). See docs/http-api.md."""


class RulehouseApi(Api):
    """flask-smorest, with every error answered and documented as problem+json."""

    ERROR_SCHEMA = ProblemSchema

    def _register_responses(self) -> None:
        for status in http.HTTPStatus:
            response = {"description": status.phrase}
            if not (100 <= status < 200) and status not in (204, 304):
                response["schema"] = self.ERROR_SCHEMA
            prepare_response(response, self.spec, PROBLEM_CONTENT_TYPE)
            self.spec.components.response(status.name, response, lazy=True)
        response = {"description": "An error (RFC 9457 problem)", "schema": self.ERROR_SCHEMA}
        prepare_response(response, self.spec, PROBLEM_CONTENT_TYPE)
        self.spec.components.response(self.DEFAULT_ERROR_RESPONSE_NAME, response, lazy=True)

    def handle_http_exception(self, error: HTTPException):
        data = getattr(error, "data", None) or {}
        messages = data.get("messages")
        if error.code == 422 and isinstance(messages, dict):
            return _webargs_problem(messages).response()
        kind = kind_for_status(error.code or 500)
        if error.code == 400 and messages:
            kind = "malformed-json"
        status = error.code or 500
        problem = ApiProblem(kind, error.description if status < 500 else None, status=status)
        if isinstance(error, MethodNotAllowed) and error.valid_methods:
            problem.headers["Allow"] = ", ".join(error.valid_methods)
        return problem.response()


def _webargs_problem(messages: dict) -> ApiProblem:
    """webargs nests messages under the location: the body's become pointers, the others parameter names."""
    errors: dict = {}
    for location, fields in messages.items():
        if location == "json":
            errors.update(fields if isinstance(fields, dict) else {"_schema": fields})
        else:
            errors.update({f"{name}": value for name, value in fields.items()} if isinstance(fields, dict) else {})
    return validation_problem(errors)


def _check_json_body() -> None:
    """415 for a body that is not declared JSON, 400 for one that does not parse."""
    if request.method not in ("POST", "PUT", "PATCH") or request.url_rule is None or dashboard.serves(request.path):
        return  # the RQ dashboard's forms post no JSON
    view = current_app.view_functions.get(request.endpoint)
    if getattr(getattr(view, "view_class", None), "takes_no_body", False) and not request.get_data(cache=True):
        return  # an operation without a body (e.g. leaving a seat) may be sent bare
    if not request.is_json:
        raise ApiProblem("unsupported-media-type", "send the body as application/json")
    limit = getattr(getattr(view, "view_class", view), "max_body_bytes", None)
    if limit is not None:  # a view that takes more than MAX_CONTENT_LENGTH says so
        request.max_content_length = limit
    data = request.get_data(cache=True)
    _check_chunked_size(data)
    try:
        g.json_body = json.loads(data or b"null", parse_constant=_no_constant)
    except ValueError as error:
        raise ApiProblem("malformed-json", f"the body is not valid JSON: {error}") from None
    except RecursionError:
        raise ApiProblem("malformed-json", "the body is nested too deeply") from None


def _check_chunked_size(data: bytes) -> None:
    """413 for a chunked body longer than ``MAX_CONTENT_LENGTH``.

    A body without ``Content-Length`` is read only up to the limit (Werkzeug stops there without
    complaint), so a body that filled it is checked for one byte more in the server's stream.
    """
    limit = request.max_content_length
    if request.content_length is not None or limit is None or len(data) < limit:
        return
    if request.environ["wsgi.input"].read(1):
        raise ApiProblem("payload-too-large", f"the body is longer than {limit} bytes")


def _no_constant(name: str):
    raise ValueError(f"{name} is not JSON")


def create_app(config: dict | None = None) -> Flask:
    app = Flask(__name__)
    app.config.update(settings(config))
    app.config.update(
        API_TITLE="Rulehouse",
        API_VERSION="1.3.0",  # see the API change policy in docs/http-api.md and CHANGELOG.md
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        API_SPEC_OPTIONS={
            "info": {"description": API_DESCRIPTION, "license": {"name": "MIT"}},
            "components": {"securitySchemes": {"bearerAuth": {
                "type": "http", "scheme": "bearer",
                "description": "A seat token (or the creator token) from POST /v1/games.",
            }, "appKey": {
                "type": "apiKey", "in": "header", "name": access.HEADER,
                "description": "The calling app's key (`rulehouse apps create`); required when the service "
                               "requires app keys. See docs/apps.md.",
            }}},
        },
    )
    app.json.sort_keys = False
    # An empty path segment (/v1/games//decisions) is a 404 like any unknown path, not a redirect
    # to the merged path, which would name another resource (a game called "decisions").
    app.url_map.merge_slashes = False
    api = RulehouseApi(app, spec_kwargs={"extra_plugins": [OperationIdPlugin()]})
    for name, schema in {**SPEC_SCHEMAS, **CHAT_SPEC_SCHEMAS}.items():
        api.spec.components.schema(name, schema=schema)
    api.spec.components.schema("StreamLine", component=STREAM_LINE)
    api.spec.components.schema("ChatStreamLine", component=CHAT_LINE)
    for blueprint in (rulesets_blp, games_blp, seats_blp, hints_blp, win_chances_blp, analysis_blp, chat_blp,
                      records_blp, views_blp, simulations_blp, experiments_blp, players_blp, ratings_blp,
                      tournaments_blp, apps_blp, webhooks_blp, system_blp):
        api.register_blueprint(blueprint)
    app.register_blueprint(web_blp)
    if app.config["BENCH_ENDPOINTS"]:
        app.register_blueprint(bench)
    webhooks = Webhooks.from_settings(app.config)
    store = wire(GameStore.from_settings(app.config, pooled=cooperative()), webhooks)
    moves.states.resize(app.config["STATE_CACHE_SIZE"])
    timelines.resize(app.config["TIMELINE_GAMES"])
    app.extensions["rulehouse.store"] = store
    app.extensions[access.EXTENSION] = store.beside(AppKeys)
    app.extensions[quotas.CENSUS_EXTENSION] = census(store)
    app.extensions[WEBHOOKS_EXTENSION] = webhooks
    if not app.config["REQUIRE_API_KEYS"]:
        log.warning("development mode: requests without an app key belong to the 'local' app "
                    "(set RULEHOUSE_REQUIRE_API_KEYS=1 in any deployment)")
    # Request ids, metrics and logs come first: every later refusal carries the id and is counted.
    init_observability(app)
    # A CORS preflight carries no app key: answer it before anyone asks for one.
    init_cors(app)
    # Who calls comes first: the rate limits (registered next) count per app.
    app.before_request(access.identify)
    app.before_request(closed_round.guard)
    limits.init_limiter(app)
    app.before_request(_check_json_body)
    app.register_error_handler(ApiProblem, lambda problem: problem.response())
    app.register_error_handler(PlayError, play_error_response)
    app.register_error_handler(redis.RedisError, _redis_down)
    app.register_error_handler(Exception, _unexpected)
    return app


def _redis_down(error: redis.RedisError) -> Response:
    log.warning("Redis error: %s", error)
    return ApiProblem("service-unavailable", "Redis does not answer").response()


def _unexpected(error: Exception) -> Response:
    if isinstance(error, HTTPException):
        return error
    log.exception("unexpected error")
    return ApiProblem("internal-error").response()
