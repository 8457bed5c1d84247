"""The Pits (escape on an even roll, else pay the owner) and the Blind Justice Freeway."""

from __future__ import annotations

import pytest

from engine.games.whipcash import RULESET
from tests.engine.whipcash.helpers import (
    DAILY,
    LANE_0,
    LANE_1,
    LANE_2,
    PIT_CHASINBUCKS,
    PIT_DAILY,
    PIT_OVERBILLED,
    event_types,
    new_state,
    pro,
    roll,
    script,
)


def test_a_car_in_a_pit_escapes_on_an_even_roll_and_moves_by_it():
    state = new_state(positions=[PIT_DAILY, 14, 15])
    assert RULESET.pending(state)[0].kind == "escape_pit"
    script(state, 1, 5)  # even: out of the Pit and on to 13, where Mr. Daily pays $6,000
    events = roll(state, 2)
    assert "escaped_pit" in event_types(events)
    assert state.position[0] == 13 and state.cash[0] == 30_000 and state.current == 1


def test_an_odd_roll_stays_in_the_pit_and_pays_its_owner_1000():
    state = new_state(positions=[PIT_DAILY, 14, 15])
    script(state, 3)
    events = roll(state, 1)
    assert "stayed_in_pit" in event_types(events)
    assert state.position[0] == PIT_DAILY
    assert state.cash[0] == 23_000 and state.cash[pro(state, DAILY)] == 25_000
    assert state.current == 1


def test_the_pit_fee_goes_to_the_player_who_inherited_the_pit():
    state = new_state(positions=[PIT_DAILY, 14, 15])
    state.alive[pro(state, DAILY)] = False
    state.holdings[DAILY] = 2
    script(state, 5)
    roll(state, 1)
    assert state.cash[0] == 23_000 and state.cash[2] == 25_000


def test_doubles_out_of_a_pit_escape_and_roll_again():
    state = new_state(positions=[PIT_DAILY, 14, 15])
    script(state, 3, 3)
    roll(state, 2)
    assert state.position[0] == 13 and state.current == 0


def test_landing_on_the_onramp_diverts_the_car_onto_the_freeway():
    state = new_state(positions=[5, 14, 15])
    script(state, 3)
    events = roll(state, 1)
    assert "entered_freeway" in event_types(events)
    assert state.position[0] == LANE_0


def test_passing_the_onramp_keeps_the_car_on_the_loop():
    state = new_state(positions=[5, 14, 15])
    script(state, 5)
    roll(state, 1)
    assert state.position[0] == 10


def test_the_freeway_rejoins_the_loop_after_its_last_lane():
    state = new_state(positions=[LANE_0, 14, 15])
    script(state, 3)  # lanes 1, 2, then the rejoin space 13: Mr. Daily pays $6,000
    roll(state, 1)
    assert state.position[0] == 13 and state.cash[0] == 30_000


def test_passing_cars_on_the_freeway_collects_5000_from_each():
    state = new_state(positions=[LANE_0, LANE_1, LANE_2])
    script(state, 4)  # passes both, rejoins at 13 and then 14: pay Mr. Chasinbucks $2,000
    roll(state, 1)
    assert state.position[0] == 14
    assert state.cash[:3] == [24_000 + 10_000 - 2_000, 19_000, 19_000]


def test_landing_on_a_car_on_the_freeway_collects_10000_and_sends_it_to_a_pit_of_your_choice():
    state = new_state(positions=[LANE_0, LANE_2, 15])
    script(state, 2)
    events = roll(state, 1)
    assert "whipcash" not in event_types(events)
    assert state.cash[:2] == [34_000, 14_000]
    decision = RULESET.pending(state)[0]
    assert (decision.seat, decision.kind) == (0, "send_to_pit")
    assert {o["pit"] for o in decision.options} == {"daily", "chasinbucks", "overbilled"}
    RULESET.apply(state, 0, {"type": "send_to_pit", "pit": "chasinbucks"})
    assert state.position[1] == PIT_CHASINBUCKS
    assert state.current == 1 and RULESET.pending(state)[0].kind == "escape_pit"


def test_diverted_onto_an_occupied_first_lane_is_a_freeway_landing():
    state = new_state(positions=[5, LANE_0, 15])
    script(state, 3)
    roll(state, 1)
    assert state.cash[:2] == [34_000, 14_000]
    RULESET.apply(state, 0, {"type": "send_to_pit", "pit": "overbilled"})
    assert state.position[1] == PIT_OVERBILLED


@pytest.mark.parametrize("pit", ["daily", "chasinbucks", "overbilled"])
def test_the_pit_choice_is_only_one_of_the_three_pits(pit):
    state = new_state(positions=[LANE_0, LANE_1, 15])
    script(state, 1)
    roll(state, 1)
    RULESET.apply(state, 0, {"type": "send_to_pit", "pit": pit})
    assert state.position[1] == {"daily": PIT_DAILY, "chasinbucks": PIT_CHASINBUCKS, "overbilled": PIT_OVERBILLED}[pit]
