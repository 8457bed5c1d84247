"""One game of a ruleset played in-process, as both environments see it: the engine is the authority.

``Table`` holds the state and turns the engine's decisions into masks and slot indices into actions;
``envs.aec`` (PettingZoo) and ``envs.single`` (Gymnasium) are thin shells around it. Nothing here
talks to the service: no Redis, no HTTP, the same ``Ruleset`` calls ``engine.simulate`` makes.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from engine.core.decisions import Decision
from engine.core.errors import IllegalAction
from engine.core.registry import get_ruleset
from engine.core.result import Result
from engine.core.rng import Rng, derive_seed
from engine.core.ruleset import Ruleset
from envs.encodings import encoding_for

#: reward(result, seat) -> the seat's reward at the end of a game
RewardFn = Callable[[Result, int], float]


def shared_win(result: Result, seat: int) -> float:
    """The default reward: 1 shared among the winners (an outright win 1, a two-way tie 0.5 each), else 0."""
    return 1.0 / len(result.winners) if seat in result.winners else 0.0


def any_win(result: Result, seat: int) -> float:
    """1 for every winner, shared win or not, else 0."""
    return 1.0 if seat in result.winners else 0.0


def zero_sum(result: Result, seat: int) -> float:
    """The winners share +1 and the losers share -1 (a table of all winners gets 0 each)."""
    losers = len(result.ranking) - len(result.winners)
    if seat in result.winners:
        return 1.0 / len(result.winners) if losers else 0.0
    return -1.0 / losers


REWARDS: dict[str, RewardFn] = {"shared": shared_win, "win": any_win, "zero_sum": zero_sum}

#: every observation feature lies within +-this (money is raw dollars; no game comes near it)
OBSERVATION_BOUND = float(2**31)

#: the table size an environment plays at unless told: four seats fit every ruleset's bounds
DEFAULT_PLAYERS = 4


def _copy(value: object) -> object:
    """A deep copy of a view (dicts, lists and scalars only), several times faster than ``copy.deepcopy``."""
    kind = type(value)
    if kind is dict:
        return {key: _copy(item) for key, item in value.items()}
    if kind is list or kind is tuple:
        return [_copy(item) for item in value]
    return value


def reward_fn(reward: str | RewardFn) -> RewardFn:
    if callable(reward):
        return reward
    if reward not in REWARDS:
        raise ValueError(f"unknown reward {reward!r}: one of {sorted(REWARDS)} or a function (result, seat)")
    return REWARDS[reward]


class Table:
    """A ruleset's game in play, with its fixed action catalogue and observation encoding."""

    def __init__(self, ruleset: str | Ruleset, players: int = DEFAULT_PLAYERS, options: dict | None = None) -> None:
        self.ruleset: Ruleset = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
        self.players = players
        self.options = options
        self.max_players = self.ruleset.max_players
        # A state of this table (players, options) fixes the catalogue: a custom board names its own cities.
        self.state = self.ruleset.new_game(players, options, 0)
        self.encoding = encoding_for(self.ruleset, self.state)
        self.catalogue = self.encoding.catalogue(self.ruleset, self.state)
        self.feature_names = self.encoding.names(self.max_players)
        self.seed = 0
        #: engine actions played in this game so far, by any seat
        self.actions = 0
        self._pending: list[Decision] | None = None
        #: seat -> the engine's view of the state as it is now (PettingZoo's observe and infos share it)
        self._views: dict[int, dict] = {}

    # -- the game ---------------------------------------------------------------------------------

    def reset(self, seed: int) -> None:
        self.seed = seed
        self.state = self.ruleset.new_game(self.players, self.options, seed)
        self.actions = 0
        self.changed()

    def bot_rng(self, seat: int) -> Rng:
        """Seat ``seat``'s bot generator, derived as ``engine.simulate.play_game`` derives it: a bot seated
        through an environment plays the very moves it plays in a simulation of the same seed."""
        return Rng(derive_seed(self.seed, 1, seat))

    def changed(self) -> None:
        """Forget what was worked out from the state before it changed (its decisions, its views)."""
        self._pending = None
        self._views = {}

    def pending(self) -> list[Decision]:
        if self._pending is None:
            self._pending = self.ruleset.pending(self.state)
        return self._pending

    def decisions_of(self, seat: int) -> list[Decision]:
        return [d for d in self.pending() if d.seat == seat]

    def next_seat(self) -> int | None:
        """The seat to act now: the first pending decision's, in the engine's own order (Cash 'n Guns' face-down
        choices come one seat after another in it); None once the game is over."""
        pending = self.pending()
        return pending[0].seat if pending else None

    def result(self) -> Result | None:
        return self.ruleset.result(self.state)

    def play(self, seat: int, action: int | dict) -> dict:
        """Play slot ``action`` (or an engine action body, checked by the engine) for ``seat``; the body played.

        ``IllegalAction`` when the engine refuses it (a masked-out slot, or a body it does not take).
        """
        decisions = self.decisions_of(seat)
        if isinstance(action, dict):
            body = self.ruleset.parse_action(action)
            self.ruleset.check(self.state, seat, body, self.pending())
        else:
            found = self.catalogue.action(int(action), decisions)
            if found is None:
                raise IllegalAction("option_not_allowed",
                                    f"slot {int(action)} is not among seat {seat}'s legal options now (see the mask)")
            body = found[1]
        self.ruleset.play(self.state, seat, body)
        self.changed()
        self.actions += 1
        return body

    # -- what a seat sees ----------------------------------------------------------------------------

    def view(self, seat: int) -> dict:
        """The seat's view, a copy of its own: a view may hold the state's lists or the board's data as they
        are, and what an environment hands out is the caller's to keep and change."""
        return _copy(self._view(seat))

    def _view(self, seat: int) -> dict:
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = self.ruleset.view(self.state, seat)
        return view

    def mask(self, seat: int) -> np.ndarray:
        return self.catalogue.mask(self.decisions_of(seat))

    def observe(self, seat: int, view: dict | None = None) -> np.ndarray:
        # the encoding only reads the view: the engine's own, uncopied, serves
        view = self._view(seat) if view is None else view
        kinds = {d.kind for d in self.decisions_of(seat)}
        return self.encoding.encode(view, seat, self.players, self.max_players, kinds)

    def render(self) -> str:
        """The table in a few lines of text: the turn, who decides what, each seat's public standing."""
        from envs.render import render_table
        return render_table(self)
