"""Whipca$h: the Pros, the Pits, the Blind Justice Freeway and Whipca$hing other cars."""

from engine.games.whipcash.ruleset import WhipcashRuleset

RULESET = WhipcashRuleset()

__all__ = ["RULESET", "WhipcashRuleset"]
