"""Waiting for a Redis that does not answer: say so once, clearly (where, and why), then retry
quietly with a growing pause, and say once more when it answers.

``rulehouse serve`` starts its workers only once Redis answers (its API answers
``/v1/health`` meanwhile, and ``/v1/ready`` 503); ``rulehouse worker`` waits the same way
before it starts working, so neither crashes and restarts in a loop.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from urllib.parse import urlsplit

import redis

#: the first pause after a failed try, and the longest
FIRST_PAUSE_SECONDS = 0.5
MAX_PAUSE_SECONDS = 30.0
#: a try gives up after this long (an address that drops packets would otherwise hang it)
TRY_TIMEOUT_SECONDS = 3.0


def redis_location(url: str) -> str:
    """Where ``url`` points, for people: host, port and database, never its password."""
    parts = urlsplit(url)
    if parts.scheme == "unix":
        return f"the socket {parts.path}"
    database = parts.path.strip("/") or "0"
    return f"{parts.hostname or '127.0.0.1'}:{parts.port or 6379} (database {database})"


class RedisWait:
    """Tries to reach the Redis at ``url`` on a backoff schedule, reporting through ``say``.

    ``say`` hears of the first failure (with where and why, and that the tries go on quietly),
    and of the first success after failures; nothing in between.
    """

    def __init__(self, url: str, say: Callable[[str], None], *, what: str = "",
                 clock: Callable[[], float] = time.monotonic) -> None:
        """``what`` ends the first message: what waits for Redis meanwhile."""
        self.url = url
        self.say = say
        self.what = what
        self.clock = clock
        self.failures = 0
        self.pause = FIRST_PAUSE_SECONDS
        self.next_try = clock()

    def due(self) -> bool:
        return self.clock() >= self.next_try

    def reachable(self) -> bool:
        """One try now: True when Redis answers a PING."""
        client = redis.Redis.from_url(self.url, socket_connect_timeout=TRY_TIMEOUT_SECONDS,
                                      socket_timeout=TRY_TIMEOUT_SECONDS)
        try:
            client.ping()
        except redis.RedisError as error:
            if self.failures == 0:
                reason = str(error).rstrip(".") or type(error).__name__
                self.say(f"cannot reach Redis at {redis_location(self.url)}: {reason}. Retrying quietly, "
                         f"every {MAX_PAUSE_SECONDS:.0f} s at most{self.what}.")
            self.failures += 1
            self.next_try = self.clock() + self.pause
            self.pause = min(MAX_PAUSE_SECONDS, self.pause * 2)
            return False
        finally:
            client.close()
        if self.failures:
            self.say(f"Redis at {redis_location(self.url)} answers now (after {self.failures} failed "
                     f"tr{'y' if self.failures == 1 else 'ies'}).")
        self.failures, self.pause = 0, FIRST_PAUSE_SECONDS
        return True

    def wait(self, sleep: Callable[[float], None] = time.sleep) -> None:
        """Block until Redis answers."""
        while not self.reachable():
            sleep(max(0.0, self.next_try - self.clock()))
