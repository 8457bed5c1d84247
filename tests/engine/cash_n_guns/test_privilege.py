"""The Godfather's privilege and the forced change of target."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalAction
from tests.engine.cash_n_guns.helpers import RULES, act, aim, choose_bullets, decide, new_game, of_type, pending_seats

ALL_CLICK = {0: "click", 1: "click", 2: "click", 3: "click"}


def aimed_game():
    state = new_game(4, ["bill_5000"] * 8)
    choose_bullets(state, {0: "click", 1: "click", 2: "bang", 3: "bang"})
    aim(state, {0: 1, 1: None, 2: 3, 3: 0})
    return state


def test_the_godfather_may_order_anyone_aiming_at_someone_else_than_himself():
    state = aimed_game()
    assert state.phase == "privilege" and pending_seats(state) == [0]
    (decision,) = RULES.pending(state)
    # Seat 1 holds nobody up, and the Godfather does not order himself.
    assert [o["target"] for o in decision.options] == [None, 2, 3]
    assert decision.default_action() == {"type": "privilege", "target": None}


def test_the_ordered_player_must_pick_another_living_target():
    state = aimed_game()
    events = act(state, 0, {"type": "privilege", "target": 3})
    assert of_type(events, "privilege_used") == [{"godfather": 0, "seat": 3}]
    assert state.phase == "retarget" and pending_seats(state) == [3]
    (decision,) = RULES.pending(state)
    assert [o["target"] for o in decision.options] == [1, 2]
    # Too slow to obey: the next valid target clockwise.
    assert decision.default_action() == {"type": "retarget", "target": 1}
    with pytest.raises(IllegalAction) as caught:
        act(state, 3, {"type": "retarget", "target": 0})
    assert caught.value.reason == "option_not_allowed"
    events = act(state, 3, {"type": "retarget", "target": 2})
    assert of_type(events, "retargeted") == [{"seat": 3, "from": 0, "to": 2}]
    assert state.phase == "courage"
    events = decide(state, {0: True, 1: True, 2: True, 3: True})
    # Seat 3's Bang! now hits seat 2, and seat 2's hits seat 3.
    assert [g.wounds for g in state.gangsters] == [0, 0, 1, 1]


def test_passing_keeps_every_aim():
    state = aimed_game()
    events = act(state, 0, {"type": "privilege", "target": None})
    assert of_type(events, "privilege_passed") == [{"godfather": 0}]
    decide(state, {0: True, 1: True, 2: True, 3: True})
    assert [g.wounds for g in state.gangsters] == [1, 0, 0, 1]


def test_no_privilege_when_only_two_players_live():
    state = new_game(4, ["bill_5000"] * 8)
    for seat in (2, 3):
        state.gangsters[seat].alive = False
    choose_bullets(state, {0: "click", 1: "click"})
    aim(state, {0: 1, 1: 0})
    assert state.phase == "courage"


def test_no_privilege_when_nobody_but_the_godfather_aims():
    state = new_game(4, ["bill_5000"] * 8)
    choose_bullets(state, ALL_CLICK)
    aim(state, {0: 1, 1: None, 2: None, 3: None})
    assert state.phase == "courage"
