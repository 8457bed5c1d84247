"""Deterministic counter-based randomness stored inside the game state.

Each draw hashes (seed, counter) with splitmix64, so the generator is two integers:
a game replays exactly from its seed and the number of draws made so far.
"""

from __future__ import annotations

import functools
import math

MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15


def splitmix64(x: int) -> int:
    """One splitmix64 output for input ``x`` (a 64-bit mix function)."""
    z = (x + GOLDEN_GAMMA) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


#: ``splitmix64`` of the small path parts (seats, the bots' branch...), which every game derives anew
_MIXED_PARTS = [splitmix64(part) for part in range(64)]


def derive_seed(seed: int, *path: int) -> int:
    """A child seed for ``path`` (game index, seat...) that depends on nothing else."""
    value = seed & MASK64
    for part in path:
        mixed = _MIXED_PARTS[part] if 0 <= part < 64 else splitmix64(part & MASK64)
        value = splitmix64(value ^ mixed)
    return value


@functools.cache
def _permutation_words(count: int) -> int:
    """How many 64-bit draws ``quick_shuffle`` makes for ``count`` items."""
    return (math.factorial(count).bit_length() + 64 + 63) // 64


class Rng:
    """A small random generator whose whole state is ``(seed, counter)``."""

    __slots__ = ("counter", "seed")

    def __init__(self, seed: int, counter: int = 0) -> None:
        self.seed = seed & MASK64
        self.counter = counter

    # Games and searches draw millions of numbers: each draw below is ``splitmix64`` written out in
    # place (one Python call per draw, not three). ``test_core`` checks them against ``splitmix64``.
    # ``counter * GOLDEN_GAMMA`` is not masked to 64 bits first: its higher bits cannot reach the low
    # 64 of an xor and an addition, and the mask after the addition drops them.

    def next64(self) -> int:
        self.counter = counter = self.counter + 1
        z = ((self.seed ^ (counter * GOLDEN_GAMMA)) + GOLDEN_GAMMA) & MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def randint(self, low: int, high: int) -> int:
        """A uniform integer in ``[low, high]`` (both ends included)."""
        span = high - low + 1
        if span <= 1:
            if span <= 0:
                raise ValueError(f"empty range [{low}, {high}]")
            # One value (a bot offered a single option...): the draw is spent all the same, so every
            # later draw stays what it was, but its bits, which cannot matter, are not worked out.
            self.counter += 1
            return low
        self.counter = counter = self.counter + 1
        z = ((self.seed ^ (counter * GOLDEN_GAMMA)) + GOLDEN_GAMMA) & MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        # Multiply-shift maps 64 random bits onto the span; the bias is below 2**-50.
        return low + (((z ^ (z >> 31)) * span) >> 64)

    def die(self, sides: int = 6) -> int:
        return self.randint(1, sides)

    def choice(self, items):
        return items[self.randint(0, len(items) - 1)]

    def shuffle(self, items: list) -> None:
        """Fisher-Yates, in place."""
        randint = self.randint
        for i in range(len(items) - 1, 0, -1):
            j = randint(0, i)
            items[i], items[j] = items[j], items[i]

    def quick_shuffle(self, items: list) -> None:
        """A uniform shuffle, in place, from one big random number: a few ``next64`` draws instead of
        one per item (three times faster than ``shuffle`` for a few dozen items).

        It draws differently from ``shuffle``, so the rules of a game, whose draws are pinned by their
        recorded games, keep ``shuffle``; re-dealing hidden cards for a search uses this one.
        """
        count = len(items)
        if count < 2:
            return
        number = 0
        for _ in range(_permutation_words(count)):
            number = (number << 64) | self.next64()
        # The digits of ``number`` in the mixed radix count, count - 1, ..., 2 are a uniform
        # Fisher-Yates sequence (the draws carry 64 bits more than count! needs: bias below 2**-63).
        for i in range(count - 1, 0, -1):
            number, j = divmod(number, i + 1)
            items[i], items[j] = items[j], items[i]

    def random(self) -> float:
        return (self.next64() >> 11) / float(1 << 53)

    def to_dict(self) -> dict:
        return {"seed": self.seed, "counter": self.counter}

    @classmethod
    def from_dict(cls, data: dict) -> Rng:
        return cls(data["seed"], data["counter"])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and (self.seed, self.counter) == (other.seed, other.counter)

    def __repr__(self) -> str:
        return f"Rng(seed={self.seed}, counter={self.counter})"
