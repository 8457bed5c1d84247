"""A small board with every kind of space at known places, and scripted dice."""

from __future__ import annotations

import copy

from engine.core.rng import Rng
from engine.games.whipcash import RULESET
from engine.games.whipcash.state import WhipcashState

TEST_BOARD = {
    "id": "test",
    "loop": [
        {"kind": "start"},                                    # 0
        {"kind": "pay_pro", "pro": "daily", "amount": 3000},  # 1
        {"kind": "pro_pays", "pro": "chasinbucks", "amount": 4000},  # 2
        {"kind": "pay_pro", "pro": "overbilled", "amount": 2000},  # 3
        {"kind": "bank_pays", "amount": 2000},                # 4
        {"kind": "pay_each_pro", "amount": 1000},             # 5
        {"kind": "roll_for_cash", "payer": "overbilled"},     # 6
        {"kind": "pit", "pro": "daily"},                      # 7
        {"kind": "onramp"},                                   # 8
        {"kind": "pit", "pro": "chasinbucks"},                # 9
        {"kind": "pay_pro", "pro": "overbilled", "amount": 5000},  # 10
        {"kind": "roll_for_cash", "payer": "bank"},           # 11
        {"kind": "pit", "pro": "overbilled"},                 # 12
        {"kind": "pro_pays", "pro": "daily", "amount": 6000},  # 13
        {"kind": "pay_pro", "pro": "chasinbucks", "amount": 2000},  # 14
        {"kind": "bank_pays", "amount": 1000},                # 15
    ],
    "freeway": {"lanes": 3, "rejoin": 13},
}
LANE_0, LANE_1, LANE_2 = 16, 17, 18
PIT_DAILY, PIT_CHASINBUCKS, PIT_OVERBILLED = 7, 9, 12
DAILY, CHASINBUCKS, OVERBILLED = 0, 1, 2


class ScriptedDice(Rng):
    """Dice that come up as scripted; anything else drawn is an error in the test."""

    def __init__(self, faces: list[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def die(self, sides: int = 6) -> int:
        assert self.faces, "the test ran out of scripted dice"
        return self.faces.pop(0)

    def randint(self, low: int, high: int) -> int:
        raise AssertionError("only dice are scripted")


def new_state(players: int = 3, *, options: dict | None = None, positions: list[int] | None = None,
              cash: list[int] | None = None) -> WhipcashState:
    """A game on the test board, seats in order 0, 1, 2..., seat 0 to roll, nobody's card changed."""
    state = RULESET.new_game(players, {"board": copy.deepcopy(TEST_BOARD), **(options or {})}, seed=1)
    state.order = list(range(players))
    state.current = 0
    if positions is not None:
        state.position = list(positions)
    if cash is not None:
        state.cash[:players] = cash
    return state


def script(state: WhipcashState, *faces: int) -> ScriptedDice:
    state.rng = ScriptedDice(list(faces))
    return state.rng


def pro(state: WhipcashState, pro_index: int) -> int:
    return state.players + pro_index


def event_types(events) -> list[str]:
    return [event.type for event in events]


def roll(state: WhipcashState, dice: int, seat: int | None = None):
    return RULESET.apply(state, state.current if seat is None else seat, {"type": "roll", "dice": dice})
