"""What a new version of a game owes, in one function every writer calls: ``after_version``.

Moves (a seat's, a bot's, a default played at a deadline), seat changes (joins, leaves, the start,
a seat handed to a bot), creations and forks all store a version and then call it, so none of them
can forget a duty:

- a pending bot seat gets its job queued (api/play/bot_queueing.py), unless the bot job that wrote the version
  plays on (``bots_queued``: a run, api/service/jobs/bot_runs.py);
- a pending human seat gets its deadline, and the previous version's ends (api/play/deadlines.py);
- the game's app hears of it: ``decision.waiting`` for the human seats to move, or ``game.finished``;
- a new game is told to the rooms that index games (``Listeners.created``), a finished one to those
  that act on results (``Listeners.finished``: ratings, the tournament's next round).

The rooms outside the game's (webhooks, competition) are not imported here: each process wires
them in once (api/service/game_listeners.py), so this package needs nothing above it.
"""

from __future__ import annotations

import logging

from api.play import deadlines
from api.play.bot_queueing import schedule_bots
from api.play.game_record import ACTIVE, FINISHED, GameRecord
from api.play.listeners import Emitter, Listener
from api.play.store import GameStore
from engine.core.decisions import Decision

log = logging.getLogger("rulehouse.play")


def after_version(store: GameStore, record: GameRecord, pending: list[Decision], *, result: dict | None = None,
                  since: float | None = None, created: bool = False, bots_queued: bool = True) -> float | None:
    """Do what the version ``record`` (as just written: its version, status, seats and timeout) owes;
    ``pending`` are its decisions, ``result`` its result once finished, ``since`` when its deadline
    starts (default now), ``created`` for a game's first version; without ``bots_queued`` the writer
    plays the pending bot move itself (a bot job's run: api/service/jobs/bot_runs.py) and no job is
    queued. Answers when its deadline is due (None: no deadline). Webhooks and listeners never fail
    the write, which is stored already."""
    due = None
    if bots_queued and record.status == ACTIVE and any(seat.get("bot") for seat in record.seats):
        schedule_bots(store, record.id, record.version, record.seats, pending, ruleset=record.ruleset)
    if record.decision_timeout:
        due = deadlines.schedule(store, record.id, record.version, record.seats, record.decision_timeout,
                                 pending if record.status == ACTIVE else [], since=since)
    listeners = store.listeners
    if listeners.webhooks is not None and record.app:
        _tell(listeners.webhooks, record, pending, result)
    if created:
        _call(listeners.created, store, record)
    if record.status == FINISHED:
        _call(listeners.finished, store, record)
    return due


def _tell(webhooks: Emitter, record: GameRecord, pending: list[Decision], result: dict | None) -> None:
    try:
        if record.status == FINISHED:
            webhooks.emit(record.app, "game.finished", {"game": record.id, "version": record.version,
                                                        "result": result})
            return
        seats = [decision.seat for decision in deadlines.humans_pending(record.seats, pending)]
        if seats and record.status == ACTIVE:
            webhooks.emit(record.app, "decision.waiting", {"game": record.id, "version": record.version,
                                                           "seats": seats})
    except Exception:  # a webhook must never undo or fail a version that is already stored
        log.exception("webhook for game %s failed", record.id)


def after_join(store: GameStore, record: GameRecord, seat: int, player: str) -> None:
    """What a seat taken by a named player owes once its version is written (and ``after_version`` ran):
    the rooms that index players hear of it (``Listeners.joined``). Their errors reach the caller, which
    answers them, as the join's own would."""
    for listener in store.listeners.joined:
        listener(store, record, seat, player)


def delete_game(store: GameStore, record: GameRecord) -> None:
    """Delete the game ``record`` (as last read): its keys, its pending deadline, and what the rooms outside
    the game's keep of it (``Listeners.deleted``: its players' indexes, its charges of the day), so that a
    deleted game leaves nothing behind."""
    store.delete(record.id)
    deadlines.forget(store, record.id, record.version)
    _call(store.listeners.deleted, store, record)


def _call(listeners: tuple[Listener, ...], store: GameStore, record: GameRecord) -> None:
    for listener in listeners:
        try:
            listener(store, record)
        except Exception:  # each room has its own sweep for what a failed call missed
            log.exception("after version %d (or the deletion) of game %s", record.version, record.id)
