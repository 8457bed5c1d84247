"""Timing out: the sweep and the read path's check that play a default for each human seat whose
deadline passed (what a deadline is, and when it is due: api/play/deadlines.py). A default is a move
like any (``api.play.moves.submit_action``), its events led by ``{"type": "timed_out", "seat": n}``;
this module sits above the moves, which import the deadline book, never this.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from enum import StrEnum

from api.ground import metrics
from api.play.deadlines import deadline_of, humans_pending, timeout_action
from api.play.errors import StaleVersion
from api.play.game_record import ACTIVE, GameRecord
from api.play.moves import load_state, submit_action
from api.play.rules_version import is_current
from api.play.store import GameStore
from engine.core.registry import get_ruleset

log = logging.getLogger("rulehouse.deadlines")


class Outcome(StrEnum):
    """What looking at one version's deadline came to."""

    GONE = "gone"
    MOVED_ON = "moved-on"
    NO_DEADLINE = "no-deadline"
    #: never played on under other rules; its readers get the 410 problem
    RULES_VERSION = "rules-version"
    NO_HUMAN_PENDING = "no-human-pending"
    NOT_DUE = "not-due"
    DEFAULTED = "defaulted"


@dataclass(frozen=True, slots=True)
class Defaults:
    outcome: Outcome
    #: the seats whose defaults were played (``DEFAULTED`` only)
    seats: tuple[int, ...] = ()

    @property
    def played(self) -> bool:
        return self.outcome is Outcome.DEFAULTED

    def __str__(self) -> str:
        return f"defaulted seats {list(self.seats)}" if self.played else self.outcome.value


def apply_defaults(store: GameStore, game_id: str, version: int, now: float | None = None) -> Defaults:
    """Play the defaults of ``version`` if the game is still there and its deadline passed; say what happened."""
    record = store.load(game_id)
    if record is None:
        return Defaults(Outcome.GONE)
    if record.version != version:
        return Defaults(Outcome.MOVED_ON)
    if record.status != ACTIVE or not record.decision_timeout:
        return Defaults(Outcome.NO_DEADLINE)
    ruleset = get_ruleset(record.ruleset)
    if not is_current(ruleset, record):
        return Defaults(Outcome.RULES_VERSION)
    state = load_state(ruleset, record)
    late = humans_pending(record.seats, ruleset.pending(state))
    due = deadline_of(record, late)
    if due is None:
        return Defaults(Outcome.NO_HUMAN_PENDING)
    if due > (time.time() if now is None else now):
        store.deadline_book.put(game_id, version, due)
        return Defaults(Outcome.NOT_DUE)
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
        except StaleVersion:
            break  # someone moved meanwhile: their version has its own deadline
        played.append(overdue.seat)
        metrics.DEADLINE_DEFAULTS.inc()
    return Defaults(Outcome.DEFAULTED, tuple(played)) if played else Defaults(Outcome.MOVED_ON)


def apply_if_overdue(store: GameStore, record: GameRecord) -> bool:
    """The read path's check: apply this version's defaults if its deadline passed. True if anything moved."""
    if not record.decision_timeout or record.status != ACTIVE or record.updated + record.decision_timeout > time.time():
        return False
    return apply_defaults(store, record.id, record.version).played


def sweep(store: GameStore, now: float | None = None, limit: int = 100) -> int:
    """Apply every due deadline (each taken by exactly one sweeper); the number of versions defaulted."""
    now = time.time() if now is None else now
    applied = 0
    for due in store.deadline_book.due(now, limit):
        if not store.deadline_book.take(due):
            continue  # another sweeper took it
        game_id, _, version = due.rpartition(":")
        try:
            said = apply_defaults(store, game_id, int(version), now)
        except Exception:  # one broken game must not block the others
            log.exception("deadline %s failed", due)
            continue
        applied += said.played
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
