"""Whipca$hing another car: the four payment levels, rolling again, and the Anti-Fender Bender card."""

from __future__ import annotations

import pytest

from engine.core.rng import Rng
from engine.games.whipcash import RULESET
from tests.engine.whipcash.helpers import event_types, new_state, roll, script


def whipcash_state(pros_bankrupt: int, cards: bool = False):
    """Seat 0 at START, seat 1 on space 3 (pay Dr. Overbilled), seat 2 far away."""
    state = new_state(positions=[0, 3, 14])
    state.card = [cards] * 3
    for k in range(pros_bankrupt):
        state.alive[state.players + k] = False
    return state


def test_no_pro_bankrupt_the_car_landing_pays_15000_does_not_do_the_space_and_rolls_again():
    state = whipcash_state(0)
    script(state, 3)
    events = roll(state, 1)
    assert "whipcash" in event_types(events)
    assert state.cash[:2] == [9_000, 39_000]
    assert state.cash[state.players + 2] == 24_000, "the space (pay Dr. Overbilled) is not done"
    assert state.current == 0 and RULESET.pending(state)[0].kind == "roll"


@pytest.mark.parametrize(("bankrupt_pros", "amount"), [(1, 5_000), (2, 15_000), (3, 25_000)])
def test_with_bankrupt_pros_the_car_landing_collects_from_the_car_there(bankrupt_pros, amount):
    state = whipcash_state(bankrupt_pros)
    state.cash[1] = 30_000
    script(state, 3)
    roll(state, 1)
    assert state.cash[:2] == [24_000 + amount, 30_000 - amount]
    assert state.current == 0 and RULESET.pending(state)[0].kind == "roll"


def test_whipcash_after_doubles_gives_one_more_roll_not_two():
    state = whipcash_state(0)
    state.position[1] = 4
    script(state, 2, 2, 1)
    roll(state, 2)
    assert state.current == 0
    roll(state, 1)  # 4 -> 5, pay each Pro: the turn is over
    assert state.current == 1


def test_pits_allow_several_cars():
    state = new_state(positions=[6, 7, 14])
    script(state, 1)
    events = roll(state, 1)
    assert "whipcash" not in event_types(events)
    assert state.position[:2] == [7, 7] and state.cash[:2] == [24_000, 24_000]


def test_landing_on_start_with_several_cars_pays_each_in_order_of_play():
    state = new_state(positions=[14, 0, 0])
    state.card = [False] * 3
    state.order = [0, 2, 1]
    state.cash[0] = 20_000
    script(state, 2)
    events = roll(state, 1)
    payments = [(e.data["to"], e.data["amount"]) for e in events if e.type == "paid"]
    assert payments == [(2, 15_000), (1, 5_000)]
    assert next(e for e in events if e.type == "whipcash").data["cars"] == [2, 1]
    assert not state.alive[0] and state.bankrupted_by[0] == 1


def test_card_cancels_the_whipcash_payment_of_the_car_landing():
    state = whipcash_state(0, cards=True)
    script(state, 3)
    roll(state, 1)
    decision = RULESET.pending(state)[0]
    assert (decision.seat, decision.kind) == (0, "anti_fender_bender")
    assert decision.default == {"type": "anti_fender_bender", "play": False}
    events = RULESET.apply(state, 0, {"type": "anti_fender_bender", "play": True})
    assert "anti_fender_bender" in event_types(events)
    assert state.cash[:2] == [24_000, 24_000]
    assert state.card == [False, True, True]
    assert RULESET.pending(state)[0].kind == "roll" and state.current == 0


def test_card_holder_who_declines_pays_and_keeps_the_card():
    state = whipcash_state(0, cards=True)
    script(state, 3)
    roll(state, 1)
    RULESET.apply(state, 0, {"type": "anti_fender_bender", "play": False})
    assert state.cash[:2] == [9_000, 39_000]
    assert state.card[0] is True


def test_card_of_the_car_hit_is_its_own_decision_when_it_must_pay():
    state = whipcash_state(2, cards=True)
    script(state, 3)
    roll(state, 1)
    decision = RULESET.pending(state)[0]
    assert (decision.seat, decision.kind) == (1, "anti_fender_bender")
    RULESET.apply(state, 1, {"type": "anti_fender_bender", "play": True})
    assert state.cash[:2] == [24_000, 24_000]
    assert state.card == [True, False, True]


def test_a_used_card_is_not_offered_again():
    state = whipcash_state(0, cards=True)
    state.card[0] = False
    script(state, 3)
    roll(state, 1)
    assert RULESET.pending(state)[0].kind == "roll"
    assert state.cash[0] == 9_000


@pytest.mark.parametrize(("cash", "plays"), [(14_999, True), (15_000, False), (40_000, False)])
def test_a_seat_too_slow_to_decide_plays_its_card_only_against_a_payment_it_cannot_make(cash, plays):
    """An absent player keeps the card for later, unless paying would bankrupt it (and, at two players,
    hand the rival the game) while the card was on offer to save it."""
    state = whipcash_state(0, cards=True)
    state.cash[0] = cash
    script(state, 3)
    roll(state, 1)
    decision = RULESET.pending(state)[0]
    assert (decision.seat, decision.kind) == (0, "anti_fender_bender")
    default = RULESET.timeout_action(state, decision, Rng(0))
    assert default == decision.to_dict()["default"] == {"type": "anti_fender_bender", "play": plays}
    RULESET.apply(state, 0, default)
    assert state.alive[0] and state.card[0] is not plays


def test_the_car_hit_too_slow_to_decide_plays_its_card_when_it_cannot_pay():
    state = whipcash_state(3, cards=True)
    state.cash[1] = 20_000
    script(state, 3)
    roll(state, 1)
    decision = RULESET.pending(state)[0]
    assert (decision.seat, decision.kind) == (1, "anti_fender_bender")
    assert decision.default == {"type": "anti_fender_bender", "play": True}  # 25,000 owed
    RULESET.apply(state, 1, decision.default)
    assert state.alive[1] and state.cash[1] == 20_000
