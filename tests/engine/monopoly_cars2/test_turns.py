"""Scenario tests: moving, properties, GO, Prison, Race Again, Free Parking (scripted spins)."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalAction
from engine.games.monopoly_cars2 import turn
from engine.games.monopoly_cars2.state import JAIL, ROLL
from engine.games.monopoly_cars2.tables import DEFAULT_TABLES
from tests.engine.monopoly_cars2.scenario import (
    BOARD,
    NOBODY,
    RULESET,
    ScriptedSpins,
    first,
    new_state,
    own,
    play,
    space,
    types,
)


def test_starting_money_is_18_for_two_players_and_13_for_three_or_four():
    assert [seat.money for seat in RULESET.new_game(2).seats] == [18, 18]
    assert [seat.money for seat in RULESET.new_game(3).seats] == [13, 13, 13]
    assert [seat.money for seat in RULESET.new_game(4).seats] == [13] * 4
    assert [seat.money for seat in RULESET.new_game(3, {"starting_money": 30}).seats] == [30] * 3


def test_a_turn_starts_with_the_active_seat_rolling_and_moves_by_the_spin():
    state = new_state(spins=[6])
    [decision] = RULESET.pending(state)
    assert (decision.seat, decision.kind, decision.options) == (0, "turn", [{"type": "roll"}])
    events = play(state, 0, {"type": "roll"})
    assert first(events, "spun") == {"seat": 0, "value": 6}
    assert state.seats[0].position == 6  # Prison, just visiting
    assert not state.seats[0].in_jail
    assert state.current == 1 and state.turn == 1


def test_landing_on_an_unowned_property_buys_it():
    state = new_state(spins=[1])
    events = play(state, 0, {"type": "roll"})
    assert state.owners[1] == 0
    assert state.seats[0].money == 17
    assert state.bank == 1
    assert first(events, "bought") == {"seat": 0, "space": 1, "price": 1}


def test_buying_is_compulsory_and_a_seat_that_cannot_afford_it_ends_the_game():
    state = new_state(spins=[6], position=16, money=2)
    events = play(state, 0, {"type": "roll"})
    assert state.seats[0].position == space("professor-z-oil-rig")
    assert "cannot_buy" in types(events)
    assert state.owners[space("professor-z-oil-rig")] == NOBODY
    assert state.seats[0].money == 2  # nothing changes hands for a sale that cannot happen
    result = RULESET.result(state)
    assert result.reason == "cannot_buy"
    assert result.winners == [1] and result.ranking == [1, 0]
    assert RULESET.pending(state) == []
    with pytest.raises(IllegalAction) as caught:
        play(state, 1, {"type": "roll"})
    assert caught.value.reason == "game_over"


def test_landing_on_another_players_property_pays_the_price_as_rent():
    state = new_state(spins=[4])
    own(state, 1, "ramones-house-of-body-art")
    events = play(state, 0, {"type": "roll"})
    assert first(events, "paid_rent") == {"seat": 0, "owner": 1, "space": 4, "amount": 1, "due": 1}
    assert (state.seats[0].money, state.seats[1].money) == (17, 19)


def test_both_properties_of_a_colour_double_the_rent_the_chariot_rent():
    state = new_state(spins=[3], position=19)
    own(state, 1, "professor-z-oil-rig", "world-grand-prix-finish")
    play(state, 0, {"type": "roll"})
    assert (state.seats[0].money, state.seats[1].money) == (8, 28)


def test_one_of_a_pair_charges_the_single_rent_and_own_property_costs_nothing():
    state = new_state(spins=[3, 1, 2], position=19)
    own(state, 1, "professor-z-oil-rig")
    own(state, 0, "world-grand-prix-finish")
    play(state, 0, {"type": "roll"})
    assert state.seats[0].money == 13
    play(state, 1, {"type": "roll"})  # seat 1 from GO to Flo's: buys
    events = play(state, 0, {"type": "roll"})  # 22 -> 0: GO
    assert state.seats[0].money == 15 and "paid_rent" not in types(events)


def test_buying_the_second_of_a_colour_places_the_chariot():
    state = new_state(spins=[1])
    own(state, 0, "luigis-casa-della-tires")
    events = play(state, 0, {"type": "roll"})
    assert first(events, "chariot") == {"seat": 0, "colour": "brown"}
    assert turn.rent(state, DEFAULT_TABLES, 1) == 2


def test_a_seat_short_of_the_rent_pays_what_it_has_and_the_game_ends():
    state = new_state(spins=[4], position=18, money=3)
    own(state, 1, "professor-z-oil-rig")
    state.seats[1].money = 5
    events = play(state, 0, {"type": "roll"})
    assert first(events, "paid_rent") == {"seat": 0, "owner": 1, "space": 22, "amount": 3, "due": 5}
    assert (state.seats[0].money, state.seats[1].money) == (0, 8)
    result = RULESET.result(state)
    assert (result.reason, result.winners, result.ranking, result.scores) == ("cannot_pay_rent", [1], [1, 0], [0, 8])
    assert state.turn == 1


def test_passing_go_pays_two():
    state = new_state(spins=[4], position=22)
    events = play(state, 0, {"type": "roll"})
    assert state.seats[0].position == 2
    assert first(events, "collected") == {"seat": 0, "amount": 2, "for": "go"}
    assert state.seats[0].money == 18 + 2 - 1  # salary, then the brown property
    assert state.bank == -2 + 1


def test_landing_on_go_pays_two_once():
    state = new_state(spins=[4], position=20)
    events = play(state, 0, {"type": "roll"})
    assert state.seats[0].position == 0
    assert types(events).count("collected") == 1
    assert state.seats[0].money == 20


def test_go_to_prison_sends_the_token_to_prison_without_passing_go():
    state = new_state(spins=[3], position=15)
    events = play(state, 0, {"type": "roll"})
    assert "sent_to_prison" in types(events)
    assert state.seats[0].position == BOARD.jail and state.seats[0].in_jail
    assert state.seats[0].money == 18 and "collected" not in types(events)
    assert state.current == 1


def test_next_turn_in_prison_without_a_card_the_roll_pays_the_fine_then_moves():
    state = new_state(spins=[6, 1], position=BOARD.jail, in_jail=True)
    state.current = 1
    play(state, 1, {"type": "roll"})  # seat 1 to Prison, just visiting
    [decision] = RULESET.pending(state)
    assert (decision.seat, decision.kind, decision.options) == (0, "jail", [{"type": "roll"}])
    events = play(state, 0, {"type": "roll"})
    assert types(events)[:4] == ["paid_bank", "left_prison", "spun", "moved"]
    assert first(events, "paid_bank") == {"seat": 0, "amount": 1, "due": 1, "for": "jail_fine"}
    assert not state.seats[0].in_jail
    assert state.seats[0].position == 7 and state.owners[7] == 0
    assert state.seats[0].money == 18 - 1 - 2


def test_in_prison_with_no_money_for_the_fine_the_game_ends():
    state = new_state(spins=[], position=BOARD.jail, in_jail=True, money=0)
    events = play(state, 0, {"type": "roll"})
    assert "spun" not in types(events)
    assert RULESET.result(state).reason == "cannot_pay_bank"
    assert RULESET.result(state).winners == [1]


def test_in_prison_with_a_card_the_card_is_used_and_the_fine_is_never_offered():
    # "If you have a 'Get Out of Jail Free' card, you simply race Flash McQueen and pay nothing!"
    state = new_state(spins=[2], position=BOARD.jail, in_jail=True, jail_cards=[13])
    state.pile.remove(13)
    turn.start_turn(state, [])
    assert state.phase == JAIL
    [decision] = RULESET.pending(state)
    assert decision.kind == "jail"
    assert decision.options == [{"type": "use_jail_card"}] and decision.default_action() == {"type": "use_jail_card"}
    with pytest.raises(IllegalAction) as caught:
        play(state, 0, {"type": "pay_fine"})
    assert caught.value.reason == "invalid_action"
    events = play(state, 0, {"type": "use_jail_card"})
    assert first(events, "left_prison") == {"seat": 0, "how": "used_card"}
    assert "paid" not in types(events)
    assert state.seats[0].jail_cards == [] and state.pile[-1] == 13  # used: to the bottom
    assert state.seats[0].money == 18 - 2 and state.seats[0].position == 8


def test_race_again_gives_the_same_seat_another_turn():
    state = new_state(spins=[2, 2], position=19)
    events = play(state, 0, {"type": "roll"})
    assert "race_again" in types(events)
    assert state.current == 0 and state.phase == ROLL and state.turn == 1
    play(state, 0, {"type": "roll"})
    assert state.seats[0].position == 23 and state.owners[23] == 0
    assert state.current == 1


def test_free_parking_does_nothing():
    state = new_state(spins=[2], position=10)
    events = play(state, 0, {"type": "roll"})
    assert state.seats[0].position == 12
    assert types(events) == ["spun", "moved", "turn"]
    assert state.seats[0].money == 18 and state.current == 1


def test_play_goes_round_the_table_from_the_first_seat():
    state = new_state(players=3, spins=[6, 6, 6])
    state.current = state.first_seat = 2
    order = []
    for _ in range(3):
        order.append(state.current)
        play(state, state.current, {"type": "roll"})
    assert order == [2, 0, 1]


def test_spin_off_highest_goes_first_and_tied_highest_spin_again():
    state = new_state(players=4)
    state.rng = ScriptedSpins([5, 2, 5, 1, 3, 4])
    events = []
    assert turn.spin_off(state, events) == 2
    assert [(e.data["round"], e.data["seat"], e.data["value"]) for e in events] == [
        (1, 0, 5), (1, 1, 2), (1, 2, 5), (1, 3, 1), (2, 0, 3), (2, 2, 4)]


def test_setup_records_the_opening_spins_and_tells_them_as_events():
    for seed in range(20):
        state = RULESET.new_game(4, None, seed)
        events = [e.to_dict() for e in RULESET.setup_events(state)]
        assert events[-1] == {"type": "first_player", "seat": state.first_seat}
        spins = [e for e in events if e["type"] == "opening_spin"]
        last_round = [e for e in spins if e["round"] == spins[-1]["round"]]
        assert max(last_round, key=lambda e: e["value"])["seat"] == state.current == state.first_seat
        assert sorted(e["value"] for e in last_round).count(max(e["value"] for e in last_round)) == 1
        assert len([e for e in spins if e["round"] == 1]) == 4


def test_a_custom_spinner_sets_the_moves():
    state = RULESET.new_game(2, {"spinner_faces": [2]}, seed=3)
    seat = state.current
    play(state, seat, {"type": "roll"})
    assert state.seats[seat].position == 2 and state.last_spin == 2
