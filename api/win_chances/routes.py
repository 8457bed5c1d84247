"""``GET /v1/games/{id}/win-chances``: every seat's chance of winning, from what the caller may see.

Cheap enough to answer in the request (a few milliseconds): the value model (``engine.values``)
averaged over worlds drawn with ``resample_hidden`` from the caller's view, so the answer tells
nothing that view does not. A seat asks only where the game has hints on, and its ask counts in
``hint_counts`` like a hint (once per seat and version, ``GameStore.ask_win_chances``); a spectator
(or the creator) of a live game only when the creator allowed it (``win_chances: spectators``); a
finished game's chances are its result, open to all.
"""

from __future__ import annotations

import json

from flask.views import MethodView
from flask_smorest import Blueprint

from api.apps import ownership
from api.http.helpers import answer_current, bearer_token, caller_role, json_response, store
from api.http.problems import ApiProblem, problem_response
from api.play.moves import load_state
from api.play.store import ABORTED, WAITING, GameRecord
from api.win_chances.schemas import WinChancesQuerySchema, WinChancesSchema
from engine.core.registry import get_ruleset
from engine.core.rng import Rng, derive_seed
from engine.core.ruleset import Ruleset
from engine.values.model import result_shares, win_chances

blp = Blueprint("win_chances", __name__, url_prefix="/v1/games",
                description="Win chances: every seat's chance of winning, from what the caller may see.")

#: derive_seed(game seed, WIN_CHANCES_SEED_STREAM, seat + 1 (0: spectator), version) seeds the worlds
WIN_CHANCES_SEED_STREAM = 0x3A1C
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
    def get(self, query: dict, game_id: str):
        """Every seat's chance of winning

        Judged by the ruleset's value model (docs/analysis.md) from the caller's view: the
        cards it cannot see are re-dealt in `worlds` worlds and the model averaged over them, so
        two positions the caller cannot tell apart get the same answer. A seat token asks from its
        seat's view, in games created with `hints: true`; each ask counts once per seat and version
        in `hint_counts`, like a hint, and the search work (10 engine actions per world) counts
        against the game's app's search quota. No token or the creator token asks from the spectator
        view, only if the game was created with `win_chances: "spectators"`. Once the game is over
        anyone may ask: the chances are the result (each winner's share of the win).
        """
        return answer_current(game_id, bearer_token(), lambda record: _ask(record, query))


def _ask(record: GameRecord, query: dict):
    """The answer for the game as read, or None when it moved before the seat's ask was counted."""
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
        _charge(record, query["worlds"])
        chances = win_chances(ruleset, state, None, _rng(record, None), query["worlds"])
        return _answer(record, None, "spectator", chances, query["worlds"], ruleset, tag)
    if record.hint_counts is None:
        raise ApiProblem("forbidden", "this game was created with hints off", reason="hints_disabled")
    kept = store().kept_win_chances(record.id, seat, record.version)
    if kept is not None:  # asked and counted at this version already: the same answer, counted once
        return json_response(json.loads(kept), version=record.version, role=tag)
    charged = _charge(record, query["worlds"], seat)
    chances = win_chances(ruleset, state, seat, _rng(record, seat), query["worlds"])
    body = _body(record, seat, "seat", chances, query["worlds"], ruleset)
    outcome, before = store().ask_win_chances(record.id, seat, record.version, json.dumps(body, separators=(",", ":")))
    if outcome != "queued" and charged:
        _refund(record, query["worlds"])
    if outcome == "missing":
        raise ApiProblem("not-found", f"no game {record.id!r}")
    if outcome == "stale":
        return None
    if outcome in ("ready", "computing") and before is not None:
        body = json.loads(before)  # another request counted this version first: its answer stands
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
