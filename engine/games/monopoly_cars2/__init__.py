"""Monopoly: Cars 2 Edition (Monopoly Junior family)."""

from engine.games.monopoly_cars2.ruleset import MonopolyCars2Ruleset

RULESET = MonopolyCars2Ruleset()

__all__ = ["RULESET", "MonopolyCars2Ruleset"]
