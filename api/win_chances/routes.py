"""``GET /v1/games/{id}/win-chances``: every seat's chance of winning, from what the caller may see.

Cheap enough to answer in the request (a few milliseconds): the value model (``engine.values``)
averaged over worlds drawn with ``resample_hidden`` from the caller's view, so the answer tells
nothing that view does not. A seat asks only where the game has hints on, and its ask counts in
``hint_counts`` like a hint (once per seat and version, ``WinChancesStore.ask``); a spectator
(or the creator) of a live game only when the creator allowed it (``win_chances: spectators``); a
finished game's chances are its result, open to all. Each view's chances are computed once per
version and kept with it, charged once to the game's app; a spectator's asks count against the
asker's own rate (``api.apps.limits.limit_spectator_asks``), whoever owns the game.
"""

from __future__ import annotations

import json
import time

from flask.views import MethodView
from flask_smorest import Blueprint

from api.apps import limits, ownership
from api.apps.accounting import CLAIM_SECONDS
from api.ground.faults import pause_point
from api.http.helpers import answer_current, bearer_token, caller_role, json_response, store
from api.http.problems import ApiProblem, problem_response
from api.play.game_record import ABORTED, WAITING, GameRecord
from api.play.moves import load_state
from api.win_chances.schemas import WinChancesQuerySchema, WinChancesSchema
from engine.core.registry import get_ruleset
from engine.core.rng import Rng, derive_seed
from engine.core.ruleset import Ruleset
from engine.values.model import result_shares, win_chances

blp = Blueprint("win_chances", __name__, url_prefix="/v1/games",
                description="Win chances: every seat's chance of winning, from what the caller may see.")

#: derive_seed(game seed, WIN_CHANCES_SEED_STREAM, seat + 1 (0: spectator), version) seeds the worlds
WIN_CHANCES_SEED_STREAM = 0x3A1C
#: How often an ask whose computation another ask claimed looks for its answer, in seconds.
POLL_SECONDS = 0.02
#: What one world costs, in engine actions (the unit of the search quota): a resample and the model
#: cost about as much as ten rollout actions (bench/engine.py).
WORK_PER_WORLD = 10


@blp.route("/<game_id>/win-chances")
class WinChances(MethodView):
    #: read by api.observability.requests: when a seat asks is its secret until the game moves on
    private_timing = True

    @blp.doc(security=[{"bearerAuth": []}, {}], operationId="get_win_chances")
    @blp.arguments(WinChancesQuerySchema, location="query")
    @blp.response(200, WinChancesSchema)
    @blp.alt_response(**problem_response(401, "The token is malformed or not one of this game's."))
    @blp.alt_response(**problem_response(403, "A seat of a game with hints off (`reason`: `hints_disabled`); a "
                                         "spectator or the creator of a live game whose creator did not allow it "
                                         "(`reason`: `win_chances_private`); `seat` names another seat; over the "
                                         "game's app's search quota (`quota-exceeded`)."))
    @blp.alt_response(**problem_response(404, "No such game (or it expired)."))
    @blp.alt_response(**problem_response(409, "The game has not started (`reason`: `not_started`)."))
    @blp.alt_response(**problem_response(410, "The game was created under an older rules version of its ruleset "
                                         "(`rules-version`)."))
    @blp.alt_response(**problem_response(422, "`worlds` or `seat` is out of bounds."))
    @blp.alt_response(**problem_response(429, "A spectator's asks of a live game past `SPECTATOR_ASKS_LIMIT` (30 a "
                                         "minute), counted for the asking app key, or the asking client of a "
                                         "publishable key (`limit_class`: `spectator_asks`, `Retry-After`)."))
    @blp.alt_response(**problem_response(503, "The ask computing these chances (the first of this version) did not "
                                         "answer within 10 s: ask again (`Retry-After`)."))
    def get(self, query: dict, game_id: str):
        """Every seat's chance of winning

        Judged by the ruleset's value model (docs/analysis.md) from the caller's view: the
        cards it cannot see are re-dealt in `worlds` worlds and the model averaged over them, so
        two positions the caller cannot tell apart get the same answer. A seat token asks from its
        seat's view, in games created with `hints: true`; each ask counts once per seat and version
        in `hint_counts`, like a hint. No token or the creator token asks from the spectator view,
        only if the game was created with `win_chances: "spectators"`, at most 30 times a minute per
        asking app key (or client of a publishable key). Each view's chances are computed once per
        version, by the first ask, and kept: later asks of that version answer the same; that one
        computation's search work (10 engine actions per world) counts against the game's app's search
        quota. Once the game is over anyone may ask: the chances are the result (each winner's share
        of the win).
        """
        return answer_current(game_id, bearer_token(), lambda record: _ask(record, query))


def _ask(record: GameRecord, query: dict):
    """The answer for the game as read, or None when it moved before the ask was kept."""
    _role, seat, tag = caller_role(record)
    if query.get("seat") is not None and query["seat"] != seat:
        raise ApiProblem("forbidden", f"this token asks for seat {seat} only" if seat is not None
                         else "only a seat token asks for a seat")
    if record.status == WAITING:
        raise ApiProblem("illegal-action", "the game has not started: it waits for its open seats",
                         reason="not_started", version=record.version)
    if record.status == ABORTED:
        raise ApiProblem("illegal-action", "the game was aborted: it has no result and plays no more",
                         reason="game_over", version=record.version)
    ruleset = get_ruleset(record.ruleset)
    state = load_state(ruleset, record)
    result = ruleset.result(state)
    if result is not None:
        return _answer(record, None, "result", result_shares(result, state.players), 0, ruleset, tag)
    if seat is None:
        if record.win_chances != "spectators":
            raise ApiProblem("forbidden", "this game's creator keeps its win chances to its seats while it goes on",
                             reason="win_chances_private")
        limits.limit_spectator_asks("win chances")  # counted against the asker, whoever owns the game
    elif record.hint_counts is None:
        raise ApiProblem("forbidden", "this game was created with hints off", reason="hints_disabled")
    return _computed_once(record, ruleset, state, seat, query["worlds"], tag)


def _computed_once(record: GameRecord, ruleset: Ruleset, state, seat: int | None, worlds: int, tag: str | None):
    """The chances of ``seat``'s view (None: the spectator's) at the game's version, computed and charged once:
    by the ask that claims the computation (``api.apps.accounting``), kept with the version, so that every
    other ask of it, at once or later, answers the same for nothing (a seat's counted once in ``hint_counts``)."""
    computation = f"chances-{record.id}-{'spectator' if seat is None else seat}-{record.version}"
    deadline = time.monotonic() + CLAIM_SECONDS
    while (kept := store().win_chances.kept(record.id, seat, record.version)) is None:
        pause_point("chances-unkept")  # test-only: a race test holds an ask here while another computes
        if ownership.claim_computation(computation):
            try:
                # Read again under the claim: an ask that claimed, kept and let go between this ask's read
                # and its claim has already computed (and charged) this version.
                kept = store().win_chances.kept(record.id, seat, record.version)
                if kept is None:
                    return _compute(record, ruleset, state, seat, worlds, tag)
            finally:
                ownership.unclaim_computation(computation)
            break
        if time.monotonic() > deadline:  # the ask that claimed it is stuck: nothing to wait for
            raise ApiProblem("service-unavailable", "these win chances are being computed; ask again",
                             headers={"Retry-After": "1"})
        time.sleep(POLL_SECONDS)
    return json_response(json.loads(kept), version=record.version, role=tag)


def _compute(record: GameRecord, ruleset: Ruleset, state, seat: int | None, worlds: int, tag: str | None):
    """Charge, compute and keep the chances (the claim is this ask's); None when the game moved meanwhile."""
    charged = _charge(record, worlds, seat)
    chances = win_chances(ruleset, state, seat, _rng(record, seat), worlds)
    body = _body(record, seat, "spectator" if seat is None else "seat", chances, worlds, ruleset)
    outcome, before = store().win_chances.ask(record.id, seat, record.version, json.dumps(body, separators=(",", ":")))
    if outcome != "queued" and charged:
        _refund(record, worlds)
    if outcome == "missing":
        raise ApiProblem("not-found", f"no game {record.id!r}")
    if outcome == "stale":
        return None
    if outcome in ("ready", "computing") and before is not None:
        body = json.loads(before)  # kept before this ask's claim: that answer stands
    return json_response(body, version=record.version, role=tag)


def _charge(record: GameRecord, worlds: int, seat: int | None = None) -> bool:
    """The one place win chances are charged (api/apps/accounting.py, through the hints' door): as a
    hint's search work (``WORK_PER_WORLD`` a world) to the game's app, and a seat's ask to that seat's
    own bound of the day too; True when something was counted."""
    return ownership.admit_hint(record.app, worlds * WORK_PER_WORLD, game_id=record.id, seat=seat)


def _refund(record: GameRecord, worlds: int) -> None:
    """Take back what ``_charge`` counted, when another request had counted this seat and version first."""
    ownership.refund_hint(record.app, worlds * WORK_PER_WORLD)


def _rng(record: GameRecord, seat: int | None) -> Rng:
    return Rng(derive_seed(record.seed, WIN_CHANCES_SEED_STREAM, 0 if seat is None else seat + 1, record.version))


def _body(record: GameRecord, seat: int | None, basis: str, chances: list[float], worlds: int,
          ruleset: Ruleset) -> dict:
    return {"game_id": record.id, "version": record.version, "seat": seat, "basis": basis,
            "chances": [round(chance, 6) for chance in chances], "worlds": worlds,
            "rules_version": ruleset.rules_version}


def _answer(record: GameRecord, seat: int | None, basis: str, chances: list[float], worlds: int,
            ruleset: Ruleset, tag: str | None):
    return json_response(_body(record, seat, basis, chances, worlds, ruleset), version=record.version, role=tag)
