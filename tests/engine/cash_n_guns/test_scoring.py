"""End of the game: paintings, the diamond bonus, totals and tie-breaks."""

from __future__ import annotations

import pytest

from engine.games.cash_n_guns.cards import loot_value
from tests.engine.cash_n_guns.helpers import RULES, new_game, of_type, shoot_out

CHART = [4000, 12000, 30000, 60000, 100000, 150000, 200000, 300000, 400000, 500000]


def last_round(loot: list[list[str]], wounds: list[int] | None = None):
    """Round 8 with the given loot held; everyone lies down, so the loot stays as given."""
    state = new_game(len(loot), ["bill_5000"])
    state.turn = 7
    state.piles = []
    for seat, cards in enumerate(loot):
        state.gangsters[seat].loot = list(cards)
        state.gangsters[seat].wounds = (wounds or [0] * len(loot))[seat]
    cards = {seat: "click" for seat in range(len(loot))}
    aims = {seat: (seat + 1) % len(loot) for seat in range(len(loot))}
    events = shoot_out(state, cards, aims, stands=dict.fromkeys(range(len(loot)), False))
    return state, events


@pytest.mark.parametrize("paintings", range(1, 11))
def test_paintings_are_worth_their_set_size(paintings):
    assert loot_value(["painting"] * paintings + ["bill_5000"], CHART) == CHART[paintings - 1] + 5000


def test_the_game_ends_after_the_eighth_round_with_the_richest_winning():
    state, events = last_round([["bill_20000"], ["painting"] * 3, ["bill_10000"], []])
    result = RULES.result(state)
    assert state.turn == 8 and result.reason == "rounds_played" and not result.turn_cap_hit
    assert result.winners == [1] and result.scores == [20000, 30000, 10000, 0]
    assert result.ranking == [1, 0, 2, 3]
    assert of_type(events, "game_over")[0]["winners"] == [1]


def test_the_single_player_with_most_diamond_cards_gets_the_bonus():
    diamonds = ["diamond_1000", "diamond_1000"]
    state, _ = last_round([["bill_20000"] * 3, diamonds, ["diamond_10000"], []])
    result = RULES.result(state)
    assert result.details["diamond_bonus_to"] == 1
    assert result.scores == [60000, 62000, 10000, 0]
    assert result.winners == [1]


def test_a_diamond_tie_gives_nobody_the_bonus():
    state, _ = last_round([["diamond_1000"] * 2, ["diamond_5000", "diamond_1000"], ["bill_20000"], []])
    result = RULES.result(state)
    assert result.details["diamond_bonus_to"] is None
    assert result.scores == [2000, 6000, 20000, 0] and result.winners == [2]


def test_a_tied_total_goes_to_the_most_wounded():
    state, _ = last_round([["bill_20000"], ["bill_10000", "bill_10000"], ["bill_5000"], []], wounds=[1, 2, 0, 0])
    result = RULES.result(state)
    assert result.winners == [1] and result.ranking[:2] == [1, 0]


def test_still_tied_everybody_shares_the_win():
    state, _ = last_round([["bill_10000"]] * 4, wounds=[1, 1, 1, 1])
    result = RULES.result(state)
    assert result.winners == [0, 1, 2, 3] and result.is_draw


def test_dead_players_cannot_win_nor_take_the_diamond_bonus():
    state = new_game(4, ["bill_5000"])
    state.gangsters[3].alive = False
    state.gangsters[3].died_in = 2
    state.gangsters[3].loot = ["bill_20000"] * 9 + ["diamond_1000"] * 4
    state.turn = 7
    state.piles = []
    state.gangsters[0].loot = ["diamond_1000"]
    shoot_out(state, {0: "click", 1: "click", 2: "click"}, {0: 1, 1: 2, 2: 0}, stands={0: False, 1: False, 2: False})
    result = RULES.result(state)
    assert result.winners == [0] and result.details["diamond_bonus_to"] == 0
    assert result.ranking[-1] == 3


def test_a_turn_cap_ends_the_game_early_and_says_so():
    state = new_game(4, ["bill_5000"], turn_cap=1)
    shoot_out(state, {s: "click" for s in range(4)}, {0: 1, 1: 2, 2: 3, 3: 0})
    RULES.apply(state, 0, {"type": "take_loot", "card": "bill_5000"})
    result = RULES.result(state)
    assert state.turn == 1 and result.reason == "turn_cap" and result.turn_cap_hit and result.winners == [0]
