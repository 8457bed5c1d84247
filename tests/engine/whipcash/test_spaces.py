"""Doing what each kind of space says."""

from __future__ import annotations

import copy

import pytest

from tests.engine.whipcash.helpers import (
    CHASINBUCKS,
    DAILY,
    OVERBILLED,
    TEST_BOARD,
    event_types,
    new_state,
    pro,
    roll,
    script,
)

AWAY = [0, 14, 15]  # seats 1 and 2 parked where seat 0 cannot land with one die from START


@pytest.mark.parametrize(
    ("faces", "seat_cash", "party", "party_cash"),
    [
        ((1,), 21_000, DAILY, 27_000),  # pay Mr. Daily $3,000
        ((2,), 28_000, CHASINBUCKS, 20_000),  # Mr. Chasinbucks pays $4,000
    ],
)
def test_spaces_that_pay_a_pro_or_where_a_pro_pays(faces, seat_cash, party, party_cash):
    state = new_state(positions=AWAY)
    script(state, *faces)
    roll(state, 1)
    assert state.cash[0] == seat_cash
    assert state.cash[pro(state, party)] == party_cash


def test_a_bank_pays_space_of_a_custom_board_pays_from_the_signed_bank_ledger():
    state = new_state(positions=AWAY)
    script(state, 4)
    roll(state, 1)
    assert state.cash[0] == 26_000 and state.cash[state.bank] == -2_000


def test_pay_each_pro_pays_all_three():
    state = new_state(positions=AWAY)
    script(state, 5)
    roll(state, 1)
    assert state.cash[0] == 21_000
    assert [state.cash[pro(state, k)] for k in range(3)] == [25_000, 25_000, 25_000]


def test_roll_dice_for_cash_rolls_as_many_dice_as_the_move_and_its_payer_pays():
    state = new_state(positions=AWAY)
    script(state, 6, 5)  # move 6 onto "Roll Dice for $" (Dr. Overbilled pays), then one die: 5
    events = roll(state, 1)
    assert [e.data["dice"] for e in events if e.type == "rolled_for_cash"] == [[5]]
    assert state.cash[0] == 29_000 and state.cash[pro(state, OVERBILLED)] == 19_000
    state = new_state(positions=[5, 14, 15])
    script(state, 3, 3, 4, 6, 1, 2)  # doubles 3+3 from 5 to 11 (the bank pays), cash dice 4+6; then 1+2
    events = roll(state, 2)
    assert [e.data["dice"] for e in events if e.type == "rolled_for_cash"] == [[4, 6]]
    assert state.cash[0] == 34_000 and state.cash[state.bank] == -10_000
    assert state.current == 0, "the move was doubles: the cash roll's dice do not count"


def test_start_says_nothing():
    state = new_state(positions=[14, 3, 5])
    script(state, 2)
    events = roll(state, 1)
    assert state.position[0] == 0 and state.cash[0] == 24_000
    assert "paid" not in event_types(events)


def board_with_moves() -> dict:
    """The test board with space 4 moving a car 2 ahead (onto 6, Roll Dice for $ paid by Dr. Overbilled)
    and space 15 moving it 5 back (onto 10, pay Dr. Overbilled $5,000)."""
    board = copy.deepcopy(TEST_BOARD)
    board["loop"][4] = {"kind": "move", "steps": 2, "label": "Tailwind: ahead 2 spaces"}
    board["loop"][15] = {"kind": "move", "steps": -5, "label": "Wrong way: back 5 spaces"}
    return board


def test_a_move_space_moves_the_car_ahead_and_it_does_the_space_it_reaches():
    state = new_state(options={"board": board_with_moves()}, positions=[0, 13, 14])
    script(state, 4, 5)  # 0 + 4 = the move space, on to 6: Roll Dice for $ with one die, a 5
    events = roll(state, 1)
    moves = [e.data for e in events if e.type == "moved"]
    assert moves == [{"seat": 0, "to": 4}, {"seat": 0, "to": 6, "by": "space"}]
    assert state.position[0] == 6 and state.cash[0] == 29_000 and state.cash[pro(state, OVERBILLED)] == 19_000


def test_a_move_space_moves_the_car_back_and_a_car_already_there_is_whipcashed():
    state = new_state(options={"board": board_with_moves()}, positions=[13, 10, 0])
    state.card = [False] * 3
    script(state, 2)  # 13 + 2 = 15, back 5 onto 10 where seat 1 is: a Whipca$h, not the space
    events = roll(state, 1)
    assert state.position[0] == 10 and "whipcash" in event_types(events)
    assert state.cash[:2] == [9_000, 39_000] and state.cash[pro(state, OVERBILLED)] == 24_000


def test_a_move_space_back_lands_on_the_space_it_reaches():
    state = new_state(options={"board": board_with_moves()}, positions=[13, 0, 1])
    script(state, 2)
    roll(state, 1)
    assert state.position[0] == 10 and state.cash[0] == 19_000 and state.cash[pro(state, OVERBILLED)] == 29_000
