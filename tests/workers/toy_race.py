"""A throwaway dice race for the worker tests only: each turn the seat rolls a die and
moves; the first to reach the goal wins. ``crash`` makes a game blow up, to test how a
failing chunk fails its simulation; ``step_seconds`` makes each roll take that long (a game
that runs away, or one step that never returns). Its ``cheater`` bot always proposes a
``boost``, an action the rules know but never offer (a bot's bug). ``register()`` adds it to
the registry of this process (subprocesses run the CLI through ``cli_main``)."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from marshmallow import fields

from engine.bots import GENERIC_BOTS
from engine.core.bot import Bot
from engine.core.decisions import Decision
from engine.core.events import Event
from engine.core.registry import all_rulesets
from engine.core.result import Result
from engine.core.rng import Rng
from engine.core.ruleset import OptionsSchema, Ruleset, action_schema


class RaceOptions(OptionsSchema):
    goal = fields.Integer(load_default=30)
    crash = fields.Boolean(load_default=False)
    step_seconds = fields.Float(load_default=0.0)


@dataclass(slots=True)
class RaceState:
    players: int
    rng: Rng
    goal: int
    crash: bool
    step_seconds: float = 0.0
    turn: int = 0
    positions: list[int] = field(default_factory=list)


class CheaterBot(Bot):
    """Proposes a move it is never offered."""

    needs_view = False

    def act(self, view, decision, rng):
        return {"type": "boost"}


class ToyRace(Ruleset):
    id = "toy-race"
    title = "Toy race"
    min_players = 2
    max_players = 4
    options_schema = RaceOptions
    action_schemas = {"roll": action_schema("roll"), "boost": action_schema("boost")}
    state_class = RaceState
    generic_bots = GENERIC_BOTS
    bots = {"cheater": CheaterBot}

    def setup(self, players, options, rng):
        return RaceState(players, rng, options["goal"], options["crash"], options["step_seconds"],
                         positions=[0] * players)

    def turn_order(self, state):
        return list(range(state.players))  # turn t is seat t % players: seat 0 moves first

    def _winner(self, state):
        return next((s for s, p in enumerate(state.positions) if p >= state.goal), None)

    def pending(self, state):
        if self._winner(state) is not None:
            return []
        return [Decision(state.turn % state.players, "roll", [{"type": "roll"}])]

    def play(self, state, seat, action):
        if state.step_seconds:
            time.sleep(state.step_seconds)
        roll = state.rng.die()
        if state.crash and roll == 6 and state.turn > 5:
            raise RuntimeError("toy race crashed on purpose")
        state.positions[seat] += roll
        state.turn += 1
        return [Event("rolled", {"seat": seat, "roll": roll})]

    def view(self, state, seat):
        return {"positions": list(state.positions), "turn": state.turn}

    def result(self, state):
        winner = self._winner(state)
        if winner is None:
            return None
        ranking = sorted(range(state.players), key=lambda s: -state.positions[s])
        return Result([winner], ranking, list(state.positions), "goal")


RULESET = ToyRace()


def register() -> None:
    """For a process of its own (a worker, the CLI): the toy race stays registered."""
    all_rulesets()[RULESET.id] = RULESET


@contextmanager
def registered() -> Iterator[Ruleset]:
    """The toy race in this process's registry for the ``with`` block only, so the tests that run
    after it in the same process (two test processes take files in any order) see only the real
    rulesets in ``all_rulesets()``."""
    register()
    try:
        yield RULESET
    finally:
        all_rulesets().pop(RULESET.id, None)


def cli_main() -> None:
    """``python -c 'from tests.workers.toy_race import worker_main; worker_main()' worker ...``"""
    register()
    from api.cli import main

    sys.exit(main(sys.argv[1:]))
