"""Miscellaneous cities, Sell cities and Customs."""

from __future__ import annotations

from tests.engine.hitchiker.helpers import (
    RULES,
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


def land_on(name: str, *dice, before: int = 3, players: int = 4):
    """A game where seat 0 rolls ``before`` steps onto ``name``; ``dice`` follow the move roll."""
    state = game(players=players, homes=["Kebec City", "Sasquatoon", "Torontoe", "Montreel"])
    target = city(name)
    place(state, 0, RULES.tables(state).cities[(target - before) % 42].name)
    script(state, 1, before - 1, *dice)
    return state


def test_smash_ville_pays_50000():
    state = land_on("Smash Ville")
    act(state, 0, "roll")
    assert state.seats[0].cash == 75_000 and money(state) == 0


def test_smell_gaso_and_saysno_pay_5000_times_both_dice():
    for name in ("Smell Gaso", "Saysno"):
        state = land_on(name, 6, 5)
        act(state, 0, "roll")
        assert state.seats[0].cash == 25_000 + 55_000, name


def test_corpus_risky_kills_on_7_or_11_and_spares_other_rolls():
    for dice, dies in (((3, 4), True), ((5, 6), True), ((6, 6), False), ((2, 3), False)):
        state = land_on("Corpus Risky", *dice)
        events = act(state, 0, "roll")
        assert ("died" in types(events)) is dies, dice
        if dies:
            assert first(events, "died").data["cause"] == "shark_attack"


def test_bagstuff_pays_25000_to_the_player_on_your_right():
    state = land_on("Bagstuff")
    act(state, 0, "roll")
    assert state.seats[0].cash == 0 and state.seats[3].cash == 50_000 and state.seats[1].cash == 25_000


def test_remindya_holds_you_until_an_odd_roll_which_you_then_move():
    state = land_on("Remindya")
    act(state, 0, "roll")
    assert state.seats[0].in_pot_hole
    state.active = state.decider = 0  # seat 0's next turn
    script(state, 2, 4)
    events = act(state, 0, "roll")
    assert "still_in_pot_hole" in types(events) and state.seats[0].position == city("Remindya")
    assert pending_kind(state) == (1, "roll")
    state.active = state.decider = 0
    script(state, 2, 3)
    events = act(state, 0, "roll")
    assert "escaped_pot_hole" in types(events)
    assert state.seats[0].position == city("Port Hueyron") and not state.seats[0].in_pot_hole


def test_stock_wood_finds_one_unit_per_pip_of_both_dice():
    state = land_on("Stock Wood", 4, 5)
    act(state, 0, "roll")
    assert state.seats[0].units == 9


def test_selling_all_units_at_the_city_price_is_optional():
    state = land_on("Lost Bananas")
    give(state, 0, units=20)
    act(state, 0, "roll")
    assert pending_kind(state) == (0, "sell")
    act(state, 0, "sell")
    assert state.seats[0].units == 0 and state.seats[0].cash == 25_000 + 20 * 50_000
    assert money(state) == 0
    state = land_on("Lost Bananas")
    give(state, 0, units=20)
    act(state, 0, "roll")
    act(state, 0, "pass")
    assert state.seats[0].units == 20 and state.seats[0].cash == 25_000


def test_a_sell_city_offers_nothing_without_contraband():
    state = land_on("Dallass")
    act(state, 0, "roll")
    assert pending_kind(state) == (1, "roll")


def test_customs_takes_contraband_cash_and_half_the_savings_to_the_poorest_other_player():
    state = land_on("Niagara Fails")
    give(state, 0, cash=40_000, savings=101_001, units=7)
    give(state, 1, cash=9_000)
    give(state, 2, cash=3_000)
    give(state, 3, cash=3_000)  # a tie with seat 2: seat 2 is first to the busted player's left
    events = act(state, 0, "roll")
    busted = first(events, "busted").data
    assert busted == {"seat": 0, "units_lost": 7, "cash": 40_000, "savings": 50_500, "to": 2, "savings_to": "cash"}
    assert state.seats[0].cash == 0 and state.seats[0].units == 0 and state.seats[0].savings == 50_501
    # Money enters a Bank Pouch only by a deposit: the confiscated savings arrive as travelling cash.
    assert state.seats[2].cash == 3_000 + 40_000 + 50_500 and state.seats[2].savings == 0
    assert money(state) == 0


def test_with_the_savings_to_pouch_house_rule_customs_puts_the_half_savings_in_the_receivers_pouch():
    state = land_on("Niagara Fails")
    state.savings_to_pouch = True
    give(state, 0, cash=40_000, savings=101_001, units=7)
    give(state, 1, cash=9_000)
    give(state, 2, cash=3_000)
    give(state, 3, cash=5_000)
    assert first(act(state, 0, "roll"), "busted").data["savings_to"] == "savings"
    assert state.seats[2].cash == 3_000 + 40_000 and state.seats[2].savings == 50_500
    assert money(state) == 0


def test_customs_without_contraband_is_harmless():
    state = land_on("Detroitsy")
    give(state, 0, savings=10_000)
    events = act(state, 0, "roll")
    assert "customs_cleared" in types(events) and state.seats[0].cash == 25_000 and state.seats[0].savings == 10_000
