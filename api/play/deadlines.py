"""Decision deadlines: a human seat that does not decide in time gets its decision's default.

A game created with ``decision_timeout`` (seconds) gives its human seats that long after
each version that leaves one of them pending: the deadline is the version's ``updated``
time plus the timeout. Each such version is a member ``<game_id>:<version>`` of the sorted
set ``deadlines`` (score: when it is due; on the control Redis, the queue Redis, never on the
games' cluster), written right after the commit; the next version removes its predecessor's
member, which is how a move made in time cancels the deadline.

``sweep`` (run by every ``rulehouse worker`` beside the simulation sweep) takes the due
members, each by one ``ZREM`` so that only one worker applies it, and plays every human
seat still pending at that version the engine's ``Ruleset.timeout_action`` (the decision's
published default, or for a secret decision a draw over what the seat holds, from a private
generator) through ``api.play.moves.submit_action``, the compare-and-set path of any move; a
member whose game moved on is a no-op. ``apply_if_overdue`` does the same lazily when a game is read, so
deadlines also pass without workers, and a member lost between commit and ``ZADD`` heals.
Each defaulted action's events start with a public ``{"type": "timed_out", "seat": n}``.
Bot seats are never defaulted: their jobs answer for them.

Here is what the book holds (``schedule``: api/play/after.py; the book itself: api/play/deadline_store.py);
the sweep and the defaults: api/play/timeouts.py.
"""

from __future__ import annotations

import secrets
import time

from api.play.game_record import ACTIVE, GameRecord
from api.play.store import GameStore
from engine.core.decisions import Decision
from engine.core.rng import Rng
from engine.core.ruleset import Ruleset

#: Bounds of ``decision_timeout`` in seconds.
MIN_TIMEOUT, MAX_TIMEOUT = 1, 86400


def timeout_action(ruleset: Ruleset, state, decision: Decision) -> dict:
    """What a seat too slow to decide plays: the engine's call (``Ruleset.timeout_action``), drawing a
    secret choice with a generator of its own, seeded from the system's, so that neither the public
    ``timed_out`` event nor the game's seed tells the others what was played."""
    return ruleset.timeout_action(state, decision, Rng(secrets.randbits(64)))


def timed_out_event(seat: int) -> dict:
    return {"type": "timed_out", "seat": seat}


def forget(store: GameStore, game_id: str, version: int) -> None:
    """The game is gone (deleted): its deadline at ``version`` with it."""
    store.deadline_book.forget(game_id, version)


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
    due = None
    if timeout and humans_pending(seats, decisions):
        due = (time.time() if since is None else since) + timeout
    store.deadline_book.move(game_id, version, due)
    return due
