"""The shared random-play invariant suite, run on every registered ruleset."""

from __future__ import annotations

import pytest

from engine.core.registry import all_rulesets
from engine.core.rng import Rng
from tests.engine.invariants import (
    OutcomeSecrecy,
    assert_every_option_applies,
    assert_illegal_rejected,
    assert_round_trip,
    assert_sound,
    assert_views_hide_secrets,
    play_random,
    replay,
)

RULESETS = sorted(all_rulesets())
BULK_GAMES = 500
DEEP_GAMES = 12
SECRECY_GAMES = 6
#: random games with players joining mid-game (rulesets that take them), and the chance of a join a step
JOIN_GAMES = 60
JOIN_CHANCE = 0.02


def player_counts(ruleset) -> list[int]:
    return sorted({ruleset.min_players, ruleset.max_players})


def games_by_players(ruleset, games: int) -> list[tuple[int, int]]:
    """(game number, player count) for ``games`` games, alternating the fewest and the most players."""
    counts = player_counts(ruleset)
    return [(game, counts[game % len(counts)]) for game in range(games)]


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_many_random_games_end_conserve_money_and_keep_the_states_invariants(ruleset_id):
    ruleset = all_rulesets()[ruleset_id]
    for game, players in games_by_players(ruleset, BULK_GAMES):
        state = ruleset.new_game(players, None, game)
        total = ruleset.money_in_play(state)

        def check(state, decisions, total=total, game=game):
            assert_sound(ruleset, state, total, f"game {game}")

        final, _, _ = play_random(ruleset, players, game, on_step=check)
        assert_sound(ruleset, final, total, f"game {game} at its end")
        result = ruleset.result(final)
        assert result.winners and set(result.winners) <= set(range(players))
        assert sorted(result.ranking) == list(range(players))


@pytest.mark.parametrize("ruleset_id", [r for r in RULESETS if all_rulesets()[r].joins_mid_game])
def test_players_joining_random_games_keep_the_states_invariants(ruleset_id):
    """Joins land at random points of the game (beside any decision, e.g. a Hometown on offer)."""
    ruleset = all_rulesets()[ruleset_id]
    joined = 0
    for game, players in games_by_players(ruleset, JOIN_GAMES):
        state = ruleset.new_game(players, None, 3000 + game)
        total = ruleset.money_in_play(state)

        def check(state, decisions, total=total, game=game):
            assert_sound(ruleset, state, total, f"game {game}")

        final, _, _ = play_random(ruleset, players, 3000 + game, on_step=check, joins=JOIN_CHANCE)
        assert_sound(ruleset, final, total, f"game {game} at its end")
        joined += final.players - players
    assert joined >= JOIN_GAMES  # the joins happened


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_states_round_trip_options_apply_and_illegal_is_rejected(ruleset_id):
    ruleset = all_rulesets()[ruleset_id]
    for game, players in games_by_players(ruleset, DEEP_GAMES):
        rng = Rng(game)

        def deep_checks(state, decisions, players=players, rng=rng):
            assert_round_trip(ruleset, state)
            assert_every_option_applies(ruleset, state, decisions)
            assert_illegal_rejected(ruleset, state, decisions, players)
            assert_views_hide_secrets(ruleset, state, players, rng)

        final, _, _ = play_random(ruleset, players, 1000 + game, on_step=deep_checks)
        assert_round_trip(ruleset, final)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_actions_tell_no_seat_what_it_cannot_see(ruleset_id):
    """Views hide secrets (above); so must what an action shows: see ``OutcomeSecrecy``."""
    ruleset = all_rulesets()[ruleset_id]
    for game, players in games_by_players(ruleset, SECRECY_GAMES):
        play_random(ruleset, players, 2000 + game, on_step=OutcomeSecrecy(ruleset, players, Rng(game)))


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_replay_and_same_seed_reproduce_the_game(ruleset_id):
    ruleset = all_rulesets()[ruleset_id]
    players = ruleset.max_players
    for seed in (7, 8, 9):
        final, log, events = play_random(ruleset, players, seed)
        assert ruleset.to_dict(replay(ruleset, players, seed, log)) == ruleset.to_dict(final)
        again, log_again, events_again = play_random(ruleset, players, seed)
        assert log_again == log and events_again == events
        assert ruleset.to_dict(again) == ruleset.to_dict(final)
