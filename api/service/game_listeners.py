"""The composition root of a process's game store: who hears of a game's new versions.

The game's room (api/play) imports none of the rooms above it; each process that writes games (the
app factory, the worker's jobs and sweeps) builds its store and wires them in here, once.
"""

from __future__ import annotations

from api.apps.accounting import Accounting
from api.apps.webhooks import Webhooks
from api.competition.finished import game_deleted, game_finished, game_made, player_seated
from api.play.listeners import Listeners
from api.play.store import GameStore


def wire(store: GameStore, webhooks: Webhooks) -> GameStore:
    """``store``, telling new versions to ``webhooks`` (the process's, on its Redis) and the competition room,
    seats taken by named players to the competition room, and deleted games to it and the accounting."""
    store.listeners = Listeners(webhooks=webhooks, created=(game_made,), finished=(game_finished,),
                                deleted=(game_deleted, _forget_charges), joined=(player_seated,))
    return store


def _forget_charges(store: GameStore, record) -> None:
    store.beside(Accounting).forget_game(record.app, record.id, record.players)
