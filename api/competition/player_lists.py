"""Players' lists of games outlive none of their games (docs/competition.md, "Players").

A deleted game leaves its players' lists at once (``api.competition.games.game_forgotten``). A game that
expires gives no signal, so each list is looked at again once a game of it may have expired:
``competition:lists-due``, a sorted set of ``<app> <player>`` by when that is (a game kept the shorter
of the service's TTLs after its creation, at the earliest), a due-time index (``api.competition.due``).
The worker sweep (``sweep``) drains the lists that are due, drops the entries of games that are gone (a
list with none left goes with them, and its player is unknown again unless it has a rating, its place in
the app's ``rated_players`` given back) and looks again one TTL later at a list that still has games. So a
list holds the games that remain, and no longer than one TTL past the last.
"""

from __future__ import annotations

import time

from api.competition.player_store import player_store
from api.play.store import GameStore

#: Lists a sweep claims at a time, and the batches it looks at before it leaves the rest to the next sweep
#: (a few seconds later, first in line).
SWEEP_BATCH, SWEEP_BATCHES = 200, 10


def recheck_after(store: GameStore) -> int:
    """Seconds after which a game of a list may have expired, at the earliest (its last write + its TTL)."""
    return min(store.game_ttl, store.finished_ttl)


def prune(store: GameStore, app_id: str, player: str) -> int:
    """Drop the entries of the player's games that are gone; how many entries are left."""
    players_store = player_store(store)
    members = players_store.games(app_id, player)
    statuses = store.statuses([member.rpartition(":")[0] for member in members])
    gone = [member for member, status in zip(members, statuses, strict=True) if status is None]
    players_store.drop_games(app_id, player, gone)
    return len(members) - len(gone)


def forget_if_empty(store: GameStore, app_id: str, player: str) -> None:
    """The player's list lost its last entry (a game deleted, or the games expired): nothing to look at again,
    and, unless it has a rating, its place in rated_players is given back."""
    players_store = player_store(store)
    if not players_store.has_games(app_id, player):
        players_store.let_go(app_id, player, recheck_after(store), time.time())


def sweep(store: GameStore) -> int:
    """Prune the lists that are due, every one of them (``due.drain``): a list that still has games comes
    round again one TTL later, an empty one leaves the index. How many were looked at."""
    return player_store(store).drain_lists(lambda members: _look(store, members), batch=SWEEP_BATCH,
                                           recheck=recheck_after(store), max_batches=SWEEP_BATCHES)


def _look(store: GameStore, members: list[str]) -> int:
    for member in members:
        app_id, _, player = member.partition(" ")
        if not prune(store, app_id, player):
            forget_if_empty(store, app_id, player)
    return len(members)
