"""Hints, computed by RQ jobs on the search queue (``api.service.jobs.hints.compute_hint``); no Flask here.

A hint of seat ``s`` at version ``v`` is computed once. The first ask counts it and marks it
asked with the id of its job (``HintStore.ask``), then queues ``compute_hint`` on the search
queue; the job stores its answer under ``game:{<id>}:hint:<s>:<v>``, where every later ask of that
seat and version finds it. The ask reserves the most the search can cost for that decision
(``hint_bound``: nothing for a decision with one move) through ``api.apps.accounting``, and the
job settles the charge (``hint_charge_id``) at the engine actions the search really played (none
when it finds the game moved on). The search decides from the seat's own view and worlds drawn from it
(``engine.bots.search``), with a generator seeded from the game's seed, the seat and the version
(never the game's own generator), so the same hint comes out on any machine.
"""

from __future__ import annotations

import json
import secrets

from api.apps.accounting import Accounting
from api.play.game_record import GameRecord
from api.play.moves import load_state
from api.play.preconditions import decision_id, since_of
from api.play.rules_version import is_current
from api.play.store import GameStore
from engine.bots.search import MAX_CANDIDATES, candidate_actions
from engine.core.bot import Bot
from engine.core.decisions import Decision
from engine.core.registry import get_ruleset
from engine.core.rng import Rng, derive_seed
from engine.core.ruleset import Ruleset

#: The search bot that gives hints: the default level.
HINT_BOT = "mcts"
#: derive_seed(game seed, HINT_SEED_STREAM, seat, version) seeds a hint, apart from the game's own RNG
HINT_SEED_STREAM = 0x41E7
#: the job that computes a hint, by the dotted name it is queued under (api/service/jobs/hints.py)
COMPUTE_HINT = "api.service.jobs.hints.compute_hint"
#: A failed hint job is kept this long (seconds); an ask after a lost or failed job queues another.
FAILURE_TTL = 3600


def hint_bot(ruleset: Ruleset) -> Bot:
    return ruleset.bot(HINT_BOT)


def hint_cost(ruleset: Ruleset) -> int:
    """Engine actions one hint costs at most, whatever the decision."""
    return ruleset.bot_classes()[HINT_BOT].cost_per_move


def hint_bound(ruleset: Ruleset, decision: Decision) -> int:
    """Engine actions the hint of ``decision`` can cost at most (what its ask reserves): nothing for a
    move that is forced (one option, no range: the search plays none), else each sampled world
    plays each candidate (the options, ranges' midpoints, the rollout bot's own move) for at most
    the ruleset's horizon and one, within ``hint_cost``."""
    candidates = len(candidate_actions(decision))
    if candidates == 1 and not decision.ranges:
        return 0
    bot = ruleset.bot_classes()[HINT_BOT]
    return min(hint_cost(ruleset),
               bot.worlds(ruleset) * min(candidates + 1, MAX_CANDIDATES) * (bot.rollout_horizon(ruleset) + 1))


def hint_charge_id(game_id: str, seat: int, version: int) -> str:
    """The accounting's charge of the hint of ``seat`` at ``version`` (whichever job computes it)."""
    return f"hint-{game_id}-{seat}-{version}"


def hint_job_id(game_id: str, seat: int, version: int, *, again: bool = False) -> str:
    """``hint-<game>-<seat>-<version>``, with a random tail for a job queued again after one was lost."""
    return f"hint-{game_id}-{seat}-{version}" + (f"-{secrets.token_hex(3)}" if again else "")


def describe(record: GameRecord, ruleset: Ruleset, seat: int, pending: list[Decision]) -> dict:
    """What a hint answer says before its search is done: whose, for which decision and version, by whom."""
    return {
        "game_id": record.id, "seat": seat, "version": record.version,
        "decision": decision_id(seat, since_of(record.marks, seat, record.version, pending)),
        "status": "pending", "bot": HINT_BOT,
        "level": ruleset.bot_classes()[HINT_BOT].level,
    }


def hint_options(analysis: dict) -> list[dict]:
    """The search's candidates as a hint shows them: each with its value and ``visits``, the simulated
    games that began with it."""
    return [{"action": option["action"], "value": option["value"], "visits": option["samples"]}
            for option in analysis["options"]]


def queue_hint(store: GameStore, game_id: str, seat: int, version: int, job_id: str) -> None:
    """Queue the job ``job_id`` that computes the hint (nothing when it exists already)."""
    store.queues.enqueue_once(store.queues.search, COMPUTE_HINT, game_id, seat, version, job_id=job_id,
                              job_timeout=store.queues.search_timeout, result_ttl=60, failure_ttl=FAILURE_TTL,
                              retries=1)


def compute_hint(store: GameStore, game_id: str, seat: int, version: int) -> str:
    """What the RQ job does: search ``seat``'s decision at ``version``, store the hint and charge the search's
    engine actions (nothing when no search ran); say what happened."""
    played = 0
    try:
        outcome, played = _compute_hint(store, game_id, seat, version)
    finally:  # an error charges what was reserved for nothing: give it back
        store.beside(Accounting).settle(hint_charge_id(game_id, seat, version), played)
    return outcome


def _compute_hint(store: GameStore, game_id: str, seat: int, version: int) -> tuple[str, int]:
    """What happened, and the engine actions the search played."""
    record = store.load(game_id)
    if record is None:
        return "gone", 0
    if record.version != version:
        return "moved-on", 0  # nobody asks for this version any more
    ruleset = get_ruleset(record.ruleset)
    if not is_current(ruleset, record):
        return "rules-version", 0
    state = load_state(ruleset, record)
    pending = ruleset.pending(state)
    decision = next((d for d in pending if d.seat == seat), None)
    if decision is None:
        return "no-decision", 0
    analysis = hint_bot(ruleset).analyse(state, decision, Rng(derive_seed(record.seed, HINT_SEED_STREAM, seat,
                                                                          version)))
    options = hint_options(analysis)
    hint = {**describe(record, ruleset, seat, pending), "status": "ready",
            "iterations": sum(option["visits"] for option in options), "action": analysis["action"],
            "options": options}
    if not store.hints.save(game_id, seat, version, json.dumps(hint, separators=(",", ":"))):
        return "expired", analysis["actions"]
    return f"seat {seat} at version {version}: {analysis['action'].get('type')}", analysis["actions"]
