"""The worker's competition sweep (``rulehouse worker``, every few seconds): rate the rated games whose
finishing move did not (a process died between the two), start the tournaments' next rounds, and drop
expired games from their players' lists. Each drains its due-time index (``api.competition.due``): every
waiting item is reached, whatever other apps hold."""

from __future__ import annotations

import logging

from api.competition import games, player_lists, tournaments
from api.play.store import GameStore

log = logging.getLogger("rulehouse.competition")


def sweep_logged(store: GameStore) -> None:
    """Never raises: a sweep must never stop the worker."""
    try:
        rated = games.sweep(store)
        if rated:
            log.info("rated %d finished game(s) their last move had not", rated)
    except Exception:
        log.exception("rating sweep failed")
    try:
        tournaments.sweep(store)
    except Exception:
        log.exception("tournament sweep failed")
    try:
        player_lists.sweep(store)
    except Exception:
        log.exception("players' lists sweep failed")
