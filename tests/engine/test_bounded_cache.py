"""engine/core/bounded.py: a per-process cache that never holds more than its bound."""

from __future__ import annotations

from engine.core.bounded import BoundedCache


def test_the_oldest_stored_go_first_and_the_size_stays_at_the_bound():
    cache: BoundedCache[int, str] = BoundedCache(3)
    for key in range(10):
        cache.put(key, str(key))
        assert len(cache) == min(key + 1, 3)
    assert [cache.get(key) for key in range(10)] == [None] * 7 + ["7", "8", "9"]
    cache.put(7, "again")  # stored again: the newest now
    cache.put(10, "10")
    assert cache.get(8) is None and cache.get(7) == "again"
    assert cache.sizes() == (3, 3)


def test_a_smaller_bound_is_met_from_the_next_put():
    cache: BoundedCache[int, int] = BoundedCache(5)
    for key in range(5):
        cache.put(key, key)
    cache.resize(2)
    cache.put(5, 5)
    assert cache.sizes() == (2, 2)
    assert cache.pop(5) == 5 and cache.pop(5) is None
