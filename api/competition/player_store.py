"""The app's players on the control Redis (keys: api/competition/competition_keys.py, layout: the
package's docstring): each player's index of games and latest results, the ratings and leaderboards,
the marks of rated games, the rated games waiting for their rating and the players' lists due for a
look. The only code of api/competition that reads or writes them; built once per game store
(``store.beside(PlayerStore)``, ``player_store(store)``)."""

from __future__ import annotations

import json
from collections.abc import Callable

import redis

from api.competition import due, rated_players
from api.competition.competition_keys import (
    LISTS_DUE_KEY,
    PENDING_KEY,
    board_key,
    player_games_key,
    player_results_key,
    rated_game_key,
    ratings_key,
)
from api.play.store import GameStore

#: The latest rated results kept per player (``GET /v1/players/{id}``).
RESULTS_KEPT = 20
#: A player's index (games, results) lives this long after its last write.
INDEX_TTL = 400 * 24 * 3600
#: A player's games index keeps its newest this many (a bot of a busy app sits at every game).
GAMES_INDEXED = 10_000
#: How long the mark that a game was rated is kept (longer than any game is).
RATED_MARK_TTL = 120 * 24 * 3600


def player_store(store: GameStore) -> PlayerStore:
    return store.beside(PlayerStore)


class PlayerStore:
    def __init__(self, client: redis.Redis) -> None:
        self.redis = client

    # -- a player's games -------------------------------------------------------------------------

    def index_game(self, app_id: str, game_id: str, seated: list[tuple[int, str]], created: float, *,
                   look_again: float, rating_due: float | None = None) -> None:
        """Index a game under each ``(seat, player)`` of ``seated``, each list looked at again ``look_again``
        seconds after ``created``; a rated game (``rating_due``: when the sweep first looks at it) waits
        for its rating, its players held in the app's rated players."""
        pipe = self.redis.pipeline(transaction=False)
        for seat, player in seated:
            key = player_games_key(app_id, player)
            pipe.zadd(key, {f"{game_id}:{seat}": created})
            pipe.zadd(LISTS_DUE_KEY, {f"{app_id} {player}": created + look_again}, lt=True)
            pipe.zremrangebyrank(key, 0, -GAMES_INDEXED - 1)
            pipe.expire(key, INDEX_TTL)
        if rating_due is not None:
            pipe.zadd(PENDING_KEY, {f"{app_id} {game_id}": rating_due})
            # Its players count in rated_players while it is indexed, whatever let them go since the take.
            rated_players.hold_indexed(pipe, app_id, [player for _, player in seated])
        pipe.execute()

    def forget_game(self, app_id: str, game_id: str, seated: dict[str, int]) -> None:
        """A deleted game leaves its players' lists (``seated``: player -> seat), the queue of games to rate
        and its mark (no game is left to rate twice)."""
        pipe = self.redis.pipeline(transaction=False)
        for player, seat in seated.items():
            pipe.zrem(player_games_key(app_id, player), f"{game_id}:{seat}")
        pipe.zrem(PENDING_KEY, f"{app_id} {game_id}")
        pipe.delete(rated_game_key(app_id, game_id))
        pipe.execute()

    def games(self, app_id: str, player: str) -> list[str]:
        """Every entry (``<game>:<seat>``) of the player's list."""
        return self.redis.zrange(player_games_key(app_id, player), 0, -1)

    def newest_games(self, app_id: str, player: str, offset: int, count: int) -> list[tuple[str, float]]:
        """``count`` entries of the player's list from ``offset``, newest first, with their creation times."""
        return self.redis.zrevrange(player_games_key(app_id, player), offset, offset + count - 1, withscores=True)

    def games_count(self, app_id: str, player: str) -> int:
        return int(self.redis.zcard(player_games_key(app_id, player)))

    def has_games(self, app_id: str, player: str) -> bool:
        return bool(self.redis.exists(player_games_key(app_id, player)))

    def drop_games(self, app_id: str, player: str, entries: list[str]) -> None:
        if entries:
            self.redis.zrem(player_games_key(app_id, player), *entries)

    def known(self, app_id: str, player: str, rulesets: list[str]) -> bool:
        """Whether the app keeps anything of ``player``: games (their index) or a rating in one of ``rulesets``."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.exists(player_games_key(app_id, player))
        for ruleset in rulesets:
            pipe.hexists(ratings_key(app_id, ruleset), player)
        return any(pipe.execute())

    # -- the players' lists due for a look (api/competition/player_lists.py) ----------------------

    def let_go(self, app_id: str, player: str, look_again: float, now: float) -> None:
        """The player's list is empty: its place in rated_players is given back (unless it has a rating; the
        script looks again, atomically) and the list leaves the due index, unless a game was indexed
        meanwhile (then it is looked at ``look_again`` seconds from ``now``)."""
        member = f"{app_id} {player}"
        rated_players.release(self.redis, app_id, [player])
        self.redis.zrem(LISTS_DUE_KEY, member)
        if self.has_games(app_id, player):
            self.redis.zadd(LISTS_DUE_KEY, {member: now + look_again}, lt=True)

    def drain_lists(self, look: Callable[[list[str]], int], *, batch: int, recheck: float, max_batches: int) -> int:
        return due.drain(self.redis, LISTS_DUE_KEY, look, batch=batch, recheck=recheck, max_batches=max_batches)

    # -- ratings ----------------------------------------------------------------------------------

    def ratings_and_places(self, app_id: str, player: str, rulesets: list[str]) -> list[tuple[str | None, int | None]]:
        """The player's stored rating (JSON) and leaderboard rank (from 0) in each of ``rulesets``."""
        pipe = self.redis.pipeline(transaction=False)
        for ruleset in rulesets:
            pipe.hget(ratings_key(app_id, ruleset), player)
            pipe.zrevrank(board_key(app_id, ruleset), player)
        values = pipe.execute()
        return [(values[2 * index], values[2 * index + 1]) for index in range(len(rulesets))]

    def recent_results(self, app_id: str, player: str) -> list[dict]:
        return [json.loads(entry) for entry in self.redis.lrange(player_results_key(app_id, player), 0, -1)]

    def board(self, app_id: str, ruleset: str, offset: int, count: int) -> list[tuple[str, str]]:
        """``count`` places of the leaderboard from ``offset``, best first: each player and its stored rating."""
        board = self.redis.zrevrange(board_key(app_id, ruleset), offset, offset + count - 1, withscores=True)
        stored = self.redis.hmget(ratings_key(app_id, ruleset), [player for player, _ in board]) if board else []
        return [(player, value) for (player, _), value in zip(board, stored, strict=True)]

    def leave_pending(self, app_id: str, game_id: str) -> None:
        """The game waits for its rating no more."""
        self.redis.zrem(PENDING_KEY, f"{app_id} {game_id}")

    def drain_pending(self, look: Callable[[list[str]], int], *, batch: int, recheck: float,
                      max_batches: int) -> int:
        return due.drain(self.redis, PENDING_KEY, look, batch=batch, recheck=recheck, max_batches=max_batches)

    def rate(self, app_id: str, game_id: str, ruleset: str, players: list[str],
             rated: Callable[[list[dict | None]], list[tuple[dict, float, dict]]]) -> bool:
        """Count a game in its players' ratings once: ``rated`` gets the players' stored ratings (None: none
        yet) and answers, by seat, the new rating, its ordinal and the player's result; the ratings, the
        leaderboard, the results and the game's mark change in one transaction (``rated`` is called again
        when another game of the ruleset was rated meanwhile). False when it was counted before."""
        ratings, board, done = ratings_key(app_id, ruleset), board_key(app_id, ruleset), rated_game_key(app_id, game_id)
        with self.redis.pipeline(transaction=True) as pipe:
            while True:
                try:
                    pipe.watch(ratings, done)
                    if pipe.exists(done):
                        pipe.unwatch()
                        self.leave_pending(app_id, game_id)
                        return False
                    stored = [json.loads(value) if value else None for value in pipe.hmget(ratings, players)]
                    changes = rated(stored)
                    pipe.multi()
                    for player, (rating, ordinal, result) in zip(players, changes, strict=True):
                        pipe.hset(ratings, player, json.dumps(rating))
                        pipe.zadd(board, {player: ordinal})
                        results = player_results_key(app_id, player)
                        pipe.lpush(results, json.dumps(result))
                        pipe.ltrim(results, 0, RESULTS_KEPT - 1)
                        pipe.expire(results, INDEX_TTL)
                    pipe.set(done, "1", ex=RATED_MARK_TTL)
                    pipe.zrem(PENDING_KEY, f"{app_id} {game_id}")
                    pipe.execute()
                    return True
                except redis.WatchError:
                    continue  # another game of the ruleset was rated meanwhile: read the ratings again
