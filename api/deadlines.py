"""Decision deadlines: a human seat that does not decide in time gets its decision's default.

A game created with ``decision_timeout`` (seconds) gives its human seats that long after
each version that leaves one of them pending: the deadline is the version's ``updated``
time plus the timeout. Each such version is a member ``<game_id>:<version>`` of the sorted
set ``deadlines`` (score: when it is due; on ``store.control``, the queue Redis, never on the
games' cluster), written right after the commit; the next version removes its predecessor's
member, which is how a move made in time cancels the deadline.

``sweep`` (run by every ``rulehouse worker`` beside the simulation sweep) takes the due
members, each by one ``ZREM`` so that only one worker applies it, and plays every human
seat still pending at that version the engine's ``Ruleset.timeout_action`` (the decision's
published default, or for a secret decision a draw over what the seat holds, from a private
generator) through ``api.moves.submit_action``, the compare-and-set path of any move; a
member whose game moved on is a no-op. ``apply_if_overdue`` does the same lazily when a game is read, so
deadlines also pass without workers, and a member lost between commit and ``ZADD`` heals.
Each defaulted action's events start with a public ``{"type": "timed_out", "seat": n}``.
Bot seats are never defaulted: their jobs answer for them.
"""

from __future__ import annotations

import logging
import secrets
import time

from api.observability import metrics
from api.problems import ApiProblem
from api.rules_version import is_current
from api.store import ACTIVE, GameRecord, GameStore
from engine.core.decisions import Decision
from engine.core.registry import get_ruleset
from engine.core.rng import Rng
from engine.core.ruleset import Ruleset

#: The sorted set of running deadlines: member "<game_id>:<version>", score the due epoch time.
DEADLINES_KEY = "deadlines"
#: Bounds of ``decision_timeout`` in seconds.
MIN_TIMEOUT, MAX_TIMEOUT = 1, 86400

log = logging.getLogger("rulehouse.deadlines")


def timeout_action(ruleset: Ruleset, state, decision: Decision) -> dict:
    """What a seat too slow to decide plays: the engine's call (``Ruleset.timeout_action``), drawing a
    secret choice with a generator of its own, seeded from the system's, so that neither the public
    ``timed_out`` event nor the game's seed tells the others what was played."""
    return ruleset.timeout_action(state, decision, Rng(secrets.randbits(64)))


def timed_out_event(seat: int) -> dict:
    return {"type": "timed_out", "seat": seat}


def member(game_id: str, version: int) -> str:
    return f"{game_id}:{version}"


def humans_pending(seats: list[dict], decisions: list[Decision]) -> list[Decision]:
    """The first pending decision of each human seat, by seat."""
    found: dict[int, Decision] = {}
    for decision in decisions:
        if not seats[decision.seat].get("bot"):
            found.setdefault(decision.seat, decision)
    return [found[seat] for seat in sorted(found)]


def human_seats_pending(seats: list[dict], decisions: list[Decision]) -> list[int]:
    """The human seats with a pending decision, in order (whom a ``decision.waiting`` webhook names)."""
    return [decision.seat for decision in humans_pending(seats, decisions)]


def deadline_of(record: GameRecord, decisions: list[Decision]) -> float | None:
    """When the defaults of this version are due (epoch seconds), or None when no deadline runs."""
    if not record.decision_timeout or record.status != ACTIVE or not humans_pending(record.seats, decisions):
        return None
    return record.updated + record.decision_timeout


def schedule(store: GameStore, game_id: str, version: int, seats: list[dict], timeout: int | None,
             decisions: list[Decision], since: float | None = None) -> float | None:
    """Start the deadline of ``version`` (``timeout`` after ``since``, default now) if a human seat is
    pending, and end the previous version's; when it is due, or None."""
    pipe = store.control.pipeline(transaction=False)
    if version > 0:
        pipe.zrem(DEADLINES_KEY, member(game_id, version - 1))
    due = None
    if timeout and humans_pending(seats, decisions):
        due = (time.time() if since is None else since) + timeout
        pipe.zadd(DEADLINES_KEY, {member(game_id, version): due})
    pipe.execute()
    return due


def apply_defaults(store: GameStore, game_id: str, version: int, now: float | None = None) -> str:
    """Play the defaults of ``version`` if the game is still there and its deadline passed; say what happened."""
    from api.moves import load_state, submit_action  # api.moves calls schedule(): import it late

    record = store.load(game_id)
    if record is None:
        return "gone"
    if record.version != version:
        return "moved-on"
    if record.status != ACTIVE or not record.decision_timeout:
        return "no-deadline"
    ruleset = get_ruleset(record.ruleset)
    if not is_current(ruleset, record):
        return "rules-version"  # never played on under other rules; its readers get the 410 problem
    state = load_state(ruleset, record)
    late = humans_pending(record.seats, ruleset.pending(state))
    due = deadline_of(record, late)
    if due is None:
        return "no-human-pending"
    if due > (time.time() if now is None else now):
        store.control.zadd(DEADLINES_KEY, {member(game_id, version): due})
        return "not-due"
    played = []
    for overdue in late:
        # Each default is its own move: the seats left pending are those still facing the same decision.
        if played:
            record = store.load(game_id)
            if record is None or record.status != ACTIVE:
                break
            state = load_state(ruleset, record)
            still = {d.seat: d for d in humans_pending(record.seats, ruleset.pending(state))}
            if still.get(overdue.seat) is None or still[overdue.seat].kind != overdue.kind:
                continue
            overdue = still[overdue.seat]
        try:
            submit_action(store, game_id, overdue.seat, timeout_action(ruleset, state, overdue), record.version,
                          record=record, timed_out=True)
        except ApiProblem as problem:
            if problem.kind == "version-mismatch":
                break  # someone moved meanwhile: their version has its own deadline
            raise
        played.append(overdue.seat)
        metrics.DEADLINE_DEFAULTS.inc()
    return f"defaulted seats {played}" if played else "moved-on"


def apply_if_overdue(store: GameStore, record: GameRecord) -> bool:
    """The read path's check: apply this version's defaults if its deadline passed. True if anything moved."""
    if not record.decision_timeout or record.status != ACTIVE or record.updated + record.decision_timeout > time.time():
        return False
    return apply_defaults(store, record.id, record.version).startswith("defaulted")


def sweep(store: GameStore, now: float | None = None, limit: int = 100) -> int:
    """Apply every due deadline (each taken by exactly one sweeper); the number of versions defaulted."""
    now = time.time() if now is None else now
    applied = 0
    for due in store.control.zrangebyscore(DEADLINES_KEY, "-inf", now, start=0, num=limit):
        if not store.control.zrem(DEADLINES_KEY, due):
            continue  # another sweeper took it
        game_id, _, version = due.rpartition(":")
        try:
            said = apply_defaults(store, game_id, int(version), now)
        except Exception:  # one broken game must not block the others
            log.exception("deadline %s failed", due)
            continue
        applied += said.startswith("defaulted")
    return applied


def sweep_logged(store: GameStore) -> None:
    """``sweep`` for the worker loop: never raises."""
    try:
        applied = sweep(store)
    except Exception:
        log.exception("deadline sweep failed")
        return
    if applied:
        log.info("played the defaults of %d overdue game version(s)", applied)
