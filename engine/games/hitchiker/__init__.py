"""Hitchiker: savings, contraband, customs, casinos, death and reincarnation."""

from engine.games.hitchiker.ruleset import HitchikerRuleset

RULESET = HitchikerRuleset()

__all__ = ["RULESET", "HitchikerRuleset"]
