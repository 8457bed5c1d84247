"""``/v1/games``: create a game, read it as a seat or a spectator, act, and follow its events."""

from __future__ import annotations

import json
import re
import secrets
import time

from flask import Response, g, request, url_for
from flask.views import MethodView
from flask_smorest import Blueprint

from api.apps import ownership
from api.competition import closed_round
from api.competition.games import seat_player
from api.games.bodies import STREAM_STATE_FIELDS, deadline_time, event_entries, game_body, waiting_for
from api.games.rematch import rematch_body, require_rematch_allowed
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
from api.ground.times import iso_time
from api.http.etags import parse_if_match
from api.http.helpers import (
    bearer_token,
    caller_role,
    caller_seat,
    caller_specific,
    json_response,
    load_current,
    load_game,
    not_modified,
    required_token,
    store,
)
from api.http.problems import ApiProblem, problem_response, validation_problem
from api.play import creation
from api.play.after import delete_game
from api.play.bot_queueing import ensure_job
from api.play.game_keys import token_digest
from api.play.game_record import ACTIVE, FINISHED, WAITING, NewGameRecord
from api.play.moves import load_state, submit_action
from api.play.preconditions import next_marks, with_ids
from api.play.table import Table, game_invites, public_seats
from api.records.creation import NewGame, fork_game, sealed
from api.streams import live
from engine.core.errors import InvalidOptions
from engine.core.registry import UnknownRuleset, get_ruleset
from engine.core.ruleset import Ruleset

blp = Blueprint("games", __name__, url_prefix="/v1/games", description="Games refereed by the service.")

AUTH = [{"bearerAuth": []}, {}]
_IDEMPOTENCY_KEY = re.compile(r"^[\x21-\x7e]{1,255}$")
#: ASCII digits only (``str.isdigit`` also takes "²", which ``int`` refuses), and few of them
_SEAT_NUMBER = re.compile(r"^[0-9]{1,3}\Z")

IF_MATCH = {"in": "header", "name": "If-Match", "required": True,
            "schema": {"type": "string", "maxLength": 64}, "example": '"0"',
            "description": "What the action answers. A version tag (the `ETag` you read, e.g. `\"3\"` or "
                           "`\"3.1\"`): strict, 412 once the game has moved at all. Or a decision tag "
                           "`\"d:<decision id>\"`, e.g. `\"d:1.3\"`: accepted while that decision of yours is "
                           "still pending and unchanged, even when other seats moved meanwhile. Any other value "
                           "is 400."}
IDEMPOTENCY_KEY = {
    "in": "header", "name": "Idempotency-Key", "required": False,
    "schema": {"type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[!-~]+$"},
    "description": "Any unique string (e.g. a UUID). A repeat with the same key and body within 24 h returns the "
                   "first outcome without applying the action again; the same key with another body is 422.",
}
SEAT_QUERY = {"in": "query", "name": "seat", "required": False,
              "schema": {"type": "integer", "minimum": 0, "maximum": 999},
              "description": "The seat the caller means to act for; 403 unless it is the token's own seat."}
#: The request examples of the spec (the docs page offers them; tests/api/test_spec_examples.py sends
#: them). With seed 7 Ann (seat 0) moves first, so the action example is hers to send.
CREATE_GAME_EXAMPLE = {"ruleset": "monopoly-cars2", "seats": [{"name": "Ann"}, {"name": "Bob"},
                                                              {"name": "Robo", "bot": "heuristic"}],
                       "options": {}, "seed": 7}
RULES_VERSION_GONE = problem_response(410, "The game was created under an older rules version of its ruleset "
                                           "(`rules-version`; see the rules versions in docs/http-api.md).")
ETAG_HEADER = {"ETag": {"description": "`\"<version>\"` to a spectator, `\"<version>.<role>\"` to a token "
                                     "holder (`<role>`: the seat number, or `c` for the creator).",
                      "schema": {"type": "string"}}}


# -- create ---------------------------------------------------------------------


def _new_game(body: dict) -> NewGame:
    if body["fork"] is not None:
        closed_round.refuse_fork(body["fork"]["game"])
        new = fork_game(store(), body, bearer_token(), ownership.require_creator_app)
        _check_bots(new.ruleset, new.seats)
        return new
    try:
        ruleset = get_ruleset(body["ruleset"])
    except UnknownRuleset as unknown:
        raise validation_problem({"ruleset": [unknown.message]}, unknown.message) from None
    _check_bots(ruleset, body["seats"])
    seed = body["seed"] if body["seed"] is not None else secrets.randbits(63)
    try:
        state = ruleset.new_game(len(body["seats"]), body["options"], seed)
    except InvalidOptions as error:
        fields = dict(error.fields)
        messages: dict = {"options": fields}
        if "players" in fields:
            messages = {"seats": fields.pop("players"), "options": fields}
        raise validation_problem(messages, error.message) from None
    return NewGame(ruleset, state, seed, body["seats"], body["options"],
                   sealed(seed, "service" if body["seed"] is None else "client"))


def _check_bots(ruleset: Ruleset, seats: list[dict]) -> None:
    bots = ruleset.bot_names()
    bad_bots = {str(i): {"bot": [f"must be one of {bots}"]}
                for i, seat in enumerate(seats) if seat["bot"] is not None and seat["bot"] not in bots}
    if bad_bots:
        raise validation_problem({"seats": bad_bots})


@blp.route("")
class Games(MethodView):
    @blp.arguments(CreateGameSchema, example=CREATE_GAME_EXAMPLE)
    @blp.response(201, CreatedGameSchema, headers={"Location": {"schema": {"type": "string"}}, **ETAG_HEADER})
    @blp.alt_response(**problem_response(403, "`fork` names a running game and the token is not its creator's, or "
                                         "the game belongs to another app (`not_owner`); over a quota of the app "
                                         "(`quota-exceeded`)."))
    @blp.alt_response(**problem_response(422, "Unknown ruleset or bot, wrong number of seats, or invalid options; "
                                     "a fork of a missing game or version."))
    @blp.alt_response(**problem_response(400, "The body is not valid JSON."))
    @blp.alt_response(**problem_response(413, "The body is too large."))
    @blp.alt_response(**problem_response(415, "The body is not JSON."))
    def post(self, body: dict):
        """Create a game

        Answers with the game id, its version (0) and one secret bearer token per named
        human seat plus a creator token; only their SHA-256 digests are stored, so they
        are shown only here. Bot seats are played by workers from their own view. Open
        seats (`{"open": true}`) get one invite each, and the game is `waiting` until they
        are taken (`POST /v1/games/{id}/join`) or the creator starts it; its setup runs then.
        The event log starts with a public `game_created` event (with the `seed_commitment`),
        then whatever the setup resolved by itself (e.g. who goes first).

        With `fork` the game starts at another game's position instead (see
        docs/records.md): same ruleset, options and seat names unless `seats` is given (a
        fork has no open seats).
        """
        created = create_game(body)
        location = url_for("games.Game", game_id=created["id"])
        return json_response(created, 201, version=0, role="c", headers={"Location": location})


def create_game(body: dict) -> dict:
    """Create the game a ``CreateGameSchema`` body describes: the creation's answer (its tokens included)."""
    new = _new_game(body)
    ruleset, state = new.ruleset, new.state
    ownership.admit_search_seats(ruleset, [seat.get("bot") for seat in new.seats], ownership.current_app_id())
    game_id = secrets.token_hex(8)
    seats = [{"name": seat.get("name") or (f"{seat['bot']} bot" if seat.get("bot") else None),
              "bot": seat.get("bot"), "player": seat_player(seat)} for seat in new.seats]
    tokens = [secrets.token_urlsafe(24) if seat["name"] and not seat["bot"] else None for seat in seats]
    creator_token = secrets.token_urlsafe(24)
    digests = {token_digest(token): str(number) for number, token in enumerate(tokens) if token}
    digests[token_digest(creator_token)] = "creator"
    invites, per_game_invite, invite_digests = game_invites(seats, ruleset.joins_mid_game and not body["rated"])
    timeout, now, result_body = body["decision_timeout"], time.time(), None
    first_event = {"type": "game_created", "ruleset": ruleset.id, "rules_version": ruleset.rules_version,
                   "players": len(seats),
                   "seats": public_seats(seats), "seed_commitment": new.seed_commitment, "fork": new.fork}
    if invites:
        if new.fork:
            raise validation_problem({"seats": ["a fork starts at its position: it cannot have open seats"]})
        status, state_json, events, pending = WAITING, "", [first_event], []
    else:
        status = ACTIVE if ruleset.result(state) is None else FINISHED
        state_json = json.dumps(ruleset.to_dict(state))
        events = [first_event, *(event.to_dict() for event in
                                 ([] if new.fork else ruleset.setup_events(state)))]
        pending = ruleset.pending(state) if status == ACTIVE else []
        result = ruleset.result(state)
        result_body = None if result is None else result.to_dict()
    # The app's live games and, of a rated game, its players' places in rated_players: taken at once, atomically.
    rated_players = [seat["player"] for seat in seats if body["rated"] and seat["player"]]
    with ownership.holding("games", game_id, rated=rated_players):
        made = creation.create(store(), NewGameRecord(
            game_id, ruleset=ruleset.id, rules_version=ruleset.rules_version, state=state_json, status=status,
            seats=seats, seed=new.seed, options=new.options, tokens=digests, events=events,
            marks=next_marks(pending, None, 0), created=now, decision_timeout=timeout,
            app=ownership.current_app_id(), retention=ownership.game_retention(), provenance=new.provenance,
            listed=body["listed"], invites=invite_digests, hints=body["hints"], chat=body["chat"],
            rated=body["rated"], win_chances=body["win_chances"]), pending, result=result_body)
    ownership.claim("games", game_id)
    if status == WAITING and body["listed"]:
        Table(store()).list_in_lobby(game_id, ruleset.id, now)
    due = made.deadline
    created = {
        "id": game_id, "ruleset": ruleset.id, "rules_version": ruleset.rules_version, "version": 0,
        "status": status, "seed": body["seed"],
        "seats": [{**seat, "token": token} for seat, token in zip(public_seats(seats), tokens, strict=True)],
        "creator_token": creator_token, "decision_timeout": timeout,
        "deadline": None if due is None else iso_time(due), "seed_commitment": new.seed_commitment,
        "fork": new.fork, "invites": invites, "invite": per_game_invite, "listed": body["listed"],
        "hints": body["hints"], "chat": body["chat"], "rated": body["rated"], "win_chances": body["win_chances"],
    }
    return created


# -- one game -------------------------------------------------------------------


@blp.route("/<game_id>")
class Game(MethodView):
    @blp.doc(security=AUTH)
    @blp.response(200, GameSchema, headers=ETAG_HEADER)
    @blp.alt_response(304, description="`If-None-Match` names the current version: nothing changed.",
                      headers=ETAG_HEADER)
    @blp.alt_response(**problem_response(401, "The token is malformed or not one of this game's."))
    @blp.alt_response(**problem_response(404, "No such game (or it expired)."))
    @blp.alt_response(**RULES_VERSION_GONE)
    def get(self, game_id: str):
        """Read a game

        The caller's view: a seat token gives that seat's view (its own secrets
        included), the creator token or no token the spectator view. `ETag` is the
        version (send it back as `If-None-Match` to get 304 while nothing changed);
        `result` is set once the game is over. Reading a game whose bot seat
        has a decision also queues that bot's job again if it was lost.
        """
        record = load_current(game_id, bearer_token())
        role, seat, tag = caller_role(record)
        if (unchanged := not_modified(record.version, tag)) is not None:
            return unchanged
        body, pending = game_body(record, role, seat)
        if body["result"] is None and any(entry.get("bot") for entry in record.seats):
            # Self-healing: queue the bot job again if it was lost (a no-op while it exists).
            ensure_job(store(), record, pending)
        return json_response(body, version=record.version, role=tag)

    @blp.doc(security=[{"bearerAuth": []}])
    @blp.response(204)
    @blp.alt_response(**problem_response(401, "No token, or not one of this game's."))
    @blp.alt_response(**problem_response(403, "Only the creator token may delete a game, through the app that "
                                         "created it (`not_owner`)."))
    @blp.alt_response(**problem_response(404, "No such game (or it expired)."))
    def delete(self, game_id: str):
        """Delete a game

        The creator token removes the game and its event log at once (games also
        expire by themselves: see the service's TTL settings).
        """
        token = required_token()
        record = load_game(game_id, token)
        role, _ = caller_seat(record)
        ownership.require_creator(role, record.app, "delete a game")
        delete_game(store(), record)
        ownership.release(record.app, "games", game_id)
        return Response(status=204)


@blp.route("/<game_id>/rematch")
class Rematch(MethodView):
    #: sent bare: the finished game says everything
    takes_no_body = True

    @blp.doc(security=[{"bearerAuth": []}], operationId="rematch_game")
    @blp.response(201, CreatedGameSchema, headers={"Location": {"schema": {"type": "string"}}, **ETAG_HEADER})
    @blp.alt_response(200, schema=CreatedGameSchema, description="The rematch was started before: the same answer.")
    @blp.alt_response(**problem_response(401, "No token, or not one of this game's."))
    @blp.alt_response(**problem_response(403, "Not the creator token, or the game belongs to another app "
                                         "(`not_owner`); over a quota of the app (`quota-exceeded`)."))
    @blp.alt_response(**problem_response(404, "No such game (or it expired)."))
    @blp.alt_response(**problem_response(409, "The game has not finished (`reason`: not_finished), or it is a "
                                         "tournament's table (`tournament_table`)."))
    @blp.alt_response(**problem_response(422, "The ruleset no longer accepts the game's seats or options."))
    def post(self, game_id: str):
        """Start a rematch

        The creator token of a finished game (not a tournament's table) creates a new game
        with the same ruleset, seats and options and a new seed, answered as game creation
        answers: new seat tokens for the human seats (hand out the new seat links), bots
        as bots, a named `player` kept. Asking again for the same finished game answers the
        same rematch (200) instead of creating another one.
        """
        token = required_token()
        record = load_game(game_id, token)
        role, _ = caller_seat(record)
        require_rematch_allowed(record, role)
        rematches = store().rematches
        while not rematches.claim(game_id):
            kept = rematches.answer(game_id, token)
            if kept is not None:
                return json_response(kept, 200, version=0, role="c",
                                     headers={"Location": url_for("games.Game", game_id=kept["id"])})
        try:
            created = create_game(rematch_body(record))
        except BaseException:
            rematches.give_up(game_id)
            raise
        rematches.keep(game_id, token, created)
        location = url_for("games.Game", game_id=created["id"])
        return json_response(created, 201, version=0, role="c", headers={"Location": location})


@blp.route("/<game_id>/decisions")
class Decisions(MethodView):
    @blp.doc(security=AUTH, operationId="get_decisions")
    @blp.response(200, DecisionsSchema, headers=ETAG_HEADER)
    @blp.alt_response(304, description="`If-None-Match` names the current version: nothing changed.",
                      headers=ETAG_HEADER)
    @blp.alt_response(**problem_response(401, "The token is malformed or not one of this game's."))
    @blp.alt_response(**problem_response(404, "No such game (or it expired)."))
    @blp.alt_response(**RULES_VERSION_GONE)
    def get(self, game_id: str):
        """The caller's pending decisions

        Each decision lists complete legal action bodies in `options` (numeric
        parameters by their extremes plus `ranges`) and the `default` played if the
        seat never decides. Other seats' options are never shown; `waiting_for` says
        which seats have something to decide.
        """
        record = load_current(game_id, bearer_token())
        _, seat, tag = caller_role(record)
        if (unchanged := not_modified(record.version, tag)) is not None:
            return unchanged
        ruleset = get_ruleset(record.ruleset)
        pending = ruleset.pending(load_state(ruleset, record)) if record.status == ACTIVE else []
        mine = [decision for decision in pending if seat is not None and decision.seat == seat]
        body = {
            "version": record.version, "seat": seat,
            "decisions": with_ids(mine, record.marks, record.version, pending),
            "waiting_for": waiting_for(pending),
            "deadline": deadline_time(record, pending),
        }
        return json_response(body, version=record.version, role=tag)


@blp.route("/<game_id>/actions")
class Actions(MethodView):
    @blp.doc(operationId="submit_action", security=[{"bearerAuth": []}],
             parameters=[IF_MATCH, IDEMPOTENCY_KEY, SEAT_QUERY], requestBody={
        "required": True,
        "description": "An action body, e.g. `{\"type\": \"roll\"}`: one of the options of a decision of yours, "
                       "or within its `ranges`. It is checked against the ruleset's action schemas "
                       "(`GET /v1/rulesets/{ruleset}`), not by the framework, so any JSON reaches the engine.",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Action"},
                                         # the first decision of the create_game example's game
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
    @blp.alt_response(**RULES_VERSION_GONE)
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
        token = required_token()
        key = request.headers.get("Idempotency-Key")
        if key is not None and not _IDEMPOTENCY_KEY.match(key):
            raise validation_problem({"Idempotency-Key": ["1 to 255 visible ASCII characters"]})
        precondition = parse_if_match(request.headers.get("If-Match"))
        record = load_game(game_id, token)
        _role, seat, tag = caller_role(record)
        if seat is None:
            raise ApiProblem("forbidden", "the creator token has no seat; act with a seat token")
        wanted = request.args.get("seat")
        if wanted is not None:
            if not _SEAT_NUMBER.match(wanted):
                raise validation_problem({"seat": ["a seat number"]})
            if int(wanted) != seat:
                raise ApiProblem("forbidden", f"this token acts for seat {seat} only")
        if precondition.names_decision and precondition.seat != seat:
            raise ApiProblem("forbidden", f"this token answers seat {seat}'s decisions only")
        outcome = submit_action(store(), game_id, seat, g.json_body, precondition, key, record=record)
        body = {
            "game_id": game_id, "seat": seat, "version": outcome.version, "status": outcome.status,
            "events": event_entries(outcome.events, seat), "result": outcome.result, "replayed": outcome.replayed,
        }
        return json_response(body, version=outcome.version, role=tag)


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
        _, seat, tag = caller_role(record)
        cursor, limit, found = query["after"], query["limit"], []
        while len(found) < limit:
            events, last = store().events(game_id, cursor, limit - len(found))
            if last is None:
                break
            cursor = last
            found.extend(event_entries(events, seat))
        return json_response({"version": record.version, "events": found, "next": cursor}, version=record.version,
                             role=tag)


@blp.route("/<game_id>/stream")
class Stream(MethodView):
    @blp.doc(security=AUTH, operationId="stream_events", responses={"200": live.ndjson_answer(
        "NDJSON: one JSON object per line. The first line is `{\"kind\": \"state\", ...}` (the "
        "game as `GET /v1/games/{id}` shows it, plus `cursor`); then `{\"kind\": \"event\", "
        "\"cursor\", \"version\", \"event\"}` lines, `{\"kind\": \"keepalive\"}` after each "
        "silent interval, and a last `{\"kind\": \"end\", \"reason\", \"version\", \"result\"}` "
        "when the game is over, or the stream reached its time limit or lost Redis (resume "
        "with `after`).", "StreamLine")})
    @blp.arguments(StreamQuerySchema, location="query")
    @blp.alt_response(**problem_response(401, "The token is malformed or not one of this game's."))
    @blp.alt_response(**problem_response(404, "No such game (or it expired)."))
    @blp.alt_response(**RULES_VERSION_GONE)
    @blp.alt_response(**problem_response(429, "This client address already holds its limit of open streams."))
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
        role, seat, tag = caller_role(record)
        body, _ = game_body(record, role, seat)
        first = {"kind": "state", "cursor": last_cursor, **{name: body[name] for name in STREAM_STATE_FIELDS}}
        response = live.stream_response(game_id, first, query.get("after", last_cursor),
                                         lambda events: event_entries(events, seat))
        caller_specific(response, record.version, tag)
        response.headers["Cache-Control"] = "no-cache" if tag is None else "private, no-cache"
        return response

