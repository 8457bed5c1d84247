"""The ``random`` bot: uniform over the offered options, with its own seeded RNG."""

from __future__ import annotations

from engine.core.bot import Bot
from engine.core.decisions import Decision
from engine.core.rng import Rng


class RandomBot(Bot):
    needs_view = False
    label = "Random bot"
    about = "plays any legal move, at random"

    def choose(self, state, decision: Decision, rng: Rng) -> dict:
        # No view to build, and ``rng.choice`` written out: a search's rollouts and every simulation
        # call this once an action. Ranges are looked up only when the decision has any.
        options = decision.options
        action = dict(options[rng.randint(0, len(options) - 1)])
        if decision.ranges:
            # A ranged parameter is drawn over its whole range, not only the extremes offered.
            for key, (low, high) in decision.ranges.get(action["type"], {}).items():
                action[key] = rng.randint(low, high)
        return action

    def act(self, view: dict | None, decision: Decision, rng: Rng) -> dict:
        return self.choose(None, decision, rng)
