"""The contract of a player: ``Bot`` picks an action from what its seat may know only.

A bot is built for a ruleset (``Ruleset.bot``), and a ruleset lists its bots by class: the bots know
the ruleset only through the ``Ruleset`` contract, so this module imports it for type hints alone and
the generic bots (``engine.bots``) sit above the contract, not inside it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, ClassVar

from engine.core.decisions import Decision
from engine.core.rng import Rng

if TYPE_CHECKING:  # a ruleset holds bot classes; a bot holds its ruleset only to call the contract
    from engine.core.ruleset import Ruleset


class Bot(ABC):
    """A player that picks an action from what its seat may know only."""

    #: Bots that ignore the view set this False, so simulations skip building it.
    needs_view: ClassVar[bool] = True
    #: About how many engine actions one move of this bot costs at most: quotas count it.
    cost_per_move: ClassVar[int] = 1
    #: True for bots that search (seconds of CPU a move): the service runs them on its search queue.
    searches: ClassVar[bool] = False
    #: What a person reads for this bot (a seat's badge, the lobby's list), and how it plays in a few
    #: words; a game's own bots may be named in its labels instead (``terms.bots`` and ``terms.bot_about``
    #: of its data/labels.json)
    label: ClassVar[str] = "Bot"
    about: ClassVar[str] = ""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset

    @abstractmethod
    def act(self, view: dict | None, decision: Decision, rng: Rng) -> dict: ...

    def choose(self, state, decision: Decision, rng: Rng) -> dict:
        """The action for ``decision`` in the game ``state``, read through the seat's view only.

        Every caller (simulations, bot seats) comes through here. A bot that searches overrides
        it and still never reads ``state`` itself: it only plays on worlds drawn with
        ``Ruleset.resample_hidden``, which keep what the seat sees and re-deal everything else.
        """
        view = self.ruleset.view(state, decision.seat) if self.needs_view else None
        return self.act(view, decision, rng)
