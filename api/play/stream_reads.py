"""Reading a game's streams (its events, its chat) after a cursor, with some of the game's fields in the
same round trip: what the game store and the chat's store share."""

from __future__ import annotations

import redis
from redis.cluster import RedisCluster

from api.play.game_keys import game_key


def entries_after(client: redis.Redis | RedisCluster, stream: str, after: str, count: int,
                  game_id: str | None = None, fields: list[str] | None = None) -> tuple[list, list]:
    """Up to ``count`` entries of ``stream`` after cursor ``after`` (exclusive; ``0``: from the start)
    and, with ``fields``, those fields of the game's hash, in one round trip."""
    start = "-" if after in ("", "0", "0-0") else f"({after}"
    if not fields:
        return client.xrange(stream, min=start, max="+", count=count), []
    pipe = client.pipeline(transaction=False)
    pipe.xrange(stream, min=start, max="+", count=count)
    pipe.hmget(game_key(game_id), fields)
    entries, values = pipe.execute()
    return entries, values
