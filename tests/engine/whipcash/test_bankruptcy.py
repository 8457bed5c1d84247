"""Bankrupting Pros, inheriting their holdings, the chain, the payment order, elimination, the last player."""

from __future__ import annotations

from engine.games.whipcash import RULESET
from tests.engine.whipcash.helpers import (
    CHASINBUCKS,
    DAILY,
    OVERBILLED,
    PIT_CHASINBUCKS,
    event_types,
    new_state,
    pro,
    roll,
    script,
)


def test_a_pro_that_cannot_pay_is_bankrupted_by_the_player_who_inherits_its_spaces_and_pit():
    state = new_state(positions=[0, 14, 15])
    state.cash[pro(state, CHASINBUCKS)] = 3_000
    script(state, 2)  # Mr. Chasinbucks must pay $4,000
    events = roll(state, 1)
    assert "pro_bankrupted" in event_types(events)
    assert state.cash[0] == 27_000 and state.cash[pro(state, CHASINBUCKS)] == 0
    assert not state.alive[pro(state, CHASINBUCKS)]
    assert state.holdings[CHASINBUCKS] == 0 and state.bankrupted_by[pro(state, CHASINBUCKS)] == 0
    assert state.pros_bankrupt() == 1
    view = RULESET.view(state, None)
    assert view["pros"][CHASINBUCKS]["holdings_owner"] == 0 and view["pros"][CHASINBUCKS]["bankrupt"]


def test_the_inheritor_collects_and_pays_as_the_pro_did():
    state = new_state(positions=[13, 1, 15])
    state.alive[pro(state, CHASINBUCKS)] = False
    state.holdings[CHASINBUCKS] = 2
    state.current = 1
    script(state, 1)  # seat 1 to 2, where "Mr. Chasinbucks pays $4,000": seat 2 pays
    roll(state, 1)
    assert state.cash[1] == 28_000 and state.cash[2] == 20_000
    state.current = 0
    script(state, 1)  # seat 0 to 14: pay Mr. Chasinbucks $2,000, now to seat 2
    roll(state, 1)
    assert state.cash[0] == 22_000 and state.cash[2] == 22_000


def test_an_inheritor_landing_on_its_own_space_pays_nobody():
    state = new_state(positions=[13, 3, 5])
    state.alive[pro(state, CHASINBUCKS)] = False
    state.holdings[CHASINBUCKS] = 0
    script(state, 1)
    events = roll(state, 1)
    assert state.cash[0] == 24_000 and "paid" not in event_types(events)


def test_bankrupting_a_player_who_holds_a_pro_passes_the_holdings_on():
    state = new_state(positions=[0, 3, 14], cash=[24_000, 4_000, 24_000])
    state.alive[pro(state, DAILY)] = False
    state.holdings[DAILY] = 1
    state.card = [False] * 3
    script(state, 3)  # one Pro bankrupt: seat 1 owes seat 0 $5,000 and has $4,000
    events = roll(state, 1)
    assert "player_bankrupted" in event_types(events)
    assert not state.alive[1] and state.bankrupted_by[1] == 0
    assert state.holdings[DAILY] == 0 and state.cash[:2] == [28_000, 0]
    assert state.position[1] == -1 and state.eliminated == [1]
    assert state.current == 0, "the Whipca$h still earns the roll again"


def test_a_player_bankrupted_by_a_pro_passes_its_inherited_holdings_to_that_pro():
    state = new_state(positions=[0, 14, 15], cash=[2_000, 24_000, 24_000])
    state.alive[pro(state, CHASINBUCKS)] = False
    state.holdings[CHASINBUCKS] = 0
    script(state, 1)  # pay Mr. Daily $3,000 with $2,000
    roll(state, 1)
    assert state.holdings[CHASINBUCKS] == pro(state, DAILY)
    assert state.cash[pro(state, DAILY)] == 26_000
    state.position[1] = PIT_CHASINBUCKS
    script(state, 1)
    roll(state, 1)  # seat 1 stays in Mr. Chasinbucks' Pit: the fee goes to Mr. Daily now
    assert state.cash[pro(state, DAILY)] == 27_000


def test_payment_order_daily_then_chasinbucks_then_overbilled_when_money_runs_out():
    state = new_state(positions=[0, 14, 15], cash=[2_500, 24_000, 24_000])
    script(state, 5)  # pay each Pro $1,000 with $2,500
    events = roll(state, 1)
    payments = [(e.data["to"], e.data["amount"]) for e in events if e.type == "paid"]
    assert payments == [("daily", 1_000), ("chasinbucks", 1_000), ("overbilled", 500)]
    assert state.bankrupted_by[0] == pro(state, OVERBILLED)
    assert not state.alive[0] and state.current == 1


def test_payment_order_follows_the_pro_a_debt_comes_from_when_a_player_holds_its_spaces():
    # Seat 2 bankrupted Mr. Daily and holds his spaces: its share of "pay each Pro" is still paid first.
    state = new_state(positions=[0, 14, 15], cash=[1_500, 24_000, 24_000])
    state.alive[pro(state, DAILY)] = False
    state.holdings[DAILY] = 2
    script(state, 5)  # pay each Pro $1,000 with $1,500
    events = roll(state, 1)
    payments = [(e.data["to"], e.data["amount"]) for e in events if e.type == "paid"]
    assert payments == [(2, 1_000), ("chasinbucks", 500)]
    assert state.bankrupted_by[0] == pro(state, CHASINBUCKS) and not state.alive[0]
    assert state.cash[2] == 25_000 and state.cash[pro(state, CHASINBUCKS)] == 24_500


def test_a_bankrupt_player_is_out_and_the_turn_passes():
    state = new_state(positions=[0, 14, 15], cash=[1_000, 24_000, 24_000])
    script(state, 3)
    roll(state, 1)
    assert state.eliminated == [0] and state.cash[pro(state, OVERBILLED)] == 25_000
    assert state.current == 1 and RULESET.pending(state)[0].seat == 1
    assert RULESET.result(state) is None


def test_the_last_player_standing_wins():
    state = new_state(players=2, positions=[0, 14], cash=[1_000, 24_000])
    script(state, 3)
    events = roll(state, 1)
    assert event_types(events)[-1] == "game_over"
    result = RULESET.result(state)
    assert result.winners == [1] and result.ranking == [1, 0] and result.reason == "last_player_standing"
    assert not result.turn_cap_hit
    assert RULESET.pending(state) == []


def test_money_is_conserved_through_bankruptcies():
    state = new_state(positions=[0, 14, 15], cash=[2_500, 24_000, 24_000])
    before = RULESET.money_in_play(state)
    script(state, 5)
    roll(state, 1)
    assert RULESET.money_in_play(state) == before
