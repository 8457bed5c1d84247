"""``/v1/games``: create a game, read it as a seat or a spectator, act, and follow its events."""

from __future__ import annotations

import json
import re
import secrets
import time

from flask import Response, current_app, g, request, stream_with_context, url_for
from flask.views import MethodView
from flask_smorest import Blueprint

from api import deadlines
from api.games.schemas import (
    ActionResultSchema,
    CreatedGameSchema,
    CreateGameSchema,
    DecisionsSchema,
    EventPageSchema,
    EventsQuerySchema,
    GameSchema,
    StreamQuerySchema,
)
from api.http import (
    bearer_token,
    caller_seat,
    expected_version,
    iso_time,
    json_response,
    load_game,
    store,
    version_of,
)
from api.moves import load_state, submit_action
from api.problems import ApiProblem, problem_response, validation_problem
from api.store import ACTIVE, FINISHED, GameRecord, StoredEvent, token_digest
from engine.core.errors import InvalidOptions
from engine.core.registry import get_ruleset
from engine.core.ruleset import Ruleset

blp = Blueprint("games", __name__, url_prefix="/v1/games", description="Games refereed by the service.")

AUTH = [{"bearerAuth": []}, {}]
_IDEMPOTENCY_KEY = re.compile(r"^[\x21-\x7e]{1,255}$")

#: Request examples that work as sent (the API reference page at /docs offers them).
CREATE_EXAMPLE = {"ruleset": "monopoly-cars2", "seats": [{"name": "Ann"}, {"name": "Robo", "bot": "heuristic"}],
                  "options": {}, "seed": 1}  # seed 1: Ann spins first, so the Act example ({"type": "roll"}) is legal
IF_MATCH = {"in": "header", "name": "If-Match", "required": True, "schema": {"type": "string"}, "example": '"0"',
            "description": "The game version the action answers (the `ETag` of the game), e.g. `\"3\"`."}
IDEMPOTENCY_KEY = {
    "in": "header", "name": "Idempotency-Key", "required": False,
    "schema": {"type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[!-~]+$"},
    "description": "Any unique string (e.g. a UUID). A repeat with the same key and body within 24 h returns the "
                   "first outcome without applying the action again; the same key with another body is 422.",
}
SEAT_QUERY = {"in": "query", "name": "seat", "required": False, "schema": {"type": "integer", "minimum": 0},
              "description": "The seat the caller means to act for; 403 unless it is the token's own seat."}
ETAG_HEADER = {"ETag": {"description": "The game version, quoted.", "schema": {"type": "string"}}}


def not_modified(version: int) -> bool:
    """Whether ``If-None-Match`` names this version (each token sees its own view of one version)."""
    header = request.headers.get("If-None-Match")
    return header is not None and version_of(header) == version


def not_modified_response(version: int) -> Response:
    response = Response(status=304)
    response.headers["ETag"] = f'"{version}"'
    return response


def visible(event: dict, seat: int | None) -> bool:
    seats = event.get("visible_to")
    return seats is None or (seat is not None and seat in seats)


def event_entries(events: list[StoredEvent], seat: int | None) -> list[dict]:
    return [{"cursor": e.cursor, "version": e.version, "event": e.event} for e in events if visible(e.event, seat)]


def waiting_for(decisions) -> list[int]:
    return sorted({decision.seat for decision in decisions})


def deadline_time(record, decisions) -> str | None:
    due = deadlines.deadline_of(record, decisions)
    return None if due is None else iso_time(due)


def public_seats(seats: list[dict]) -> list[dict]:
    return [{"seat": number, "name": seat["name"], "bot": seat.get("bot")} for number, seat in enumerate(seats)]


def _load_current(game_id: str, token: str | None) -> GameRecord:
    """The game as a reader should see it: with its overdue decision defaults played first."""
    record = load_game(game_id, token)
    if deadlines.apply_if_overdue(store(), record):
        record = load_game(game_id, token)
    return record


# -- create ---------------------------------------------------------------------


def _new_game(body: dict) -> tuple[Ruleset, object, int]:
    try:
        ruleset = get_ruleset(body["ruleset"])
    except KeyError:
        raise validation_problem({"ruleset": [f"unknown ruleset {body['ruleset']!r}; see GET /v1/rulesets"]}) from None
    bots = ruleset.bot_names()
    bad_bots = {str(i): {"bot": [f"must be one of {bots}"]}
                for i, seat in enumerate(body["seats"]) if seat["bot"] is not None and seat["bot"] not in bots}
    if bad_bots:
        raise validation_problem({"seats": bad_bots})
    seed = body["seed"] if body["seed"] is not None else secrets.randbits(63)
    try:
        state = ruleset.new_game(len(body["seats"]), body["options"], seed)
    except InvalidOptions as error:
        fields = dict(error.fields)
        messages: dict = {"options": fields}
        if "players" in fields:
            messages = {"seats": fields.pop("players"), "options": fields}
        raise validation_problem(messages, error.message) from None
    return ruleset, state, seed


@blp.route("")
class Games(MethodView):
    @blp.arguments(CreateGameSchema, example=CREATE_EXAMPLE)
    @blp.response(201, CreatedGameSchema, headers={"Location": {"schema": {"type": "string"}}, **ETAG_HEADER})
    @blp.alt_response(**problem_response(422, "Unknown ruleset or bot, wrong number of seats, or invalid options."))
    @blp.alt_response(**problem_response(400, "The body is not valid JSON."))
    @blp.alt_response(**problem_response(413, "The body is too large."))
    @blp.alt_response(**problem_response(415, "The body is not JSON."))
    def post(self, body: dict):
        """Create a game

        Answers with the game id, its version (0) and one secret bearer token per human
        seat plus a creator token; only their SHA-256 digests are stored, so they are
        shown only here. Bot seats are played by workers from their own view. The event
        log starts with a public `game_created` event, then whatever the setup resolved
        by itself (e.g. who goes first).
        """
        ruleset, state, seed = _new_game(body)
        game_id = secrets.token_hex(8)
        seats = [{"name": seat["name"], "bot": seat["bot"]} for seat in body["seats"]]
        tokens = [None if seat["bot"] else secrets.token_urlsafe(24) for seat in seats]
        creator_token = secrets.token_urlsafe(24)
        digests = {token_digest(token): str(number) for number, token in enumerate(tokens) if token}
        digests[token_digest(creator_token)] = "creator"
        status = ACTIVE if ruleset.result(state) is None else FINISHED
        first_event = {"type": "game_created", "ruleset": ruleset.id, "players": len(seats),
                       "seats": public_seats(seats)}
        timeout, now, due = body["decision_timeout"], time.time(), None
        store().create(game_id, ruleset=ruleset.id, state=json.dumps(ruleset.to_dict(state)), status=status,
                       seats=seats, players=len(seats), seed=seed, options=body["options"], tokens=digests,
                       events=[first_event, *(event.to_dict() for event in ruleset.setup_events(state))],
                       decision_timeout=timeout, now=now)
        if status == ACTIVE:
            pending = ruleset.pending(state)
            store().schedule_bots(game_id, 0, seats, pending)
            due = deadlines.schedule(store(), game_id, 0, seats, timeout, pending, since=now)
        created = {
            "id": game_id, "ruleset": ruleset.id, "version": 0, "status": status, "seed": body["seed"],
            "seats": [{**seat, "token": token} for seat, token in zip(public_seats(seats), tokens, strict=True)],
            "creator_token": creator_token, "decision_timeout": timeout,
            "deadline": None if due is None else iso_time(due),
        }
        location = url_for("games.Game", game_id=game_id)
        return json_response(created, 201, version=0, headers={"Location": location})


# -- one game -------------------------------------------------------------------


@blp.route("/<game_id>")
class Game(MethodView):
    @blp.doc(security=AUTH)
    @blp.response(200, GameSchema, headers=ETAG_HEADER)
    @blp.alt_response(304, description="`If-None-Match` names the current version: nothing changed.",
                      headers=ETAG_HEADER)
    @blp.alt_response(**problem_response(401, "The token is malformed or not one of this game's."))
    @blp.alt_response(**problem_response(404, "No such game (or it expired)."))
    def get(self, game_id: str):
        """Read a game

        The caller's view: a seat token gives that seat's view (its own secrets
        included), the creator token or no token the spectator view. `ETag` is the
        version (send it back as `If-None-Match` to get 304 while nothing changed);
        `result` is set once the game is over. Reading a game whose bot seat
        has a decision also queues that bot's job again if it was lost.
        """
        record = _load_current(game_id, bearer_token())
        role, seat = caller_seat(record)
        if not_modified(record.version):
            return not_modified_response(record.version)
        ruleset = get_ruleset(record.ruleset)
        state = load_state(ruleset, record)
        result = ruleset.result(state)
        pending = ruleset.pending(state)
        if result is None and any(entry.get("bot") for entry in record.seats):
            # Self-healing: queue the bot job again if it was lost (a no-op while it exists).
            store().schedule_bots(game_id, record.version, record.seats, pending)
        body = {
            "id": game_id, "ruleset": record.ruleset, "version": record.version, "status": record.status,
            "role": role, "seat": seat, "seats": public_seats(record.seats), "waiting_for": waiting_for(pending),
            "view": ruleset.view(state, seat), "result": None if result is None else result.to_dict(),
            "created": iso_time(record.created), "updated": iso_time(record.updated),
            "decision_timeout": record.decision_timeout, "deadline": deadline_time(record, pending),
        }
        return json_response(body, version=record.version)

    @blp.doc(security=[{"bearerAuth": []}])
    @blp.response(204)
    @blp.alt_response(**problem_response(401, "No token, or not one of this game's."))
    @blp.alt_response(**problem_response(403, "Only the creator token may delete a game."))
    @blp.alt_response(**problem_response(404, "No such game (or it expired)."))
    def delete(self, game_id: str):
        """Delete a game

        The creator token removes the game and its event log at once (games also
        expire by themselves: see the service's TTL settings).
        """
        token = _required_token()
        record = load_game(game_id, token)
        role, _ = caller_seat(record)
        if role != "creator":
            raise ApiProblem("forbidden", "only the creator token may delete a game")
        store().delete(game_id)
        return Response(status=204)


def _required_token() -> str:
    token = bearer_token()
    if token is None:
        raise ApiProblem("unauthorized", "this needs a seat token: 'Authorization: Bearer <token>'",
                         headers={"WWW-Authenticate": "Bearer"})
    return token


@blp.route("/<game_id>/decisions")
class Decisions(MethodView):
    @blp.doc(security=AUTH)
    @blp.response(200, DecisionsSchema, headers=ETAG_HEADER)
    @blp.alt_response(304, description="`If-None-Match` names the current version: nothing changed.",
                      headers=ETAG_HEADER)
    @blp.alt_response(**problem_response(401, "The token is malformed or not one of this game's."))
    @blp.alt_response(**problem_response(404, "No such game (or it expired)."))
    def get(self, game_id: str):
        """The caller's pending decisions

        Each decision lists complete legal action bodies in `options` (numeric
        parameters by their extremes plus `ranges`) and the `default` played if the
        seat never decides. Other seats' options are never shown; `waiting_for` says
        which seats have something to decide.
        """
        record = _load_current(game_id, bearer_token())
        _, seat = caller_seat(record)
        if not_modified(record.version):
            return not_modified_response(record.version)
        ruleset = get_ruleset(record.ruleset)
        pending = ruleset.pending(load_state(ruleset, record))
        body = {
            "version": record.version, "seat": seat,
            "decisions": [decision.to_dict() for decision in pending if seat is not None and decision.seat == seat],
            "waiting_for": waiting_for(pending),
            "deadline": deadline_time(record, pending),
        }
        return json_response(body, version=record.version)


@blp.route("/<game_id>/actions")
class Actions(MethodView):
    @blp.doc(security=[{"bearerAuth": []}], parameters=[IF_MATCH, IDEMPOTENCY_KEY, SEAT_QUERY], requestBody={
        "required": True,
        "description": "An action body, e.g. `{\"type\": \"roll\"}`: one of the options of a decision of yours, "
                       "or within its `ranges`. It is checked against the ruleset's action schemas "
                       "(`GET /v1/rulesets/{ruleset}`), not by the framework, so any JSON reaches the engine.",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Action"},
                                         "example": {"type": "roll"}}},
    })
    @blp.response(200, ActionResultSchema, headers=ETAG_HEADER)
    @blp.alt_response(**problem_response(400, "The body is not valid JSON."))
    @blp.alt_response(**problem_response(401, "No token, or not one of this game's."))
    @blp.alt_response(**problem_response(403, "The creator token has no seat, or `seat` names another seat."))
    @blp.alt_response(**problem_response(404, "No such game (or it expired)."))
    @blp.alt_response(**problem_response(409, "Well-formed, but the rules forbid it now (`reason`: not_your_turn, "
                                     "action_not_allowed, option_not_allowed, game_over, or a game's own code)."))
    @blp.alt_response(**problem_response(412, "`If-Match` is not the game's current version (`version` has it)."))
    @blp.alt_response(**problem_response(413, "The body is too large."))
    @blp.alt_response(**problem_response(415, "The body is not JSON."))
    @blp.alt_response(**problem_response(422, "The body fits none of the ruleset's action schemas, or the "
                                     "Idempotency-Key was used with another body."))
    @blp.alt_response(**problem_response(428, "`If-Match` is missing."))
    def post(self, game_id: str):
        """Act

        Sends one action for the token's seat. The action is checked against the game
        at the `If-Match` version: two clients racing on one version get one 200 and
        one 412. The answer carries the new version and the events the action caused,
        as far as the caller may see them.
        """
        token = _required_token()
        key = request.headers.get("Idempotency-Key")
        if key is not None and not _IDEMPOTENCY_KEY.match(key):
            raise validation_problem({"Idempotency-Key": ["1 to 255 visible ASCII characters"]})
        version = expected_version()
        record = load_game(game_id, token)
        _role, seat = caller_seat(record)
        if seat is None:
            raise ApiProblem("forbidden", "the creator token has no seat; act with a seat token")
        wanted = request.args.get("seat")
        if wanted is not None:
            if not wanted.isdigit():
                raise validation_problem({"seat": ["a seat number"]})
            if int(wanted) != seat:
                raise ApiProblem("forbidden", f"this token acts for seat {seat} only")
        outcome = submit_action(store(), game_id, seat, g.json_body, version, key, record=record)
        body = {
            "game_id": game_id, "seat": seat, "version": outcome.version, "status": outcome.status,
            "events": event_entries(outcome.events, seat), "result": outcome.result, "replayed": outcome.replayed,
        }
        return json_response(body, version=outcome.version)


@blp.route("/<game_id>/events")
class Events(MethodView):
    @blp.doc(security=AUTH)
    @blp.arguments(EventsQuerySchema, location="query")
    @blp.response(200, EventPageSchema, headers=ETAG_HEADER)
    @blp.alt_response(**problem_response(401, "The token is malformed or not one of this game's."))
    @blp.alt_response(**problem_response(404, "No such game (or it expired)."))
    def get(self, query: dict, game_id: str):
        """The event log, paged

        Events after the cursor `after`, oldest first, as far as the caller may see
        them (a private event reaches only the seats in its `visible_to`). Pass `next`
        as `after` to read on.
        """
        record = load_game(game_id, bearer_token())
        _, seat = caller_seat(record)
        cursor, limit, found = query["after"], query["limit"], []
        while len(found) < limit:
            events, last = store().events(game_id, cursor, limit - len(found))
            if last is None:
                break
            cursor = last
            found.extend(event_entries(events, seat))
        return json_response({"version": record.version, "events": found, "next": cursor}, version=record.version)


@blp.route("/<game_id>/stream")
class Stream(MethodView):
    @blp.doc(security=AUTH, responses={"200": {
        "description": "NDJSON: one JSON object per line. The first line is `{\"kind\": \"state\", ...}` (the "
                       "game as `GET /v1/games/{id}` shows it, plus `cursor`); then `{\"kind\": \"event\", "
                       "\"cursor\", \"version\", \"event\"}` lines, `{\"kind\": \"keepalive\"}` after each "
                       "silent interval, and a last `{\"kind\": \"end\", \"reason\", \"version\", \"result\"}` "
                       "when the game is over (or the connection reached its time limit: resume with `after`).",
        "content": {"application/x-ndjson": {"schema": {"type": "string"}}},
    }})
    @blp.arguments(StreamQuerySchema, location="query")
    @blp.alt_response(**problem_response(401, "The token is malformed or not one of this game's."))
    @blp.alt_response(**problem_response(404, "No such game (or it expired)."))
    def get(self, query: dict, game_id: str):
        """Follow a game live

        The caller-visible event log as it happens (newline-delimited JSON). Without
        `after`, events start after the state of the first line; with `after`, every
        event after that cursor comes first.
        """
        token = bearer_token()
        record, last_cursor = store().load_with_cursor(game_id, token)
        if record is None:
            raise ApiProblem("not-found", f"no game {game_id!r}")
        role, seat = caller_seat(record)
        ruleset = get_ruleset(record.ruleset)
        state = load_state(ruleset, record)
        result = ruleset.result(state)
        pending = ruleset.pending(state)
        first = {
            "kind": "state", "cursor": last_cursor, "id": game_id, "ruleset": record.ruleset,
            "version": record.version, "status": record.status, "role": role, "seat": seat,
            "waiting_for": waiting_for(pending), "view": ruleset.view(state, seat),
            "result": None if result is None else result.to_dict(),
            "deadline": deadline_time(record, pending),
        }
        cursor = query.get("after", last_cursor)
        settings = current_app.config
        lines = _stream_lines(store(), game_id, seat, first, cursor, float(settings["STREAM_KEEPALIVE_SECONDS"]),
                              float(settings["STREAM_MAX_SECONDS"]))
        response = Response(stream_with_context(lines), mimetype="application/x-ndjson")
        response.headers["Cache-Control"] = "no-cache"
        response.headers["X-Accel-Buffering"] = "no"
        response.headers["ETag"] = f'"{record.version}"'
        return response


def _final_result(game_store, game_id: str) -> dict | None:
    record = game_store.load(game_id)
    if record is None:
        return None
    ruleset = get_ruleset(record.ruleset)
    result = ruleset.result(load_state(ruleset, record))
    return None if result is None else result.to_dict()


def _stream_lines(game_store, game_id: str, seat: int | None, first: dict, cursor: str, keepalive: float,
                  max_seconds: float):
    yield json.dumps(first) + "\n"
    deadline = time.monotonic() + max_seconds
    version = first["version"]
    while True:
        events, last = game_store.events(game_id, cursor, 100)
        if last is None:
            status = game_store.status(game_id)
            if status is None:
                yield json.dumps({"kind": "end", "reason": "gone", "version": version, "result": None}) + "\n"
                return
            if status[0] == FINISHED:
                yield json.dumps({"kind": "end", "reason": "finished", "version": status[1],
                                  "result": _final_result(game_store, game_id)}) + "\n"
                return
            wait = min(keepalive, deadline - time.monotonic())
            if wait <= 0:
                yield json.dumps({"kind": "end", "reason": "time_limit", "version": version, "result": None}) + "\n"
                return
            events, last = game_store.wait_events(game_id, cursor, int(wait * 1000))
            if last is None:
                yield '{"kind":"keepalive"}\n'
                continue
        cursor = last
        for entry in event_entries(events, seat):
            version = entry["version"]
            yield json.dumps({"kind": "event", **entry}) + "\n"
