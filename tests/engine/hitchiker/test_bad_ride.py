"""Bad Ride cards: the draw is scripted by choosing the card's index in the draw pile."""

from __future__ import annotations

import pytest

from tests.engine.hitchiker.helpers import (
    RULES,
    TABLES,
    ScriptedRng,
    act,
    city,
    first,
    game,
    give,
    money,
    pending_kind,
    script,
    types,
)


def card(effect: str, param=None) -> int:
    return next(i for i, c in enumerate(TABLES.deck) if c.effect == effect and param in (None, c.param))


def ride(effect: str, param=None, *dice, cash: int = 25_000, savings: int = 0):
    """Seat 0 rolls 1 + 3 from Vancougar onto Truckstop and draws the chosen card."""
    state = game(homes=["Vancougar", "Sasquatoon", "Torontoe", "Montreel"])
    give(state, 0, cash=cash, savings=savings)
    script(state, 1, 3, card(effect, param), *dice)
    events = act(state, 0, "roll")
    assert first(events, "bad_ride").data["card"] == card(effect, param)
    return state, events


def test_the_default_deck_has_at_least_16_cards():
    assert len(TABLES.deck) >= 16


def test_a_fine_is_an_obligation():
    state, _ = ride("pay_bank", 25_000)
    assert state.seats[0].cash == 0 and pending_kind(state) == (1, "roll")
    state, events = ride("pay_bank", 10_000, cash=4_000)
    assert "went_broke" in types(events)
    assert state.seats[0].position == city("Vancougar") and state.seats[0].cash == 10_000
    assert money(state) == 0


def test_tow_truck_bill_is_a_roll_of_both_dice():
    state, _ = ride("pay_dice", None, 6, 4)
    assert state.seats[0].cash == 25_000 - 20_000


def test_gas_money_to_each_other_player():
    state, _ = ride("pay_each", None)
    assert [h.cash for h in state.seats] == [10_000, 30_000, 30_000, 30_000]


def test_savings_withdrawals_as_directed():
    state, _ = ride("lose_savings", None, savings=50_000)
    assert state.seats[0].savings == 30_000
    state, _ = ride("lose_savings", None, savings=5_000)
    assert state.seats[0].savings == 0
    state, _ = ride("lose_savings_percent", None, savings=40_000)
    assert state.seats[0].savings == 30_000
    state, _ = ride("savings_to_cash", None, savings=40_000)
    assert state.seats[0].savings == 25_000 and state.seats[0].cash == 40_000
    assert money(state) == 0


def test_losing_half_the_travelling_cash_and_contraband_cards():
    state, _ = ride("lose_cash_percent", None, cash=30_001)
    assert state.seats[0].cash == 15_001
    state = game()
    give(state, 0, units=9)
    script(state, 1, 3, card("lose_contraband"))
    act(state, 0, "roll")
    assert state.seats[0].units == 0
    state, _ = ride("gain_units", None)
    assert state.seats[0].units == 4


def test_the_killer_ride_is_a_death_with_nobody_responsible():
    state, events = ride("death", None)
    died = first(events, "died").data
    assert died["responsible"] == -1 and died["cause"] == "bad_ride"
    assert pending_kind(state) == (0, "pick_hometown")


def test_moving_back_passes_nothing_and_the_new_city_counts():
    state, _ = ride("move", -3)
    assert state.seats[0].position == city("Smash Ville") and state.seats[0].cash == 75_000


def test_moving_ahead_passes_owned_hometowns_and_the_new_city_counts():
    state = game(homes=["Vancougar", "Sasquatoon", "Torontoe", "Montreel"])
    state.seats[0].hometowns.append(city("Edmonteon"))
    script(state, 1, 3, card("move", 5), 2, 2)  # + 5 passes Edmonteon, lands on seat 1's Sasquatoon
    events = act(state, 0, "roll")
    assert first(events, "passed_hometown").data["city"] == city("Edmonteon")
    assert pending_kind(state) == (0, "deposit")
    events = act(state, 0, "deposit", amount=0)
    assert first(events, "rent_roll").data["roll"] == 4 and state.seats[1].cash == 29_000


@pytest.mark.parametrize(("kind", "name"), [("customs", "Niagara Fails"), ("casino", "Great White North Casino"),
                                            ("pot_hole", "Remindya")])
def test_advance_to_the_next_city_of_a_kind(kind, name):
    state = game(homes=["Vancougar", "Sasquatoon", "Torontoe", "Montreel"])
    state.rng = ScriptedRng([1, 3, card("advance_to_kind", kind)], then_random=True)
    act(state, 0, "roll")
    assert state.seats[0].position == city(name)


def test_homesick_ride_lands_on_your_nearest_hometown_with_welfare_and_a_deposit():
    state, _ = ride("advance_home", None)
    assert state.seats[0].position == city("Vancougar") and state.seats[0].cash == 35_000
    assert RULES.pending(state)[0].ranges == {"deposit": {"amount": [0, 35_000]}}


def test_the_discards_are_shuffled_back_when_every_card_has_been_drawn():
    state = game()
    state.bad_ride_discards = list(range(len(TABLES.deck)))
    script(state, 1, 3, card("gain_units"))
    events = act(state, 0, "roll")
    assert "bad_ride_reshuffled" in types(events) and len(state.bad_ride_discards) == 1
