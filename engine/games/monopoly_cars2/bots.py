"""Bots for Monopoly: Cars 2 that read only their seat's view."""

from __future__ import annotations

from engine.core.decisions import Decision
from engine.core.rng import Rng
from engine.core.ruleset import Bot


class HeuristicBot(Bot):
    def act(self, view: dict | None, decision: Decision, rng: Rng) -> dict:
        return decision.default_action()
