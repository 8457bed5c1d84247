"""One wake-up subscriber and one set of stream leases per process.

Works the same with real threads (gthread, the werkzeug test server) and under gevent,
whose monkey patching turns ``threading`` into greenlets.
"""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import threading
import time
from dataclasses import dataclass, field

import redis

from api.ground.concurrency import cooperative
from api.play.game_keys import WAKE_PATTERN

log = logging.getLogger("rulehouse.streams")

#: A stream's slot in its client's count lives this long without a refresh (a process that died frees it then).
LEASE_SECONDS = 30.0
#: The hub refreshes its streams' leases this often.
REFRESH_SECONDS = LEASE_SECONDS / 3
#: With no stream open for this long, the subscriber stops (it starts again with the next stream).
IDLE_SECONDS = 10.0
#: the longest pause between two tries to reach a Redis that went away
MAX_BACKOFF_SECONDS = 5.0

# Takes a slot among the client's open streams if fewer than the limit are held: 1, else 0.
_ACQUIRE = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
redis.call('EXPIRE', KEYS[1], ARGV[5])
return 1
"""


def slots_key(client: str) -> str:
    return f"streams:client:{client}"


def game_of(channel: str) -> str | None:
    start, end = channel.find("{"), channel.rfind("}")
    return channel[start + 1:end] if 0 <= start < end else None


@dataclass(eq=False)
class Waiter:
    """One open stream: woken when its game changes (or when a wake-up may have been missed)."""

    game_id: str
    event: threading.Event = field(default_factory=threading.Event)

    def wait(self, timeout: float) -> bool:
        """Block until woken or ``timeout``; True if woken. Read what is new *after* this returns."""
        woken = self.event.wait(timeout)
        self.event.clear()
        return woken


class StreamHub:
    """The streams of one process: their wake-ups (one pub/sub connection) and their client slots."""

    def __init__(self, redis_url: str, client: redis.Redis) -> None:
        self.redis_url = redis_url
        self.redis = client
        self._acquire = client.register_script(_ACQUIRE)
        # Under gevent (one OS thread, switches only at I/O) these short sections need no lock, and a
        # gevent lock around them was seen to wedge the subscriber; with real threads they do.
        self._lock = contextlib.nullcontext() if cooperative() else threading.Lock()
        self._waiters: dict[str, set[Waiter]] = {}
        self._slots: dict[tuple[str, str], None] = {}
        self._thread: threading.Thread | None = None
        self._pid = os.getpid()

    # -- client slots -----------------------------------------------------------

    def acquire_slot(self, client: str, limit: int) -> tuple[str, str] | None:
        """A slot among ``client``'s open streams, or None when it already holds ``limit``."""
        key, member = slots_key(client), secrets.token_hex(8)
        now = time.time()
        if not self._acquire(keys=[key], args=[now, limit, now + LEASE_SECONDS, member, int(LEASE_SECONDS) + 1]):
            return None
        with self._lock:
            self._slots[(key, member)] = None
        self._ensure_running()
        return key, member

    def release_slot(self, slot: tuple[str, str]) -> None:
        with self._lock:
            self._slots.pop(slot, None)
        with contextlib.suppress(redis.RedisError):  # else the lease runs out by itself
            self.redis.zrem(*slot)

    def _refresh_slots(self) -> None:
        with self._lock:
            slots = list(self._slots)
        if not slots:
            return
        until = time.time() + LEASE_SECONDS
        with self.redis.pipeline(transaction=False) as pipe:
            for key, member in slots:
                pipe.zadd(key, {member: until}, xx=True)
            for key in {key for key, _ in slots}:
                pipe.expire(key, int(LEASE_SECONDS) + 1)
            pipe.execute()

    # -- wake-ups ---------------------------------------------------------------

    def register(self, waiter: Waiter) -> None:
        with self._lock:
            self._waiters.setdefault(waiter.game_id, set()).add(waiter)
        self._ensure_running()

    def unregister(self, waiter: Waiter) -> None:
        with self._lock:
            waiters = self._waiters.get(waiter.game_id)
            if waiters is not None:
                waiters.discard(waiter)
                if not waiters:
                    del self._waiters[waiter.game_id]

    def open_streams(self) -> int:
        with self._lock:
            return sum(len(waiters) for waiters in self._waiters.values())

    def held_slots(self) -> int:
        """Client slots of streams not closed yet (a stream's response frees its slot when it is closed)."""
        with self._lock:
            return len(self._slots)

    def _wake(self, game_id: str) -> None:
        with self._lock:
            waiters = list(self._waiters.get(game_id, ()))
        for waiter in waiters:
            waiter.event.set()

    def _wake_all(self) -> None:
        with self._lock:
            waiters = [waiter for group in self._waiters.values() for waiter in group]
        for waiter in waiters:
            waiter.event.set()

    def _ensure_running(self) -> None:
        with self._lock:
            if self._pid != os.getpid():  # a forked child: the parent's subscriber is not ours
                self._pid, self._thread = os.getpid(), None
            if self._thread is not None and self._thread.is_alive():
                return
            thread = self._thread = threading.Thread(target=self._run, name="rulehouse-stream-hub", daemon=True)
        thread.start()  # outside the lock: starting waits for the new thread, which takes the lock

    def _idle(self) -> bool:
        with self._lock:
            if self._waiters or self._slots:
                return False
            self._thread = None  # the next stream starts a new subscriber
            return True

    def _run(self) -> None:
        idle_since = None
        backoff = 0.2
        failures = 0  # failed connections in a row: the first is logged, the others wait quietly
        while True:
            pubsub = None
            try:
                pubsub = redis.Redis.from_url(self.redis_url, decode_responses=True).pubsub(
                    ignore_subscribe_messages=True)
                pubsub.psubscribe(WAKE_PATTERN)
                # Anything published while nobody listened: every stream reads again.
                self._wake_all()
                if failures:
                    log.info("stream wake-ups: Redis answers again (after %d failed tries)", failures)
                backoff, failures = 0.2, 0
                refreshed = time.monotonic()
                while True:
                    message = pubsub.get_message(timeout=1.0)
                    if message is not None and message.get("type") == "pmessage":
                        game_id = game_of(message["channel"])
                        if game_id is not None:
                            self._wake(game_id)
                    now = time.monotonic()
                    if now - refreshed >= REFRESH_SECONDS:
                        self._refresh_slots()
                        refreshed = now
                    if self.open_streams() or self._slots:
                        idle_since = None
                    elif idle_since is None:
                        idle_since = now
                    elif now - idle_since > IDLE_SECONDS and self._idle():
                        return
            except redis.RedisError as error:
                # Streams notice the outage themselves; wake them so none waits out its keep-alive.
                self._wake_all()
                if self._idle():
                    return
                if not failures:
                    log.warning("stream wake-ups: Redis unavailable (%s); reconnecting quietly, every %.0f s at most",
                                error, MAX_BACKOFF_SECONDS)
                failures += 1
                time.sleep(backoff)
                backoff = min(MAX_BACKOFF_SECONDS, backoff * 2)
            finally:
                if pubsub is not None:
                    with contextlib.suppress(redis.RedisError):
                        pubsub.close()
