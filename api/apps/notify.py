"""What happens to a game, simulation or experiment, told to its app's webhooks (API and workers alike)."""

from __future__ import annotations

import logging

from flask import current_app, has_app_context

from api.apps.webhooks import EXTENSION_NAME, Webhooks, worker_webhooks
from api.deadlines import human_seats_pending
from api.store import FINISHED, GameRecord

log = logging.getLogger("rulehouse.webhooks")


def hooks() -> Webhooks:
    if has_app_context():
        return current_app.extensions[EXTENSION_NAME]
    return worker_webhooks()


def game_moved(record: GameRecord, version: int, status: str, pending: list, result: dict | None) -> None:
    """After a committed action: ``game.finished``, or ``decision.waiting`` for the human seats now to
    move (``pending``: the new version's decisions)."""
    if not record.app:
        return
    try:
        webhooks = hooks()
        if status == FINISHED:
            webhooks.emit(record.app, "game.finished", {"game": record.id, "version": version, "result": result})
            return
        seats = human_seats_pending(record.seats, pending)
        if seats:
            webhooks.emit(record.app, "decision.waiting", {"game": record.id, "version": version, "seats": seats})
    except Exception:  # a webhook must never undo or fail a move that is already stored
        log.exception("webhook for game %s failed", record.id)


def game_created(app_id: str, game_id: str, seats: list[dict], pending: list) -> None:
    """A new game (or one that just started): ``decision.waiting`` for its human seats to move."""
    try:
        waiting = human_seats_pending(seats, pending)
        if waiting:
            hooks().emit(app_id, "decision.waiting", {"game": game_id, "version": 0, "seats": waiting})
    except Exception:
        log.exception("webhook for game %s failed", game_id)


def simulation_finished(app_id: str | None, sim_id: str, status: str) -> None:
    if not app_id:
        return
    try:
        hooks().emit(app_id, "simulation.finished", {"simulation": sim_id, "status": status})
    except Exception:
        log.exception("webhook for simulation %s failed", sim_id)


def experiment_finished(app_id: str | None, exp_id: str, status: str) -> None:
    if not app_id:
        return
    try:
        hooks().emit(app_id, "experiment.finished", {"experiment": exp_id, "status": status})
    except Exception:
        log.exception("webhook for experiment %s failed", exp_id)
