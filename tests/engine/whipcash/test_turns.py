"""Turn order by the opening roll, one or two dice, doubles, and the turn cap."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalAction
from engine.games.whipcash import RULESET
from tests.engine.whipcash.helpers import TEST_BOARD, ScriptedDice, event_types, new_state, roll, script


def test_turn_order_is_by_highest_roll_and_ties_reroll_among_themselves():
    dice = ScriptedDice([3, 4, 5, 6, 4, 3, 1, 1, 6, 6])  # seats 0..2 roll 7, 11, 7; then 0 and 2 re-roll 2, 12
    state = RULESET.setup(3, RULESET.load_options({"board": TEST_BOARD}), dice)
    assert state.order == [1, 2, 0]
    assert state.current == 1
    assert [(r["round"], r["seat"], sum(r["dice"])) for r in state.opening_rolls] == [
        (1, 0, 7), (1, 1, 11), (1, 2, 7), (2, 0, 2), (2, 2, 12)]
    (told,) = RULESET.setup_events(state)
    assert told.type == "turn_order" and told.visible_to is None
    assert told.data == {"rolls": state.opening_rolls, "order": [1, 2, 0]}
    state.position = [3, 0, 5]
    script(state, 2, 2)
    assert "turn_order" not in event_types(roll(state, 1))


def test_one_die_moves_by_that_die_and_ends_the_turn():
    state = new_state(positions=[0, 14, 15])
    script(state, 3)
    events = roll(state, 1)
    assert [e.data["dice"] for e in events if e.type == "rolled"] == [[3]]
    assert state.position[0] == 3
    assert state.current == 1 and state.turn == 2


def test_two_dice_move_by_their_sum_and_doubles_roll_again_in_the_same_turn():
    state = new_state(positions=[0, 14, 15])
    script(state, 1, 2)
    roll(state, 2)
    assert state.position[0] == 3 and state.current == 1
    state = new_state(positions=[0, 14, 15])
    script(state, 2, 2)
    events = roll(state, 2)
    assert events[0].data["doubles"] is True
    assert state.position[0] == 4 and state.current == 0 and state.turn == 1
    assert RULESET.pending(state)[0].options == [{"type": "roll", "dice": 1}, {"type": "roll", "dice": 2}]
    script(state, 1)
    roll(state, 1)
    assert state.position[0] == 5 and state.current == 1 and state.turn == 2


def test_only_the_active_seat_rolls_and_only_one_or_two_dice():
    state = new_state(positions=[0, 14, 15])
    with pytest.raises(IllegalAction) as caught:
        RULESET.apply(state, 1, {"type": "roll", "dice": 2})
    assert caught.value.reason == "not_your_turn"
    with pytest.raises(IllegalAction) as caught:
        RULESET.apply(state, 0, {"type": "roll", "dice": 3})
    assert caught.value.reason == "invalid_action"


def test_eliminated_seats_are_skipped_in_the_order_of_play():
    state = new_state(positions=[0, 14, 15], cash=[24_000, 24_000, 500])
    state.current = 2
    script(state, 4)  # 15 + 4 wraps to 3: pay Dr. Overbilled $2,000 with $500
    roll(state, 1)
    assert not state.alive[2]
    assert state.current == 0


def test_turn_cap_ends_the_game_and_most_cash_wins_ties_shared():
    state = new_state(options={"turn_cap": 2}, positions=[0, 14, 15])
    script(state, 4, 4)  # seat 0: the bank pays $2,000; seat 1: 14 + 4 wraps to 2, Mr. Chasinbucks pays $4,000
    roll(state, 1)
    events = roll(state, 1)
    assert event_types(events)[-1] == "game_over"
    result = RULESET.result(state)
    assert result.turn_cap_hit and result.reason == "turn_cap"
    assert result.winners == [1]
    assert result.ranking[0] == 1
    assert RULESET.pending(state) == []
    tie = new_state(options={"turn_cap": 1}, positions=[14, 3, 5], cash=[24_000, 24_000, 20_000])
    script(tie, 2)  # 14 + 2 wraps to START, which says nothing
    roll(tie, 1)
    result = RULESET.result(tie)
    assert result.winners == [0, 1] and result.ranking == [0, 1, 2] and result.is_draw
