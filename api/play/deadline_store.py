"""The book of decision deadlines (api/play/deadlines.py says what they are): one sorted set on the
control Redis, never on the games' cluster, and a mark per version told it is near (api/apps)."""

from __future__ import annotations

import redis

#: The sorted set of running deadlines: member "<game_id>:<version>", score the due epoch time.
DEADLINES_KEY = "deadlines"


def member(game_id: str, version: int) -> str:
    return f"{game_id}:{version}"


def near_key(entry: str) -> str:
    """Marks a deadline (a member of ``DEADLINES_KEY``) whose app was told it is near (``deadline.near``)."""
    return f"deadline-near:{entry}"


class DeadlineStore:
    def __init__(self, control: redis.Redis) -> None:
        self.redis = control

    def move(self, game_id: str, version: int, due: float | None) -> None:
        """End the deadline of the version before ``version`` and, with ``due``, start this one's (one round trip)."""
        pipe = self.redis.pipeline(transaction=False)
        if version > 0:
            pipe.zrem(DEADLINES_KEY, member(game_id, version - 1))
        if due is not None:
            pipe.zadd(DEADLINES_KEY, {member(game_id, version): due})
        pipe.execute()

    def put(self, game_id: str, version: int, due: float) -> None:
        """(Re)start the deadline of ``version``, due at ``due``."""
        self.redis.zadd(DEADLINES_KEY, {member(game_id, version): due})

    def forget(self, game_id: str, version: int) -> None:
        self.redis.zrem(DEADLINES_KEY, member(game_id, version))

    def due(self, now: float, limit: int) -> list[str]:
        """Up to ``limit`` deadlines (members) due by ``now``, earliest first."""
        return self.redis.zrangebyscore(DEADLINES_KEY, "-inf", now, start=0, num=limit)

    def take(self, entry: str) -> bool:
        """Take a due deadline off the book; False when another sweeper took it first."""
        return bool(self.redis.zrem(DEADLINES_KEY, entry))

    def near(self, now: float, within: float, limit: int) -> list[tuple[str, float]]:
        """Up to ``limit`` deadlines (member, due) due in the next ``within`` seconds."""
        return self.redis.zrangebyscore(DEADLINES_KEY, now, now + within, withscores=True, start=0, num=limit)

    def mark_near(self, entry: str) -> bool:
        """Mark the deadline as told near, for an hour; False when it was marked already (by any worker)."""
        return bool(self.redis.set(near_key(entry), 1, nx=True, ex=3600))
