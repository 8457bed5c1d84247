"""Bots that play any ruleset through the contract (``engine.core.bot.Bot``).

A game offers them by setting ``Ruleset.generic_bots = GENERIC_BOTS`` beside its own ``bots``: the
contract in ``engine.core`` never imports them, so the engine's packages stay a one-way stack
(core, then bots and values, then games).
"""

from engine.bots.random import RandomBot
from engine.bots.search import SEARCH_BOTS
from engine.core.bot import Bot

#: The bots every game offers: ``random`` and the search levels (``mcts``, ``mcts-1`` ... ``mcts-5``).
GENERIC_BOTS: dict[str, type[Bot]] = {"random": RandomBot, **SEARCH_BOTS}

__all__ = ["GENERIC_BOTS", "SEARCH_BOTS", "RandomBot"]
