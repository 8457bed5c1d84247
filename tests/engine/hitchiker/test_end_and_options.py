"""Both wins, the turn cap and its tie-break, custom data through the options, views."""

from __future__ import annotations

import copy
import json

import pytest

from engine.core.bounded import BoundedCache
from engine.core.errors import InvalidOptions
from engine.games.hitchiker import tables as tables_module
from tests.engine.hitchiker.helpers import RULES, act, city, game, give, pending_kind, place, script, types


def test_saving_250000_wins_at_once():
    state = game(dice=[3, 4])
    state.seats[0].hometowns.append(city("Kebec City"))
    place(state, 0, "Ottawhat")  # + 7 lands on Kebec City
    give(state, 0, savings=240_000)
    act(state, 0, "roll")
    events = act(state, 0, "deposit", amount=10_000)
    assert "game_won" in types(events) and RULES.pending(state) == []
    result = RULES.result(state)
    assert result.winners == [0] and result.reason == "savings" and result.ranking[0] == 0
    assert not result.turn_cap_hit


def test_50_million_in_travelling_cash_wins():
    state = game(homes=["Kebec City", "Sasquatoon", "Torontoe", "Montreel"], dice=[1, 2])
    place(state, 0, "Rainville")  # + 3 lands on Smash Ville: $50,000
    give(state, 0, cash=49_960_000)
    act(state, 0, "roll")
    result = RULES.result(state)
    assert result.winners == [0] and result.reason == "travelling_cash"


def test_the_turn_cap_ends_the_game_and_the_most_savings_plus_cash_wins():
    state = game(players=2, homes=["Vancougar", "Sasquatoon"], dice=[1, 1, 1, 1])
    state.turn_cap = 2
    give(state, 1, savings=5_000)
    act(state, 0, "roll")  # Bogotcha: the Black Market
    act(state, 0, "pass")
    assert RULES.result(state) is None
    act(state, 1, "roll")  # Havanana
    act(state, 1, "pass")
    result = RULES.result(state)
    assert result.turn_cap_hit and result.reason == "turn_cap" and result.winners == [1]
    assert result.scores == [25_000, 30_000] and result.ranking == [1, 0]


def test_a_tie_at_the_turn_cap_is_a_shared_win():
    state = game(players=2, homes=["Vancougar", "Sasquatoon"], dice=[1, 1])
    state.turn_cap = 1
    act(state, 0, "roll")
    act(state, 0, "pass")
    assert RULES.result(state).winners == [0, 1]


def test_turn_cap_option_reaches_the_state():
    state = RULES.new_game(3, {"turn_cap": 40}, 5)
    assert state.turn_cap == 40


def custom_board() -> dict:
    board = copy.deepcopy(tables_module.DEFAULT_DATA["board"])
    smash = next(c for c in board["cities"] if c["name"] == "Smash Ville")
    smash["amount"] = 70_000
    return board


def test_a_custom_board_is_used_and_survives_serialization_in_a_fresh_process(monkeypatch):
    state = RULES.new_game(2, {"board": custom_board()}, 3)
    assert RULES.view(state, None)["custom_data"]["board"]["cities"][1]["amount"] == 70_000
    data = json.loads(json.dumps(RULES.to_dict(state)))
    monkeypatch.setattr(tables_module, "custom_tables", BoundedCache(tables_module.MAX_CACHED_CUSTOM))
    restored = RULES.from_dict(data)
    assert restored == state
    homes = {0: "Kebec City", 1: "Sasquatoon"}
    for seat in (state.decider, 1 - state.decider):
        act(restored, seat, "pick_hometown", city=homes[seat])
    restored.active = restored.decider = 0
    place(restored, 0, "Rainville")
    script(restored, 1, 2)
    act(restored, 0, "roll")
    assert restored.seats[0].cash == 95_000


@pytest.mark.parametrize(("option", "data", "field"), [
    ("board", {"cities": [{"name": "A", "kind": "hometown"}]}, "cities"),
    ("board", {"cities": [{"name": f"C{i}", "kind": "volcano"} for i in range(12)]}, "0"),
    ("board", {"cities": [{"name": "Same", "kind": "hometown"}] * 12}, "1"),
    ("board", {"cities": [{"name": f"C{i}", "kind": "sell"} for i in range(12)]}, "0"),
    ("deal_chart", {"rolls": {"2": {"kind": "price", "price": 0}}}, "2"),
    ("deal_chart", {"rolls": {str(r): {"kind": "shootout"} for r in range(2, 12)}}, "12"),
    ("bad_ride_deck", {"cards": []}, "cards"),
    ("bad_ride_deck", {"cards": [{"text": "x", "effect": "advance_to_kind", "kind": "moon"}]}, "0"),
    ("bad_ride_deck", {"cards": [{"text": "x", "effect": "lose_cash_percent", "percent": 150}]}, "0"),
])
def test_bad_custom_data_is_rejected_with_field_messages(option, data, field):
    with pytest.raises(InvalidOptions) as bad:
        RULES.new_game(2, {option: data}, 1)
    assert field in bad.value.fields[option]


def test_a_board_with_too_few_hometowns_for_the_players_is_rejected():
    board = custom_board()
    kept = 0
    for entry in board["cities"]:
        if entry["kind"] == "hometown":
            kept += 1
            if kept > 3:
                entry["kind"] = "casino"
    RULES.new_game(3, {"board": board}, 1)
    with pytest.raises(InvalidOptions):
        RULES.new_game(4, {"board": board}, 1)


def test_views_show_the_table_but_never_the_rng():
    state = game()
    view = RULES.view(state, 2)
    assert "rng" not in json.dumps(view) and view["players"][0]["cash"] == 25_000
    assert pending_kind(state) == (0, "roll")
    data = RULES.default_data()
    cities = data["board"]["cities"]
    assert len(cities) == 42 and sum(1 for c in cities if c["kind"] == "hometown") == 12
    assert next(c for c in cities if c["name"] == "Lost Bananas")["price"] == 50_000
    assert set(data) == {"board", "deal_chart", "bad_ride_deck"}
