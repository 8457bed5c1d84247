"""Setup, turn order, Hometown picks, movement, welfare, deposits, rent and buying Hometowns."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalAction
from engine.games.hitchiker.state import NOBODY, owner_of
from tests.engine.hitchiker.helpers import (
    RULES,
    ScriptedRng,
    act,
    city,
    first,
    game,
    give,
    money,
    pending_kind,
    place,
    script,
    types,
)


def test_turn_order_rolls_both_dice_and_rerolls_a_tie_for_highest():
    # Round 1: seats roll 7, 11, 11 -> seats 1 and 2 tie; round 2: 5 vs 9 -> seat 2 first.
    rng = ScriptedRng([3, 4, 5, 6, 6, 5, 2, 3, 4, 5], then_random=True)
    state = RULES.setup(3, RULES.load_options({}), rng)
    assert state.first == 2
    assert [(r["round"], r["seat"], r["roll"]) for r in state.opening_rolls] == [
        (1, 0, 7), (1, 1, 11), (1, 2, 11), (2, 1, 5), (2, 2, 9)]
    assert RULES.view(state, None)["opening_rolls"] == state.opening_rolls
    assert all(h.cash == 25_000 for h in state.seats) and money(state) == 0


def test_hometowns_are_picked_in_turn_order_from_the_first_player_to_the_left():
    state = RULES.setup(3, RULES.load_options({}), ScriptedRng([1, 1, 6, 6, 2, 2], then_random=True))
    assert state.first == 1
    assert pending_kind(state) == (1, "pick_hometown")
    (told,) = RULES.setup_events(state)
    assert told.type == "turn_order_rolled" and told.visible_to is None
    assert told.data == {"rolls": state.opening_rolls, "first": 1}
    events = act(state, 1, "pick_hometown", city="Montreel")
    assert "turn_order_rolled" not in types(events)
    assert pending_kind(state) == (2, "pick_hometown")
    with pytest.raises(IllegalAction) as taken:
        act(state, 2, "pick_hometown", city="Montreel")
    assert taken.value.reason == "option_not_allowed"
    with pytest.raises(IllegalAction) as not_home:
        act(state, 2, "pick_hometown", city="Smash Ville")
    assert not_home.value.reason == "option_not_allowed"
    act(state, 2, "pick_hometown", city="Halifacts")
    events = act(state, 0, "pick_hometown", city="Vancougar")
    assert "game_started" in types(events)
    assert pending_kind(state) == (1, "roll")
    assert state.seats[1].position == city("Montreel") and owner_of(state, city("Montreel")) == 1
    assert state.turn == 0


def test_passing_two_owned_hometowns_collects_and_deposits_each_in_order_then_lands():
    state = game()
    for extra in ("Calgaree", "Edmonteon"):
        state.seats[0].hometowns.append(city(extra))
    place(state, 0, "Smash Ville")
    script(state, 3, 4)  # Smash Ville + 7: passes Calgaree and Edmonteon, lands on Niagara Fails
    events = act(state, 0, "roll")
    assert first(events, "passed_hometown").data["city"] == city("Calgaree")
    assert state.seats[0].cash == 35_000
    assert RULES.pending(state)[0].ranges == {"deposit": {"amount": [0, 20_000]}}
    with pytest.raises(IllegalAction) as too_much:
        act(state, 0, "deposit", amount=20_001)
    assert too_much.value.reason == "option_not_allowed"
    events = act(state, 0, "deposit", amount=20_000)
    assert state.seats[0].savings == 20_000
    assert first(events, "passed_hometown").data["city"] == city("Edmonteon")
    assert state.seats[0].cash == 25_000
    events = act(state, 0, "deposit", amount=5_000)
    assert state.seats[0].savings == 25_000
    assert first(events, "landed").data["name"] == "Niagara Fails"
    assert pending_kind(state) == (1, "roll") and state.turn == 1
    assert money(state) == 0


def test_pass_deposit_is_bounded_by_travelling_cash():
    state = game(dice=[1, 2])
    give(state, 0, cash=5_000)
    place(state, 0, "Miami Vice-ville")  # + 3 passes Vancougar (welfare $10,000), lands on Bogotcha
    act(state, 0, "roll")
    decision = RULES.pending(state)[0]
    assert decision.kind == "deposit" and decision.ranges["deposit"]["amount"] == [0, 15_000]


def test_landing_on_your_own_hometown_collects_welfare_and_deposits_up_to_50000():
    state = game(dice=[3, 4])
    give(state, 0, cash=100_000)
    state.seats[0].hometowns.append(city("Kebec City"))
    place(state, 0, "Ottawhat")  # + 7 lands on Kebec City
    events = act(state, 0, "roll")
    assert first(events, "collected").data == {"seat": 0, "amount": 10_000, "why": "welfare"}
    assert RULES.pending(state)[0].ranges == {"deposit": {"amount": [0, 50_000]}}
    act(state, 0, "deposit", amount=50_000)
    assert state.seats[0].savings == 50_000 and state.seats[0].cash == 60_000
    assert money(state) == 0


def test_rent_on_another_players_hometown_is_1000_times_a_roll_of_both_dice():
    state = game(dice=[2, 2, 5, 4])
    place(state, 0, "Great White North Casino")  # + 4 lands on Sasquatoon, seat 1's; the rent roll is 9
    events = act(state, 0, "roll")
    assert first(events, "rent_roll").data["roll"] == 9
    assert state.seats[0].cash == 16_000 and state.seats[1].cash == 34_000
    assert money(state) == 0


def test_buying_an_unowned_hometown_rolls_one_die_for_the_price_then_allows_an_immediate_deposit():
    state = game(dice=[1, 2, 4])  # Vancougar + 3 = Calgaree (unowned); die 4 -> $20,000
    give(state, 0, cash=80_000)
    events = act(state, 0, "roll")
    assert first(events, "hometown_priced").data["price"] == 20_000
    assert pending_kind(state) == (0, "buy_hometown")
    events = act(state, 0, "buy_hometown")
    assert owner_of(state, city("Calgaree")) == 0 and city("Calgaree") in state.seats[0].hometowns
    assert "collected" not in types(events)  # no welfare when buying
    assert state.seats[0].cash == 60_000
    assert RULES.pending(state)[0].ranges == {"deposit": {"amount": [0, 50_000]}}
    act(state, 0, "deposit", amount=50_000)
    assert state.seats[0].savings == 50_000 and state.seats[0].cash == 10_000
    assert money(state) == 0


def test_declining_or_not_affording_a_hometown_leaves_it_with_the_bank():
    state = game(dice=[1, 2, 6])
    give(state, 0, cash=29_999)
    events = act(state, 0, "roll")
    assert first(events, "hometown_priced").data["price"] == 30_000
    assert pending_kind(state) == (1, "roll") and owner_of(state, city("Calgaree")) == NOBODY
    state = game(dice=[1, 2, 1])
    act(state, 0, "roll")
    act(state, 0, "pass")
    assert owner_of(state, city("Calgaree")) == NOBODY and state.seats[0].cash == 25_000
