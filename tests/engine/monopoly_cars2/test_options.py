"""Options: spinner, starting money, turn cap, and custom boards and decks with their validation."""

from __future__ import annotations

import copy
import json

import pytest

from engine.core.bounded import BoundedCache
from engine.core.errors import InvalidOptions
from engine.games.monopoly_cars2 import tables as tables_module
from engine.games.monopoly_cars2.tables import DEFAULT_BOARD, DEFAULT_DECK
from tests.engine.invariants import play_random
from tests.engine.monopoly_cars2.scenario import RULESET

SMALL_BOARD = {
    "go_salary": 1,
    "jail_fine": 2,
    "spaces": [
        {"id": "go", "kind": "go", "name": "GO"},
        {"id": "a1", "kind": "property", "name": "A1", "colour": "red", "price": 1},
        {"id": "a2", "kind": "property", "name": "A2", "colour": "red", "price": 2},
        {"id": "jail", "kind": "jail", "name": "Prison"},
        {"id": "chance", "kind": "chance", "name": "Chance"},
        {"id": "b1", "kind": "property", "name": "B1", "colour": "blue", "price": 3},
        {"id": "cop", "kind": "go_to_jail", "name": "Go to Prison"},
        {"id": "b2", "kind": "property", "name": "B2", "colour": "blue", "price": 3},
    ],
}
SMALL_DECK = {"cards": [
    {"kind": "free_property", "colours": ["red", "blue"]},
    {"kind": "go_to_space", "space": "b2"},
    {"kind": "get_out_of_jail"},
    {"kind": "move_forward", "max_spaces": 4},
]}


def option_errors(options: dict, players: int = 2) -> dict:
    with pytest.raises(InvalidOptions) as caught:
        RULESET.new_game(players, options)
    return caught.value.fields


def board_with(change) -> dict:
    board = copy.deepcopy(DEFAULT_BOARD)
    change(board["spaces"])
    return board


def test_a_custom_board_and_deck_play_to_the_end_and_round_trip_in_a_fresh_process(monkeypatch):
    options = {"board": SMALL_BOARD, "chance_deck": SMALL_DECK, "spinner_faces": [1, 2, 3]}
    for seed in range(30):
        final, _, _ = play_random(RULESET, 3, seed, options)
        assert RULESET.result(final) is not None
    state = RULESET.new_game(2, options, seed=5)
    assert len(state.owners) == 8 and len(state.pile) == 4 and state.spinner == [1, 2, 3]
    data = json.loads(json.dumps(RULESET.to_dict(state)))
    # as in a process that never saw these options
    monkeypatch.setattr(tables_module, "custom_tables", BoundedCache(tables_module.MAX_CACHED_CUSTOM))
    again = RULESET.from_dict(data)
    assert again == state
    assert RULESET.view(again, 0)["board"][5]["name"] == "B1"
    assert RULESET.view(again, 0)["jail_fine"] == 2


def test_board_validation_names_the_bad_fields():
    def break_spaces(spaces):
        spaces[1]["price"] = 0
        del spaces[2]["colour"]
        spaces[3]["price"] = 2
        spaces[4]["kind"] = "casino"

    errors = option_errors({"board": board_with(break_spaces)})["board"]["spaces"]
    assert set(errors) == {1, 2, 3, 4}
    assert "price" in errors[1] and "colour" in errors[2] and "price" in errors[3] and "kind" in errors[4]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda spaces: spaces.insert(0, spaces.pop(1)), "space 0 must be GO"),
        (lambda spaces: spaces.__setitem__(12, {**spaces[12], "kind": "jail"}), "exactly one jail"),
        (lambda spaces: spaces.__setitem__(1, {**spaces[1], "colour": "purple"}), "brown, purple"),
        (lambda spaces: spaces.__setitem__(2, {**spaces[2], "id": "flos-v8-cafe"}), "unique: flos-v8-cafe"),
    ],
)
def test_board_layout_rules(change, message):
    errors = option_errors({"board": board_with(change), "chance_deck": {"cards": [{"kind": "collect", "amount": 1}]}})
    assert any(message in text for text in errors["board"]["spaces"]), errors


def test_board_length_is_8_to_64_spaces():
    errors = option_errors({"board": {"spaces": SMALL_BOARD["spaces"][:7]}})
    assert errors["board"]["spaces"] == ["Length must be between 8 and 64."]


def test_a_custom_board_needs_a_deck_that_fits_it():
    errors = option_errors({"board": SMALL_BOARD})
    assert "does not fit this custom board" in errors["chance_deck"][0]


@pytest.mark.parametrize(
    ("card", "field", "message"),
    [
        ({"kind": "teleport"}, "kind", "Must be one of"),
        ({"kind": "pay_bank"}, "amount", "required on a pay_bank card"),
        ({"kind": "collect", "amount": 2, "space": "go"}, "space", "a collect card has no space"),
        ({"kind": "go_to_space", "space": "atlantis"}, "space", "no space 'atlantis'"),
        ({"kind": "free_property", "colours": ["plaid"]}, "colours", "no such colour on the board: plaid"),
        ({"kind": "move_forward", "max_spaces": 0}, "max_spaces", "greater than or equal to 1"),
    ],
)
def test_deck_validation_names_the_bad_card_and_field(card, field, message):
    deck = {"cards": [DEFAULT_DECK["cards"][0], card]}
    errors = option_errors({"chance_deck": deck})["chance_deck"]["cards"]
    assert list(errors) == [1]
    assert any(message in text for text in errors[1][field]), errors


def test_an_empty_deck_is_rejected():
    assert "chance_deck" in option_errors({"chance_deck": {"cards": []}})


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"spinner_faces": []}, "spinner_faces"),
        ({"spinner_faces": [0, 1]}, "spinner_faces"),
        ({"spinner_faces": [13]}, "spinner_faces"),
        ({"spinner_faces": ["3"]}, "spinner_faces"),
        ({"starting_money": -1}, "starting_money"),
        ({"starting_money": 2.5}, "starting_money"),
        ({"turn_cap": 0}, "turn_cap"),
        ({"board": [1, 2]}, "board"),
        ({"houses": True}, "houses"),
    ],
)
def test_options_validation(options, field):
    assert field in option_errors(options)


def test_player_count_is_2_to_4():
    for players in (1, 5):
        assert "players" in option_errors({}, players)
