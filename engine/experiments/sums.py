"""Mergeable sums of an experiment's measures: a measure's moments, a paired measure's sums, and
the lead changes of a sequence of leaders (by the standings, or by the win chances)."""

from __future__ import annotations

from dataclasses import dataclass

#: no outright leader (a tie)
NOBODY = -1


@dataclass(slots=True)
class Moments:
    """Count, sum and sum of squares of a measure: its mean and interval, mergeable."""

    n: int = 0
    total: float = 0.0
    squares: float = 0.0

    def add(self, value: float) -> None:
        self.n += 1
        self.total += value
        self.squares += value * value

    def merge(self, other: Moments) -> None:
        self.n += other.n
        self.total += other.total
        self.squares += other.squares

    def to_list(self) -> list:
        return [self.n, self.total, self.squares]

    @classmethod
    def from_list(cls, data: list) -> Moments:
        return cls(*data)


@dataclass(slots=True)
class PairedSums:
    """Sums over the pairs (x: this variant's game, y: the base's game of the same seed) from
    which the paired difference, its variance and the pairs' correlation follow."""

    n: int = 0
    x: float = 0.0
    y: float = 0.0
    xx: float = 0.0
    yy: float = 0.0
    xy: float = 0.0

    def add(self, x: float, y: float) -> None:
        self.n += 1
        self.x += x
        self.y += y
        self.xx += x * x
        self.yy += y * y
        self.xy += x * y

    def merge(self, other: PairedSums) -> None:
        for name in ("n", "x", "y", "xx", "yy", "xy"):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def to_list(self) -> list:
        return [self.n, self.x, self.y, self.xx, self.yy, self.xy]

    @classmethod
    def from_list(cls, data: list) -> PairedSums:
        return cls(*data)


def lead_changes(leaders: list[int]) -> int:
    """How often the outright leader changed hands (a tie keeps the previous leader)."""
    changes, current = 0, NOBODY
    for leader in leaders:
        if leader == NOBODY:
            continue
        if current != NOBODY and leader != current:
            changes += 1
        current = leader
    return changes
