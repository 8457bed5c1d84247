"""Scenario tests: the end of the game, its tie-breaks, the turn cap, views and the money ledger."""

from __future__ import annotations

import json

import pytest

from engine.core.errors import InvalidOptions
from engine.games.monopoly_cars2 import turn
from engine.games.monopoly_cars2.ruleset import DEFAULT_TURN_CAP
from engine.games.monopoly_cars2.state import CANNOT_PAY_RENT, NOBODY, TURN_CAP
from tests.engine.monopoly_cars2.scenario import RULESET, card, new_state, own, play, top_card


def end(state, reason: str, short_seat: int) -> None:
    turn.end_game(state, reason, short_seat, [])


def test_the_richest_other_player_wins_and_the_short_seat_ranks_last_whatever_its_money():
    state = new_state(players=3)
    for seat, money in enumerate((50, 10, 12)):
        state.seats[seat].money = money
    end(state, CANNOT_PAY_RENT, 0)
    result = RULESET.result(state)
    assert (result.winners, result.ranking, result.scores) == ([2], [2, 1, 0], [50, 10, 12])
    assert result.details == {"properties": [0, 0, 0], "short_seat": 0}
    assert not result.turn_cap_hit


def test_a_money_tie_goes_to_the_most_property_cards():
    state = new_state(players=3)
    for seat, money in enumerate((0, 10, 10)):
        state.seats[seat].money = money
    own(state, 1, "flos-v8-cafe")
    own(state, 2, "big-bentley", "tombers-stall")
    end(state, CANNOT_PAY_RENT, 0)
    result = RULESET.result(state)
    assert (result.winners, result.ranking) == ([2], [2, 1, 0])
    assert result.details["properties"] == [0, 1, 2]


def test_a_tie_in_money_and_property_cards_is_a_shared_win():
    state = new_state(players=4)
    for seat, money in enumerate((9, 10, 10, 0)):
        state.seats[seat].money = money
    own(state, 1, "flos-v8-cafe")
    own(state, 2, "big-bentley")
    end(state, CANNOT_PAY_RENT, 3)
    result = RULESET.result(state)
    assert result.winners == [1, 2] and result.is_draw
    assert result.ranking == [1, 2, 0, 3]


def test_the_turn_cap_ends_the_game_scored_like_a_normal_end_with_everyone_counted():
    state = new_state(spins=[3, 1], options={"turn_cap": 2})
    top_card(state, card("collect"))
    play(state, 0, {"type": "roll"})  # Chance: collect M2 -> 20
    assert RULESET.result(state) is None
    play(state, 1, {"type": "roll"})  # buys Flo's V8 Café -> 17
    result = RULESET.result(state)
    assert state.turn == 2
    assert (result.reason, result.turn_cap_hit, result.winners, result.ranking) == (TURN_CAP, True, [0], [0, 1])
    assert result.details["short_seat"] is None
    assert RULESET.pending(state) == []


def test_the_turn_cap_tie_break_is_the_most_property_cards():
    state = new_state(spins=[1, 6], options={"turn_cap": 2})
    state.seats[0].money = 19  # buys Flo's V8 Café: 18
    play(state, 0, {"type": "roll"})
    play(state, 1, {"type": "roll"})  # just visiting: 18, no property
    result = RULESET.result(state)
    assert [seat.money for seat in state.seats] == [18, 18]
    assert (result.winners, result.ranking, result.details["properties"]) == ([0], [0, 1], [1, 0])


def test_turn_cap_defaults_to_500_and_cannot_be_removed():
    assert RULESET.new_game(2).turn_cap == DEFAULT_TURN_CAP == 500
    with pytest.raises(InvalidOptions):  # some games never end: a game without a cap could go on for ever
        RULESET.new_game(2, {"turn_cap": None})
    assert RULESET.new_game(2, {"turn_cap": 40}).turn_cap == 40


def test_a_race_again_turn_counts_towards_the_cap():
    state = new_state(spins=[2], position=19, options={"turn_cap": 1})
    play(state, 0, {"type": "roll"})
    assert RULESET.result(state).reason == TURN_CAP


def test_the_bank_ledger_keeps_the_money_in_play_constant():
    state = new_state(spins=[4, 1], position=22)
    total = RULESET.money_in_play(state)
    assert total == 36
    play(state, 0, {"type": "roll"})  # GO +2, buys brown -1
    play(state, 1, {"type": "roll"})  # buys Flo's -1
    assert state.bank == -2 + 1 + 1
    assert RULESET.money_in_play(state) == total


def test_views_show_money_owners_and_cards_but_never_the_pile_order_or_rng():
    state = new_state(spins=[3])
    top_card(state, card("move_forward", max_spaces=5))
    play(state, 0, {"type": "roll"})
    view = RULESET.view(state, 1)
    text = json.dumps(view)
    assert "rng" not in view and "pile" not in view and "counter" not in text
    assert view["chance"]["pile_size"] == 16 and view["chance"]["pending_card"] == state.card
    assert view["players"][0]["money"] == 18 and view["owners"][1] is None
    assert view["board"][1]["price"] == 1 and len(view["board"]) == 24
    assert RULESET.view(state, None)["seat"] is None


def test_states_round_trip_through_json():
    state = new_state(spins=[3])
    state.rng = RULESET.new_game(2).rng
    own(state, 1, "big-bentley")
    state.seats[0].jail_cards = [card("get_out_of_jail")]
    again = RULESET.from_dict(json.loads(json.dumps(RULESET.to_dict(state))))
    assert again == state
    assert again.owners[RULESET.tables(again).board.by_id["big-bentley"]] == 1
    assert again.owners[0] == NOBODY
