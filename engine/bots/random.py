"""The ``random`` bot: uniform over the offered options, with its own seeded RNG."""

from __future__ import annotations

from engine.core.bot import Bot
from engine.core.decisions import Decision
from engine.core.rng import Rng


class RandomBot(Bot):
    needs_view = False

    def choose(self, state, decision: Decision, rng: Rng) -> dict:
        return self.act(None, decision, rng)  # no view to build: a search's rollouts call this every step

    def act(self, view: dict | None, decision: Decision, rng: Rng) -> dict:
        # ``rng.choice`` written out, ranges looked up only when the decision has any.
        options = decision.options
        action = dict(options[rng.randint(0, len(options) - 1)])
        if decision.ranges:
            # A ranged parameter is drawn over its whole range, not only the extremes offered.
            for key, (low, high) in decision.ranges.get(action["type"], {}).items():
                action[key] = rng.randint(low, high)
        return action
