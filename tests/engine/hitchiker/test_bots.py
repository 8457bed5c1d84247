"""The heuristic bot: legal moves from the view alone, basic strategy, savings first."""

from __future__ import annotations

import pytest

from engine.games.hitchiker.bots import DOUBLE_DOWN, HIT, SPLIT, STICK, basic_strategy
from engine.simulate import play_game
from tests.engine.hitchiker.helpers import RULES, act, game, pending_kind, place

ALL = [STICK, HIT, DOUBLE_DOWN, SPLIT]


@pytest.mark.parametrize(("values", "total", "soft", "up", "move"), [
    ([8, 8], 16, False, 10, SPLIT),
    ([1, 1], 12, True, 6, SPLIT),
    ([10, 10], 20, False, 6, STICK),
    ([10, 6], 16, False, 10, HIT),
    ([10, 6], 16, False, 5, STICK),
    ([10, 2], 12, False, 5, STICK),
    ([10, 2], 12, False, 2, HIT),
    ([6, 5], 11, False, 6, DOUBLE_DOWN),
    ([1, 7], 18, True, 9, HIT),
    ([1, 7], 18, True, 4, DOUBLE_DOWN),
])
def test_basic_strategy(values, total, soft, up, move):
    assert basic_strategy(values, total, soft, up, ALL) == move


def test_basic_strategy_only_picks_offered_moves():
    assert basic_strategy([6, 5, 2], 13, False, 10, [STICK, HIT]) == HIT
    assert basic_strategy([8, 8], 16, False, 10, [STICK, HIT]) == HIT


def test_the_heuristic_deposits_the_most_it_may():
    state = game(dice=[3, 4])
    state.seats[0].hometowns.append(RULES.tables(state).index_by_name["Kebec City"])
    place(state, 0, "Ottawhat")
    act(state, 0, "roll")
    assert pending_kind(state) == (0, "deposit")
    decision = RULES.pending(state)[0]
    action = RULES.bot("heuristic").act(RULES.view(state, 0), decision, state.rng)
    assert action == {"type": "deposit", "amount": 35_000}


@pytest.mark.parametrize("players", [2, 6])
def test_heuristic_games_end_with_legal_moves_only(players):
    for seed in range(3):
        outcome = play_game(RULES, players, ["heuristic"] * players, None, seed)
        assert outcome.result.winners
