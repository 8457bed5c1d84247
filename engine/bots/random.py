"""The ``random`` bot: uniform over the offered options, with its own seeded RNG."""

from __future__ import annotations

from engine.core.decisions import Decision
from engine.core.rng import Rng
from engine.core.ruleset import Bot


class RandomBot(Bot):
    needs_view = False

    def act(self, view: dict | None, decision: Decision, rng: Rng) -> dict:
        action = dict(rng.choice(decision.options))
        # A ranged parameter is drawn over its whole range, not only the extremes offered.
        for key, (low, high) in decision.ranges.get(action["type"], {}).items():
            action[key] = rng.randint(low, high)
        return action
