"""Illegal actions are rejected with the documented core reason codes and change nothing."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalAction
from tests.engine.cash_n_guns.helpers import RULES, act, choose_bullets, new_game


def rejected(state, seat, action) -> str:
    before = RULES.to_dict(state)
    with pytest.raises(IllegalAction) as caught:
        act(state, seat, action)
    assert RULES.to_dict(state) == before
    return caught.value.reason


def test_reason_codes():
    state = new_game(4, ["bill_5000"])
    act(state, 1, {"type": "choose_bullet", "card": "bang"})
    assert rejected(state, 1, {"type": "choose_bullet", "card": "click"}) == "not_your_turn"
    assert rejected(state, 2, {"type": "choose_bullet", "card": "blank"}) == "invalid_action"
    assert rejected(state, 2, {"type": "take_loot", "card": "bill_5000"}) == "action_not_allowed"
    state.gangsters[2].bangs = 0
    assert rejected(state, 2, {"type": "choose_bullet", "card": "bang"}) == "option_not_allowed"
    state.gangsters[3].alive = False
    choose_bullets(state, {0: "click", 2: "click"})
    assert rejected(state, 3, {"type": "aim", "target": 0}) == "not_your_turn"
    assert rejected(state, 0, {"type": "aim", "target": 0}) == "option_not_allowed"
    assert rejected(state, 0, {"type": "aim", "target": 3}) == "option_not_allowed"
