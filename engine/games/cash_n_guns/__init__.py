"""Cash 'n Guns, 2nd edition (ruleset id ``cash-n-guns``)."""

from engine.games.cash_n_guns.rules import CashNGuns

RULESET = CashNGuns()

__all__ = ["RULESET", "CashNGuns"]
