"""Monopoly: Cars 2 Edition (Monopoly Junior family)."""

from engine.games.monopoly_cars2.ruleset import MonopolyCars2

RULESET = MonopolyCars2()
