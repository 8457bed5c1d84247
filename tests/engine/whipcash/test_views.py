"""What a seat sees, serialization, player counts and options."""

from __future__ import annotations

import json

import pytest

from engine.core.errors import InvalidOptions
from engine.games.whipcash import RULESET
from tests.engine.whipcash.helpers import new_state


def test_view_shows_board_positions_money_and_owners_but_not_the_dice_generator():
    state = RULESET.new_game(4, None, seed=5)
    view = RULESET.view(state, 2)
    text = json.dumps(view)
    assert "rng" not in view and "counter" not in text
    assert [p["cash"] for p in view["players"]] == [24_000] * 4
    assert [p["holdings_owner"] for p in view["pros"]] == ["daily", "chasinbucks", "overbilled"]
    assert view["board"]["loop"][0]["kind"] == "start"
    assert view["bank"] == 0 and view["seat"] == 2


def test_state_round_trips_with_a_custom_board():
    state = new_state()
    again = RULESET.from_dict(json.loads(json.dumps(RULESET.to_dict(state))))
    assert again == state


def test_two_to_six_players():
    assert (RULESET.min_players, RULESET.max_players) == (2, 6)
    with pytest.raises(InvalidOptions):
        RULESET.new_game(7)
    with pytest.raises(InvalidOptions):
        RULESET.new_game(1)


def test_money_in_play_counts_players_pros_and_the_bank_ledger():
    state = RULESET.new_game(3, None, seed=2)
    assert RULESET.money_in_play(state) == 24_000 * 6
