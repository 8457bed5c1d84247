"""The game analysis checked from outside (issue 38, "Done when"), with ``bench/analysis_check.py``: luck
averages zero for every seat, a heuristic seat's skill shows above random seats', seats of an all-random
lineup have equal skill, one-option moves carry no skill, the parts add up exactly, and moves called
costly lose in independent play-outs (heuristic continuations to the end, common random numbers).

Seeds: the harness's own stream (``CHECK_SEED``), which no golden or other test uses. The many
comparisons are Holm-corrected. The tests read analysis format 2 (``drift``, ``costly``, ``cost_se``).
The tier marked ``slow`` (``make test-slow``) is the issue's full size: 300 games per ruleset and lineup,
25 costly moves per ruleset played out 100 times per option. ``make test`` runs a small seeded version.
"""

from __future__ import annotations

import pytest

from engine.core.registry import all_rulesets
from tests.bench import load_bench

check = load_bench("analysis_check")

#: The small version: Monopoly's games are analysed fastest (most of their moves are forced).
FAST_RULESET, FAST_GAMES = "monopoly-cars2", 30
#: A game with many costly calls for the small version's play-outs (Cash 'n Guns prices most moves).
FAST_COSTS_RULESET, FAST_COSTLY_MOVES, FAST_PLAYOUTS = "cash-n-guns", 4, 40


def assert_format_2(checks) -> None:
    assert min(game.format for game in checks) >= 2, "these checks read analysis format 2 (drift, costly, cost_se)"


@pytest.fixture(scope="module")
def fast_games():
    return [game for lineup in check.LINEUPS for game in check.check_games(FAST_RULESET, lineup, FAST_GAMES)]


def test_luck_averages_zero_and_random_seats_have_equal_skill_on_a_small_seeded_run(fast_games):
    assert_format_2(fast_games)
    comparisons = check.split_comparisons(fast_games)
    check.settle(comparisons)
    lucks = [comparison for comparison in comparisons if comparison.name.endswith("luck == 0")]
    assert len(lucks) == 2 * check.PLAYERS
    refused = [comparison.name for comparison in comparisons if comparison.null and not comparison.holm_ok]
    assert not refused, check.comparison_lines(comparisons)


def test_parts_add_up_exactly_and_forced_moves_carry_no_skill(fast_games):
    assert_format_2(fast_games)
    assert sum(game.forced for game in fast_games) > 0  # Monopoly's rolls: the check has forced moves to see
    for game in fast_games:
        assert game.unsummed == [], f"game {game.seed}: seats whose parts do not add up"
        assert game.forced_with_skill == [], f"game {game.seed}: forced entries with a decision part"
        # a seat whose every move was forced (most seats of a Monopoly game): nothing of it is skill
        assert game.idle_skill == [], f"game {game.seed}: seats with no choice and some skill"
    assert sum(len(game.moves) < check.PLAYERS for game in fast_games) > 0  # such seats exist


def test_a_few_moves_called_costly_lose_in_independent_play_outs():
    games = check.check_games(FAST_COSTS_RULESET, "heuristic-vs-random", 1)
    assert_format_2(games)
    sample = check.costly_sample(games, FAST_COSTLY_MOVES)
    assert len(sample) == FAST_COSTLY_MOVES
    assert all(move["cost_se"] is not None and move["cost"] > 0 for *_, move in sample)
    effects = check.measure_costs(sample, FAST_PLAYOUTS)
    summary = check.cost_summary(effects)
    assert summary["moves"] == FAST_COSTLY_MOVES
    assert summary["effect"] > 0, check.cost_lines({FAST_COSTS_RULESET: effects}, {})


@pytest.mark.slow
@pytest.mark.parametrize("ruleset_id", sorted(all_rulesets()))
def test_the_split_and_the_costs_hold_over_300_games_of_each_lineup(ruleset_id):
    games = [game for lineup in check.LINEUPS for game in check.check_games(ruleset_id, lineup, 300)]
    assert_format_2(games)
    effects = {ruleset_id: check.measure_costs(check.costly_sample(games, 25), 100)}
    comparisons = check.split_comparisons(games) + check.reversal_comparisons(effects[ruleset_id])
    check.settle(comparisons)
    assert len(effects[ruleset_id]) >= 10, "too few moves called costly to measure"
    found = check.failures(games, comparisons, effects)
    assert not found, "\n".join(found + check.cost_lines(effects, {}))
