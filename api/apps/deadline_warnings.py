"""``deadline.near``: the workers' sweep tells an app when a seat's decision deadline is close."""

from __future__ import annotations

import time

from api.apps.notify import hooks
from api.ground.times import iso_time
from api.play.deadlines import human_seats_pending
from api.play.moves import load_state
from api.play.store import GameStore
from engine.core.registry import get_ruleset

#: ``deadline.near`` is sent when a deadline is this close (at once, for shorter timeouts).
DEADLINE_WARNING_SECONDS = 10.0


def deadlines_near(store: GameStore, now: float | None = None) -> int:
    """The worker's sweep: one ``deadline.near`` per game version whose deadline is close."""
    now = time.time() if now is None else now
    sent = 0
    for member, due in store.deadline_book.near(now, DEADLINE_WARNING_SECONDS, 200):
        if not store.deadline_book.mark_near(member):
            continue  # told already, by this worker or another
        game_id, _, version = member.rpartition(":")
        record = store.load(game_id)
        if record is None or not record.app or record.version != int(version):
            continue
        ruleset = get_ruleset(record.ruleset)
        seats = human_seats_pending(record.seats, ruleset.pending(load_state(ruleset, record)))
        hooks().emit(record.app, "deadline.near", {"game": game_id, "version": int(version), "seats": seats,
                                                  "deadline": iso_time(due, "seconds")})
        sent += 1
    return sent
