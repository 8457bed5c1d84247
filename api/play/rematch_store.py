"""A finished game's rematch (``POST /v1/games/{id}/rematch``): the answer its creation gave, kept under
``game:{<id>}:rematch`` beside the finished game so that asking again answers the same rematch."""

from __future__ import annotations

import json
import time

import redis
from redis.cluster import RedisCluster

from api.play.game_keys import rematch_key

#: what the key holds while the first caller creates the rematch
_CREATING = "creating"


class RematchStore:
    """``ttl``: how long the answer is kept (a finished game's own TTL: it never outlives it by much)."""

    def __init__(self, client: redis.Redis | RedisCluster, ttl: int) -> None:
        self.redis = client
        self.ttl = ttl

    def claim(self, game_id: str) -> bool:
        """True if this caller is the first to create ``game_id``'s rematch (others wait: ``answer``)."""
        return bool(self.redis.set(rematch_key(game_id), _CREATING, nx=True, ex=60))

    def keep(self, game_id: str, created: dict) -> None:
        """Keep the rematch's creation answer (its tokens included: only the creator token reads it again)."""
        self.redis.set(rematch_key(game_id), json.dumps(created, separators=(",", ":")), ex=self.ttl)

    def give_up(self, game_id: str) -> None:
        """The creation failed (a quota, a validation): the next call tries again."""
        self.redis.delete(rematch_key(game_id))

    def answer(self, game_id: str, wait: float = 5.0) -> dict | None:
        """The kept answer, waiting up to ``wait`` seconds while another call creates it; None if there is
        none (the creating call gave up, or took too long)."""
        until = time.monotonic() + wait
        while True:
            value = self.redis.get(rematch_key(game_id))
            if value is None:
                return None
            if value != _CREATING:
                return json.loads(value)
            if time.monotonic() > until:
                return None
            time.sleep(0.05)
