"""The outcome of a finished game."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any


def best_seats(seats: Iterable[int], key: Callable[[int], Any]) -> list[int]:
    """The seats whose ``key`` ties with the best (highest) one, in the order given: a game's winners."""
    seats = list(seats)
    best = max(map(key, seats))
    return [seat for seat in seats if key(seat) == best]


@dataclass(slots=True)
class Result:
    """``winners`` has one seat for an outright win and several for a shared win.

    ``ranking`` lists every seat best first; ``scores`` is per seat (money, loot...);
    ``reason`` says how the game ended (``bankrupt``, ``turn_cap``, ``savings``...).
    """

    winners: list[int]
    ranking: list[int]
    scores: list[int]
    reason: str
    turn_cap_hit: bool = False
    details: dict = field(default_factory=dict)

    @property
    def is_draw(self) -> bool:
        return len(self.winners) != 1

    def to_dict(self) -> dict:
        return {
            "winners": self.winners,
            "ranking": self.ranking,
            "scores": self.scores,
            "reason": self.reason,
            "turn_cap_hit": self.turn_cap_hit,
            "details": self.details,
        }
