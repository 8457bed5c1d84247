"""The board is data: the shipped one loads, a custom one in the options is validated field by field."""

from __future__ import annotations

import copy
import json

import pytest

from engine.core.errors import InvalidOptions
from engine.games.whipcash import RULESET
from engine.games.whipcash.board import DEFAULT_BOARD_PATH, PROS, Board, default_board
from tests.engine.whipcash.helpers import TEST_BOARD


def test_the_shipped_board_pays_no_bank_moves_cars_and_has_one_pit_per_pro_and_a_freeway():
    board = default_board()
    kinds = {space["kind"] for space in board.data["loop"]}
    # The parties are the players and the Pros: no space takes money out of play or pays it in.
    assert kinds == {"start", "pay_pro", "pro_pays", "pay_each_pro", "roll_for_cash", "pit", "onramp", "move"}
    assert all(space.get("payer") != "bank" for space in board.data["loop"])
    moves = [space["steps"] for space in board.data["loop"] if space["kind"] == "move"]
    assert len(moves) >= 2 and any(steps > 0 for steps in moves) and any(steps < 0 for steps in moves)
    pits = [space["pro"] for space in board.data["loop"] if space["kind"] == "pit"]
    assert sorted(pits) == sorted(PROS)
    assert board.next_position[board.size - 1] == board.data["freeway"]["rejoin"]
    assert board.next_position[board.loop_len - 1] == 0


def test_a_custom_board_is_used_by_the_game_and_shown_in_the_view():
    state = RULESET.new_game(2, {"board": TEST_BOARD}, seed=3)
    assert RULESET.view(state, 0)["board"] == TEST_BOARD


def broken(change) -> dict:
    board = copy.deepcopy(TEST_BOARD)
    change(board)
    return board


@pytest.mark.parametrize(
    ("board", "field"),
    [
        (broken(lambda b: b["loop"][1].update(pro="mayor")), "board.loop.1.pro"),
        (broken(lambda b: b["loop"][1].update(amount=-5)), "board.loop.1.amount"),
        (broken(lambda b: b["loop"][1].update(amount="lots")), "board.loop.1.amount"),
        (broken(lambda b: b["loop"][3].update(kind="teleport")), "board.loop.3.kind"),
        (broken(lambda b: b["loop"][6].update(payer="mayor")), "board.loop.6.payer"),
        (broken(lambda b: b["loop"][4].update(colour="red")), "board.loop.4"),
        (broken(lambda b: b["loop"].__setitem__(7, {"kind": "bank_pays", "amount": 1})), "board.loop"),
        (broken(lambda b: b["loop"].__setitem__(8, {"kind": "bank_pays", "amount": 1})), "board.loop"),
        (broken(lambda b: b["loop"].__setitem__(0, {"kind": "bank_pays", "amount": 1})), "board.loop.0.kind"),
        (broken(lambda b: b["loop"].__setitem__(3, {"kind": "start"})), "board.loop.3.kind"),
        (broken(lambda b: b["freeway"].update(rejoin=8)), "board.freeway.rejoin"),
        (broken(lambda b: b["freeway"].update(rejoin=99)), "board.freeway.rejoin"),
        (broken(lambda b: b["freeway"].update(lanes=0)), "board.freeway.lanes"),
        (broken(lambda b: b.pop("freeway")), "board.freeway"),
        (broken(lambda b: b.__setitem__("loop", b["loop"][:5])), "board.loop"),
        (broken(lambda b: b["loop"].__setitem__(3, {"kind": "pay_bank", "amount": 2000})), "board.loop.3.kind"),
        (broken(lambda b: b["loop"].__setitem__(3, {"kind": "move", "steps": 0})), "board.loop.3.steps"),
        (broken(lambda b: b["loop"].__setitem__(3, {"kind": "move", "steps": 16})), "board.loop.3.steps"),
        (broken(lambda b: b["loop"].__setitem__(3, {"kind": "move", "steps": "far"})), "board.loop.3.steps"),
        (broken(lambda b: b["loop"].__setitem__(3, {"kind": "move"})), "board.loop.3.steps"),
        (broken(lambda b: (b["loop"].__setitem__(3, {"kind": "move", "steps": 1}),
                           b["loop"].__setitem__(4, {"kind": "move", "steps": -2}))), "board.loop.3.steps"),
    ],
)
def test_a_bad_board_is_refused_with_the_field_named(board, field):
    with pytest.raises(InvalidOptions) as caught:
        RULESET.new_game(3, {"board": board}, seed=1)
    assert field in caught.value.fields


def test_a_board_that_is_not_an_object_is_refused():
    with pytest.raises(InvalidOptions) as caught:
        RULESET.new_game(3, {"board": [1, 2, 3]}, seed=1)
    assert "board" in caught.value.fields


def test_board_file_round_trips_through_the_parser():
    data = json.loads(DEFAULT_BOARD_PATH.read_text())
    assert Board(data).size == len(data["loop"]) + data["freeway"]["lanes"]
