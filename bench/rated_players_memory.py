"""Memory of the ``rated_players`` quota's hold set per held player (docs/apps.md, "Quotas").

    .venv/bin/python bench/rated_players_memory.py            # throwaway embedded Redis, or $REDIS_URL

Takes N players into one app's ``app:{<app>}:rated-players`` through the quota's own take script
(``api.apps.holds``, 500 asks a call, kept for good), confirms them (score 0, as a made game does), and
reads ``MEMORY USAGE … SAMPLES 0`` (every member counted) of the set: bytes in all and per player, for
short player ids (``p-000001``, 8 characters) and UUID-long ones (36). The set's ``…:weights`` and
``…:extra`` keys stay empty for players (each weighs 1).
"""

from __future__ import annotations

import argparse
import os
import sys
import uuid
from contextlib import ExitStack

import redis

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # bench/api.py is not api

from api.apps.holds import Ask, Holds
from api.competition.rated_players import RATED_PLAYERS, hold_set_key

BATCH = 500


def measure(client: redis.Redis, players: list[str], app_id: str) -> int:
    holds = Holds(client, app_id)
    for start in range(0, len(players), BATCH):
        batch = players[start:start + BATCH]
        assert holds.take(*(Ask(RATED_PLAYERS, player, len(players), ttl=0) for player in batch)) is None
        client.zadd(hold_set_key(app_id), dict.fromkeys(batch, 0), xx=True)  # confirmed, as a made game does
    assert holds.held(RATED_PLAYERS) == len(players)
    used = int(client.memory_usage(hold_set_key(app_id), samples=0))
    client.delete(hold_set_key(app_id))
    return used


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--counts", default="1000,10000,100000")
    args = parser.parse_args()
    with ExitStack() as stack:
        from api.service.embedded_redis import redis_url_or_embedded

        client = redis.Redis.from_url(redis_url_or_embedded(stack), decode_responses=True)
        print(f"Redis {client.info('server')['redis_version']}")
        for count in (int(n) for n in args.counts.split(",")):
            for kind, players in (("8-char ids", [f"p-{n:06d}" for n in range(count)]),
                                  ("36-char ids", [str(uuid.UUID(int=n)) for n in range(count)])):
                used = measure(client, players, f"bench-{kind[0]}-{count}")
                print(f"{count:>7,} players, {kind}: {used:>11,} bytes, {used / count:6.1f} bytes a player")


if __name__ == "__main__":
    main()
