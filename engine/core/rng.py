"""Deterministic counter-based randomness stored inside the game state.

Each draw hashes (seed, counter) with splitmix64, so the generator is two integers:
a game replays exactly from its seed and the number of draws made so far.
"""

from __future__ import annotations

MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15


def splitmix64(x: int) -> int:
    """One splitmix64 output for input ``x`` (a 64-bit mix function)."""
    z = (x + GOLDEN_GAMMA) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def derive_seed(seed: int, *path: int) -> int:
    """A child seed for ``path`` (game index, seat...) that depends on nothing else."""
    value = seed & MASK64
    for part in path:
        value = splitmix64(value ^ splitmix64(part & MASK64))
    return value


class Rng:
    """A small random generator whose whole state is ``(seed, counter)``."""

    __slots__ = ("counter", "seed")

    def __init__(self, seed: int, counter: int = 0) -> None:
        self.seed = seed & MASK64
        self.counter = counter

    def next64(self) -> int:
        self.counter += 1
        return splitmix64(self.seed ^ ((self.counter * GOLDEN_GAMMA) & MASK64))

    def randint(self, low: int, high: int) -> int:
        """A uniform integer in ``[low, high]`` (both ends included)."""
        span = high - low + 1
        if span <= 0:
            raise ValueError(f"empty range [{low}, {high}]")
        # Multiply-shift maps 64 random bits onto the span; the bias is below 2**-50.
        return low + ((self.next64() * span) >> 64)

    def die(self, sides: int = 6) -> int:
        return self.randint(1, sides)

    def choice(self, items):
        return items[self.randint(0, len(items) - 1)]

    def shuffle(self, items: list) -> None:
        """Fisher-Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randint(0, i)
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
