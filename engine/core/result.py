"""The outcome of a finished game."""

from __future__ import annotations

from dataclasses import dataclass, field


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
