"""Death and reincarnation, going broke, the Black Market."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalAction
from engine.games.hitchiker.state import NOBODY, owner_of
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


def shark_death_game():
    state = game(homes=["Kebec City", "Sasquatoon", "Torontoe", "Montreel"])
    place(state, 0, "Charlesfun")
    script(state, 1, 1, 3, 4)  # lands on Corpus Risky, the shark roll is 7
    return state


def test_death_without_a_responsible_player_goes_to_the_poorest_and_reincarnates():
    state = shark_death_game()
    state.seats[0].hometowns.append(city("Regina Rock"))
    give(state, 0, cash=30_000, savings=120_000, units=6)
    give(state, 1, cash=2_000)
    give(state, 2, cash=1_000)
    events = act(state, 0, "roll")
    died = first(events, "died").data
    assert died["heir"] == 2 and died["responsible"] == NOBODY and died["cause"] == "shark_attack"
    # Money enters a Bank Pouch only by a deposit: the inherited savings arrive as travelling cash.
    assert died["savings_to"] == "cash"
    assert state.seats[2].cash == 1_000 + 30_000 + 120_000 and state.seats[2].savings == 0
    assert state.seats[2].units == 6
    assert owner_of(state, city("Kebec City")) == NOBODY and owner_of(state, city("Regina Rock")) == NOBODY
    assert state.seats[0].hometowns == [] and state.seats[0].savings == 0 and state.seats[0].units == 0
    assert state.seats[0].cash == 25_000  # reincarnated with $25,000 from the bank
    decision = RULES.pending(state)[0]
    assert decision.seat == 0 and decision.kind == "pick_hometown"
    offered = {o["city"] for o in decision.options}
    assert "Kebec City" in offered and "Sasquatoon" not in offered
    act(state, 0, "pick_hometown", city="Regina Rock")
    assert state.seats[0].position == city("Regina Rock") and owner_of(state, city("Regina Rock")) == 0
    assert pending_kind(state) == (1, "roll")
    assert money(state) == 0


def test_with_the_savings_to_pouch_house_rule_the_heir_banks_the_inherited_savings():
    state = shark_death_game()
    state.savings_to_pouch = True
    give(state, 0, cash=30_000, savings=120_000)
    give(state, 1, cash=2_000)
    give(state, 2, cash=1_000, savings=5_000)
    died = first(act(state, 0, "roll"), "died").data
    assert died["heir"] == 2 and died["savings_to"] == "savings"
    assert state.seats[2].cash == 31_000 and state.seats[2].savings == 125_000
    assert money(state) == 0


def test_the_house_rule_is_an_option_off_by_default():
    assert RULES.new_game(2, None, 1).savings_to_pouch is False
    assert RULES.new_game(2, {"savings_to_pouch": True}, 1).savings_to_pouch is True


def test_reincarnation_without_a_free_hometown_starts_homeless_where_you_died():
    state = shark_death_game()
    state.seats[0].hometowns = []
    for index in RULES.tables(state).hometowns:
        if owner_of(state, index) == NOBODY:
            state.seats[1].hometowns.append(index)
    events = act(state, 0, "roll")
    assert "reincarnated_homeless" in types(events)
    assert state.seats[0].position == city("Corpus Risky") and state.seats[0].cash == 25_000
    assert pending_kind(state) == (1, "roll")


def test_going_broke_pays_what_you_have_then_the_bus_takes_you_home_for_10000_without_a_deposit():
    state = game(homes=["Kebec City", "Sasquatoon", "Torontoe", "Montreel"], dice=[1, 1])
    place(state, 0, "Party Gras")  # + 2 lands on Bagstuff: $25,000 to seat 3
    give(state, 0, cash=7_000)
    events = act(state, 0, "roll")
    assert first(events, "paid").data["amount"] == 7_000
    assert state.seats[3].cash == 32_000
    assert "went_broke" in types(events)
    assert state.seats[0].position == city("Kebec City") and state.seats[0].cash == 10_000
    assert state.seats[0].savings == 0 and pending_kind(state) == (1, "roll")
    assert money(state) == 0


def test_going_broke_with_several_hometowns_lets_you_choose_where_the_bus_goes():
    state = game(homes=["Kebec City", "Sasquatoon", "Torontoe", "Montreel"], dice=[1, 1])
    state.seats[0].hometowns.append(city("Halifacts"))
    place(state, 0, "Party Gras")
    give(state, 0, cash=0)
    act(state, 0, "roll")
    decision = RULES.pending(state)[0]
    assert decision.kind == "go_home" and {o["city"] for o in decision.options} == {"Kebec City", "Halifacts"}
    with pytest.raises(IllegalAction):
        act(state, 0, "go_home", city="Sasquatoon")
    act(state, 0, "go_home", city="Halifacts")
    assert state.seats[0].position == city("Halifacts") and state.seats[0].cash == 10_000


def test_going_broke_without_a_hometown_leaves_you_where_you_are():
    state = game(homes=["Kebec City", "Sasquatoon", "Torontoe", "Montreel"], dice=[1, 1])
    state.seats[0].hometowns = []
    place(state, 0, "Party Gras")
    give(state, 0, cash=0)
    act(state, 0, "roll")
    assert state.seats[0].position == city("Bagstuff") and state.seats[0].cash == 0


def black_market_game(*rolls):
    """Seat 0 lands on Bogotcha (from Vancougar, a 2) with $25,000; then the deal rolls."""
    state = game(homes=["Vancougar", "Sasquatoon", "Torontoe", "Montreel"])
    script(state, 1, 1, *rolls)
    act(state, 0, "roll")
    assert pending_kind(state) == (0, "black_market")
    return state


def test_black_market_rolls_come_from_the_players_to_the_left_and_the_third_is_forced():
    state = black_market_game(2, 2, 2, 5, 3, 4)  # 4 ripped off, 7 shootout, then 7 again
    act(state, 0, "risk", amount=10_000)
    assert state.seats[0].cash == 15_000 and money(state) == 0
    assert pending_kind(state) == (1, "deal_roll")
    act(state, 1, "roll")
    assert pending_kind(state) == (0, "deal_choice")
    act(state, 0, "decline_deal")
    assert pending_kind(state) == (2, "deal_roll")
    act(state, 2, "roll")
    act(state, 0, "decline_deal")
    assert pending_kind(state) == (3, "deal_roll")
    events = act(state, 3, "roll")  # a forced 7: killed in a police shootout, the roller inherits
    died = first(events, "died").data
    assert died["heir"] == 3 and died["responsible"] == 3 and died["cause"] == "police_shootout"
    assert died["cash"] == 25_000  # the $10,000 on the board is part of the estate
    assert state.seats[3].cash == 50_000 and state.deal is None
    assert pending_kind(state) == (0, "pick_hometown")
    assert money(state) == 0


@pytest.mark.parametrize(("first_roll", "default"), [
    ((3, 4), "decline_deal"),  # 7: killed in a police shootout
    ((2, 2), "decline_deal"),  # 4: ripped off
    ((1, 2), "accept_deal"),  # 3: $1,000 a unit
    ((1, 1), "accept_deal"),  # 2: free units
])
def test_a_buyer_too_slow_to_choose_declines_death_and_a_rip_off(first_roll, default):
    state = black_market_game(*first_roll)
    act(state, 0, "risk", amount=10_000)
    act(state, 1, "roll")
    [decision] = RULES.pending(state)
    assert decision.kind == "deal_choice" and decision.default_action() == {"type": default}


def test_with_two_players_the_other_player_makes_every_black_market_roll():
    state = game(players=2, homes=["Vancougar", "Sasquatoon"])
    script(state, 1, 1, 2, 2, 4, 5)
    act(state, 0, "roll")
    act(state, 0, "risk", amount=1_000)
    act(state, 1, "roll")
    act(state, 0, "decline_deal")
    assert pending_kind(state) == (1, "deal_roll")


def test_ripped_off_gives_the_stake_to_the_player_who_rolled_it():
    state = black_market_game(1, 3)
    act(state, 0, "risk", amount=12_000)
    act(state, 1, "roll")
    act(state, 0, "accept_deal")
    assert state.seats[0].cash == 13_000 and state.seats[1].cash == 37_000 and state.seats[0].units == 0
    assert money(state) == 0


def test_free_units_keep_the_money_and_collect_the_contraband():
    state = black_market_game(1, 1)
    act(state, 0, "risk", amount=12_000)
    act(state, 1, "roll")
    act(state, 0, "accept_deal")
    assert state.seats[0].cash == 25_000 and state.seats[0].units == 10


def test_a_price_buys_as_many_units_as_the_stake_allows_and_the_change_comes_back():
    state = black_market_game(1, 2, 2, 3)  # a 3 at $1,000 declined, then a 5 at $4,000
    act(state, 0, "risk", amount=25_000)
    act(state, 1, "roll")
    act(state, 0, "decline_deal")
    act(state, 2, "roll")
    events = act(state, 0, "accept_deal")
    assert first(events, "contraband_bought").data == {"seat": 0, "units": 6, "cost": 24_000, "change": 1_000}
    assert state.seats[0].units == 6 and state.seats[0].cash == 1_000
    assert money(state) == 0


def test_passing_the_black_market_costs_nothing():
    state = black_market_game()
    act(state, 0, "pass")
    assert pending_kind(state) == (1, "roll") and state.seats[0].cash == 25_000
