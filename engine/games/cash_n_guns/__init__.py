"""Cash 'n Guns, 2nd edition (ruleset id ``cash-n-guns``)."""

from engine.games.cash_n_guns.ruleset import CashNGunsRuleset

RULESET = CashNGunsRuleset()

__all__ = ["RULESET", "CashNGunsRuleset"]
