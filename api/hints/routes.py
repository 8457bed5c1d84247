"""``GET /v1/games/{id}/hint``: a search bot's advice on the caller's own decision.

The search runs on the search workers (``api.hints.computing``), never in the request: the request
counts the hint, queues its job and waits for it at most ``?wait=`` seconds (polling Redis, which
yields to the event loop), then answers 200 with the hint or 202 with ``Retry-After``.
"""

from __future__ import annotations

import json
import time

from flask import request
from flask.views import MethodView
from flask_smorest import Blueprint

from api.apps import ownership
from api.hints.computing import describe, hint_bound, hint_charge_id, hint_job_id, queue_hint
from api.hints.schemas import HintQuerySchema, HintSchema
from api.http.helpers import answer_current, caller_role, json_response, not_modified, required_token, store
from api.http.problems import ApiProblem, problem_response
from api.play.bot_queueing import BOT_CHECK_AFTER_SECONDS
from api.play.game_record import ABORTED, WAITING, GameRecord
from api.play.moves import load_state
from engine.core.decisions import Decision
from engine.core.registry import get_ruleset
from engine.core.ruleset import Ruleset

blp = Blueprint("hints", __name__, url_prefix="/v1/games",
                description="Hints: a search bot's advice on a seat's own decision, in games with hints on.")

#: How often a waiting request looks whether its hint is done, in seconds.
POLL_SECONDS = 0.05
ETAG_HEADER = {"ETag": {"description": "`\"<version>.<seat>\"`: the version the hint is for, as the seat reads it.",
                        "schema": {"type": "string"}}}
PENDING_HEADERS = {
    "Retry-After": {"description": "Seconds after which to ask again.", "schema": {"type": "integer"}},
    "Location": {"description": "The URL to ask again (this one).", "schema": {"type": "string"}},
}


@blp.route("/<game_id>/hint")
class Hint(MethodView):
    #: read by api.observability.requests: when a seat asks is its secret until the game moves on
    private_timing = True

    @blp.doc(security=[{"bearerAuth": []}])
    @blp.arguments(HintQuerySchema, location="query")
    @blp.response(200, HintSchema, headers=ETAG_HEADER)
    @blp.alt_response(202, schema=HintSchema, headers=PENDING_HEADERS, description=(
        "The search is queued or running (`status: pending`): ask the same URL again after `Retry-After`."))
    @blp.alt_response(304, description="`If-None-Match` names the hint you have: it is still the one.",
                      headers=ETAG_HEADER)
    @blp.alt_response(**problem_response(401, "No token, or not one of this game's."))
    @blp.alt_response(**problem_response(403, "The game has hints off (`reason`: `hints_disabled`); the creator "
                                         "token has no seat, or `seat` names another seat; over the game's app's "
                                         "search quota or the seat's own (`quota-exceeded`)."))
    @blp.alt_response(**problem_response(404, "No such game (or it expired)."))
    @blp.alt_response(**problem_response(409, "The seat has nothing to decide now (`reason`: not_your_turn, "
                                         "game_over, not_started)."))
    @blp.alt_response(**problem_response(410, "The game was created under an older rules version of its ruleset "
                                         "(`rules-version`)."))
    @blp.alt_response(**problem_response(422, "`wait` or `seat` is out of bounds."))
    def get(self, query: dict, game_id: str):
        """A hint for the caller's decision

        For a game created with `hints: true`: a search bot (`mcts` at its default level)
        weighs the seat's options from what the seat may see (the hidden rest is re-dealt in
        each simulated game) and answers its suggested `action` with every candidate's
        estimated `value` (share of the win, 0 to 1) and `visits`. Computed on the search
        workers, once per seat and game version: asking again for the same version answers
        the same hint. Each hint counts once in the seat's public `hint_counts` (in the game
        and its record), once the game has moved on from that version.
        """
        return answer_current(game_id, required_token(), lambda record: _ask(record, query))


def _ask(record: GameRecord, query: dict):
    """The answer for the game as read, or None when it moved before the hint could be asked."""
    _role, seat, tag = caller_role(record)
    if seat is None:
        raise ApiProblem("forbidden", "the creator token has no seat; ask with a seat token")
    if query.get("seat") is not None and query["seat"] != seat:
        raise ApiProblem("forbidden", f"this token asks for seat {seat} only")
    if record.hint_counts is None:
        raise ApiProblem("forbidden", "this game was created with hints off", reason="hints_disabled")
    ruleset = get_ruleset(record.ruleset)
    pending = _pending(ruleset, record, seat)
    games = store()
    stored = games.hints.get(record.id, seat, record.version)
    if stored is None:
        stored = _ask_new(record, ruleset, seat, next(d for d in pending if d.seat == seat))
        if stored is None:
            return None
    if not _ready(stored):
        stored = _wait(record, seat, stored, query["wait"])
    if not _ready(stored):
        return json_response(describe(record, ruleset, seat, pending), 202,
                             headers={"Retry-After": "1", "Location": request.full_path.rstrip("?")})
    if (unchanged := not_modified(record.version, tag)) is not None:
        return unchanged
    return json_response(json.loads(stored), version=record.version, role=tag)


def _pending(ruleset: Ruleset, record: GameRecord, seat: int) -> list[Decision]:
    """The game's pending decisions, when ``seat`` is among them; else the 409 (410 for other rules)."""
    if record.status == WAITING:
        raise ApiProblem("illegal-action", "the game has not started: it waits for its open seats",
                         reason="not_started", version=record.version)
    state = load_state(ruleset, record)
    if record.status == ABORTED or ruleset.result(state) is not None:
        raise ApiProblem("illegal-action", f"the game is {record.status}", reason="game_over", version=record.version)
    pending = ruleset.pending(state)
    if not any(decision.seat == seat for decision in pending):
        raise ApiProblem("illegal-action", f"seat {seat} has nothing to decide now", reason="not_your_turn",
                         version=record.version)
    return pending


def _ask_new(record: GameRecord, ruleset: Ruleset, seat: int, decision: Decision) -> str | None:
    """The one ask of the hint that claims it reserves its search against the game's app (and the seat's
    own bound) and queues its job, which charges the work it did; the hint's stored value ("" while another
    ask is queueing it; None: stale)."""
    games, computation = store(), hint_charge_id(record.id, seat, record.version)
    if ownership.claim_search(record.app, hint_bound(ruleset, decision), computation, game_id=record.id,
                              seat=seat) is None:
        return ""
    job_id = hint_job_id(record.id, seat, record.version)
    outcome, value = games.hints.ask(record.id, seat, record.version, job_id)
    if outcome == "queued":
        queue_hint(games, record.id, seat, record.version, job_id)
        return job_id
    ownership.forgo_search(computation, computing=outcome == "computing")
    if outcome == "missing":
        raise ApiProblem("not-found", f"no game {record.id!r}")
    return value if outcome in ("ready", "computing") else None


def _ready(stored: str) -> bool:
    return stored.startswith("{")


def _wait(record: GameRecord, seat: int, job_id: str, seconds: float) -> str:
    """The hint's stored value once ready, or as it is after ``seconds``; a lost job is queued again, by the
    one ask that claims it (under the charge reserved for it)."""
    games = store()
    if job_id and not games.job_alive(job_id, grace=BOT_CHECK_AFTER_SECONDS) and \
            ownership.claim_computation(hint_charge_id(record.id, seat, record.version)):
        again = hint_job_id(record.id, seat, record.version, again=True)
        if games.hints.save(record.id, seat, record.version, again, replacing=job_id):
            queue_hint(games, record.id, seat, record.version, again)
    deadline = time.monotonic() + seconds
    stored = games.hints.get(record.id, seat, record.version) or job_id
    while not _ready(stored) and time.monotonic() < deadline:
        time.sleep(POLL_SECONDS)
        stored = games.hints.get(record.id, seat, record.version) or job_id
    return stored
