"""What the competition room does with a game's versions (wired in as listeners of api/play/after.py by
api/service/game_listeners.py): index a new game, or a seat a player joined, under its players; rate a finished
rated game and let its tournament go on; forget a deleted game. It sits apart from ``games`` and
``tournaments`` because it reaches both."""

from __future__ import annotations

import logging

from api.competition import tournaments
from api.competition.games import game_created, game_forgotten, player_joined, rate_game
from api.play.game_record import GameRecord
from api.play.store import GameStore

log = logging.getLogger("rulehouse.competition")


def game_made(store: GameStore, record: GameRecord) -> None:
    """A new game (its version 0): indexed under each of its named players, its rating queued when rated."""
    if record.app is not None:
        game_created(store, record.app, record.id, record.seats, record.rated, record.created)


def player_seated(store: GameStore, record: GameRecord, seat: int, player: str) -> None:
    """A named player took a seat (a join): the game is indexed under the player."""
    if record.app is not None:
        player_joined(store, record.app, record.id, seat, player)


def game_finished(store: GameStore, record: GameRecord) -> None:
    """A version that finished its game: rate it if rated, and let its tournament go on. Never raises: the
    worker sweep (``api.competition.sweep``) does whatever this missed."""
    try:
        if record.rated and record.app:
            rate_game(store, record.app, record.id)
        if record.tournament:
            tournaments.advance(store, record.tournament)
    except Exception:
        log.exception("after game %s finished", record.id)


def game_deleted(store: GameStore, record: GameRecord) -> None:
    """A deleted game: its players' indexes and the rating queue forget it."""
    if record.app is not None:
        game_forgotten(store, record.app, record.id, record.seats)
