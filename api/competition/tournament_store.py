"""Tournaments on the control Redis (the keys: api/competition/tournaments.py's docstring, spelled in
api/competition/competition_keys.py): the tournament's hash and lock, the app's list, the running ones'
due-time index and the closed marks of a duplicate round's tables. The only code of api/competition
that reads or writes them; built once per game store (``store.beside(TournamentStore)``,
``tournament_store(store)``)."""

from __future__ import annotations

from collections.abc import Callable

import redis

from api.competition import due
from api.competition.competition_keys import RUNNING_TOURNAMENTS_KEY, app_tournaments_key, closed_key, tournament_key
from api.play.store import GameStore

#: Tournaments are kept this long after their last change (a running one is renewed while it runs).
TOURNAMENT_TTL = 30 * 24 * 3600
#: A round check or start holds the tournament's lock at most this long (a dead holder's lapses).
LOCK_SECONDS = 30


def tournament_store(store: GameStore) -> TournamentStore:
    return store.beside(TournamentStore)


def lock_key(tournament_id: str) -> str:
    return f"{tournament_key(tournament_id)}:lock"


class TournamentStore:
    def __init__(self, client: redis.Redis) -> None:
        self.redis = client

    def create(self, tournament_id: str, app_id: str, fields: dict, created: float) -> None:
        """The tournament's hash (kept ``TOURNAMENT_TTL``), listed among the app's."""
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(tournament_key(tournament_id), mapping=fields)
        pipe.expire(tournament_key(tournament_id), TOURNAMENT_TTL)
        pipe.zadd(app_tournaments_key(app_id), {tournament_id: created})
        pipe.execute()

    def fields(self, tournament_id: str) -> dict[str, str]:
        """The tournament's hash (empty: gone)."""
        return self.redis.hgetall(tournament_key(tournament_id))

    def statuses(self, tournament_ids: list[str]) -> list[str | None]:
        """Each tournament's status (None: gone), in one round trip."""
        pipe = self.redis.pipeline(transaction=False)
        for tournament_id in tournament_ids:
            pipe.hget(tournament_key(tournament_id), "status")
        return pipe.execute()

    def update(self, tournament_id: str, fields: dict) -> None:
        self.redis.hset(tournament_key(tournament_id), mapping=fields)

    def app_tournaments(self, app_id: str, count: int) -> list[str]:
        """The ids of the app's ``count`` newest tournaments, newest first."""
        return self.redis.zrevrange(app_tournaments_key(app_id), 0, count - 1)

    def lock(self, tournament_id: str) -> bool:
        """Take the tournament's lock (for ``LOCK_SECONDS`` at most); False while another process holds it."""
        return bool(self.redis.set(lock_key(tournament_id), "1", nx=True, ex=LOCK_SECONDS))

    def unlock(self, tournament_id: str) -> None:
        self.redis.delete(lock_key(tournament_id))

    def write_round(self, tournament_id: str, fields: dict, closed_tables: list[str]) -> None:
        """A round started: the tournament's ``fields`` and the closed marks of ``closed_tables`` (a duplicate
        round's games), which live as the tournament does, not as the games, in one transaction."""
        pipe = self.redis.pipeline(transaction=True)
        for game_id in closed_tables:
            pipe.set(closed_key(game_id), tournament_id, ex=TOURNAMENT_TTL)
        pipe.hset(tournament_key(tournament_id), mapping=fields)
        pipe.expire(tournament_key(tournament_id), TOURNAMENT_TTL)
        pipe.execute()

    def time_left(self, tournament_id: str) -> int:
        """Seconds the tournament's hash has left to live."""
        return int(self.redis.ttl(tournament_key(tournament_id)))

    def renew(self, tournament_id: str, closed_tables: list[str]) -> None:
        """The tournament and the closed marks of ``closed_tables`` live ``TOURNAMENT_TTL`` again, together."""
        pipe = self.redis.pipeline(transaction=True)
        pipe.expire(tournament_key(tournament_id), TOURNAMENT_TTL)
        for game_id in closed_tables:
            pipe.expire(closed_key(game_id), TOURNAMENT_TTL)
        pipe.execute()

    def closed_by(self, game_id: str) -> str | None:
        """The tournament whose running duplicate round ``game_id`` is a table of (None: no such round)."""
        return self.redis.get(closed_key(game_id))

    def open_tables(self, game_ids: list[str]) -> None:
        if game_ids:
            self.redis.delete(*(closed_key(game_id) for game_id in game_ids))

    def watch_running(self, tournament_id: str, due_at: float) -> None:
        """The sweep looks at the tournament at ``due_at`` (``api.competition.due``)."""
        self.redis.zadd(RUNNING_TOURNAMENTS_KEY, {tournament_id: due_at})

    def leave_running(self, tournament_id: str) -> None:
        self.redis.zrem(RUNNING_TOURNAMENTS_KEY, tournament_id)

    def drain_running(self, look: Callable[[list[str]], int], *, batch: int, recheck: float,
                      max_batches: int) -> int:
        return due.drain(self.redis, RUNNING_TOURNAMENTS_KEY, look, batch=batch, recheck=recheck,
                         max_batches=max_batches)
