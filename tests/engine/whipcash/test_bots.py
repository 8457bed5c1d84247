"""The heuristic bot's choices, each from its seat's view only."""

from __future__ import annotations

from engine.core.rng import Rng
from engine.games.whipcash import RULESET
from tests.engine.whipcash.helpers import CHASINBUCKS, LANE_0, LANE_1, new_state, pro, script

BOT = RULESET.bot("heuristic")


def decide(state):
    decision = RULESET.pending(state)[0]
    return BOT.act(RULESET.view(state, decision.seat), decision, Rng(0))


def test_heuristic_picks_one_die_when_its_reach_pays_better():
    # From 11, one die reaches 12..15, START and 1 (13 pays $6,000); two dice also reach the cars on 3 and 4
    # (a $15,000 Whipca$h each), "pay each Pro" and the Pits.
    state = new_state(positions=[11, 3, 4])
    assert decide(state) == {"type": "roll", "dice": 1}


def test_heuristic_picks_two_dice_to_jump_over_a_whipcash_it_would_pay_for():
    state = new_state(positions=[0, 1, 2])
    state.card = [False, True, True]
    # one die lands on seat 1 or 2 one time in three (paying $15,000); two dice never reach them
    assert decide(state) == {"type": "roll", "dice": 2}


def test_heuristic_sends_a_car_to_its_own_pit_else_to_a_pros():
    state = new_state(positions=[LANE_0, LANE_1, 3])
    script(state, 1)
    RULESET.apply(state, 0, {"type": "roll", "dice": 1})
    assert decide(state)["pit"] in {"daily", "chasinbucks", "overbilled"}
    state.alive[pro(state, CHASINBUCKS)] = False
    state.holdings[CHASINBUCKS] = 0
    assert decide(state) == {"type": "send_to_pit", "pit": "chasinbucks"}
    state.holdings[CHASINBUCKS] = 2
    assert decide(state)["pit"] != "chasinbucks", "never feed a rival player while a Pro's Pit is free"


def test_heuristic_saves_its_card_for_a_big_or_ruinous_whipcash():
    state = new_state(positions=[0, 3, 14])
    state.alive[state.players] = False  # one Pro bankrupt: a $5,000 Whipca$h
    script(state, 3)
    RULESET.apply(state, 0, {"type": "roll", "dice": 1})
    assert RULESET.pending(state)[0].seat == 1
    assert decide(state) == {"type": "anti_fender_bender", "play": False}
    state.cash[1] = 4_000
    assert decide(state) == {"type": "anti_fender_bender", "play": True}
    state.cash[1] = 24_000
    state.alive[state.players + 1] = False  # two Pros bankrupt: $15,000
    assert decide(state) == {"type": "anti_fender_bender", "play": True}
