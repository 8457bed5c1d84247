"""The lobby: the listed games that wait for players, all of them and by ruleset (sorted sets on the
control Redis, score: creation time; api/play/table.py keeps them)."""

from __future__ import annotations

import redis

#: the lobby: listed waiting games, scored by creation time; one set for all and one per ruleset
LOBBY_KEY = "lobby"


def lobby_key(ruleset: str | None = None) -> str:
    return LOBBY_KEY if ruleset is None else f"{LOBBY_KEY}:{ruleset}"


class LobbyStore:
    def __init__(self, control: redis.Redis) -> None:
        self.redis = control

    def add(self, game_id: str, ruleset: str, created: float) -> None:
        pipe = self.redis.pipeline(transaction=False)
        pipe.zadd(LOBBY_KEY, {game_id: created})
        pipe.zadd(lobby_key(ruleset), {game_id: created})
        pipe.execute()

    def page(self, ruleset: str | None, low: str, offset: int, count: int) -> list[tuple[str, float]]:
        """Up to ``count`` listed games (id, created) of ``ruleset`` (None: all) from score ``low``, after
        ``offset`` of them."""
        return self.redis.zrangebyscore(lobby_key(ruleset), low, "+inf", start=offset, num=count, withscores=True)

    def remove(self, game_id: str, ruleset: str | None) -> None:
        """Take the game out of the lobby (and of its ruleset's, when known)."""
        self.redis.zrem(LOBBY_KEY, game_id)
        if ruleset:
            self.redis.zrem(lobby_key(ruleset), game_id)
