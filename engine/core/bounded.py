"""A per-process cache that keeps at most ``bound`` entries, the least recently stored going first.

A long-running process (an API worker, a bot worker) caches per game or per custom board; any
such cache without a bound grows with every game ever played there. Without a lock: two threads
may race on one (gthread), so a lost eviction is tried again by the next ``put`` and a lookup of
an entry that another thread evicted meanwhile is simply a miss.
"""

from __future__ import annotations

from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class BoundedCache(Generic[K, V]):
    def __init__(self, bound: int) -> None:
        self.bound = bound
        self._entries: dict[K, V] = {}

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: K) -> V | None:
        return self._entries.get(key)

    def pop(self, key: K) -> V | None:
        return self._entries.pop(key, None)

    def put(self, key: K, value: V) -> None:
        """Store ``value`` as the newest entry, then drop the oldest beyond the bound."""
        self._entries.pop(key, None)
        self._entries[key] = value
        while len(self._entries) > self.bound:
            try:
                del self._entries[next(iter(self._entries))]
            except (KeyError, RuntimeError, StopIteration):  # another thread changed it meanwhile
                break

    def resize(self, bound: int) -> None:
        """A new bound, met from the next ``put``."""
        self.bound = bound

    def sizes(self) -> tuple[int, int]:
        """(entries, bound): what ``api.ground.metrics.track_cache`` reports."""
        return len(self._entries), self.bound
