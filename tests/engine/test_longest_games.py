"""Every game ends, and the longest one any ruleset plays fits a record (engine.records.MAX_LOG_ENTRIES),
so every finished game can be exported, replayed, forked and evaluated (docs/records.md)."""

from __future__ import annotations

import pytest

from engine.core.errors import InvalidOptions
from engine.core.registry import all_rulesets, get_ruleset
from engine.records import MAX_LOG_ENTRIES
from tests.bench import load_bench

#: seat changes a record's log may hold beside the actions: joins, hand-overs to bots
SEAT_CHANGES = 2 * 64
#: rulesets whose games could go on for ever without a cap: it has a default and null is refused
CAPPED = {"monopoly-cars2": 500, "hitchiker": 2_000}


bench = load_bench("longest_games")


@pytest.mark.parametrize("ruleset_id", sorted(all_rulesets()))
def test_the_turn_cap_is_a_bounded_integer(ruleset_id):
    ruleset = get_ruleset(ruleset_id)
    largest = bench.largest_turn_cap(ruleset_id)
    assert ruleset.new_game(ruleset.min_players, {"turn_cap": largest}).turn_cap == largest
    for refused in (largest + 1, 0, 2.5, "3", True):
        with pytest.raises(InvalidOptions) as error:
            ruleset.new_game(ruleset.min_players, {"turn_cap": refused})
        assert "turn_cap" in error.value.fields


@pytest.mark.parametrize(("ruleset_id", "default"), sorted(CAPPED.items()))
def test_a_game_that_could_go_on_for_ever_always_has_a_turn_cap(ruleset_id, default):
    ruleset = get_ruleset(ruleset_id)
    assert ruleset.new_game(ruleset.min_players).turn_cap == default
    with pytest.raises(InvalidOptions) as error:
        ruleset.new_game(ruleset.min_players, {"turn_cap": None})
    assert "turn_cap" in error.value.fields


def test_hitchiker_seats_that_never_save_play_until_the_turn_cap_and_their_game_fits_a_record():
    largest = bench.largest_turn_cap("hitchiker")
    actions, capped, turns = bench.play("hitchiker", 6, "lengthening", {"turn_cap": largest}, 3)
    assert capped and turns == largest
    # The longest game measured (bench/longest_games.py): a margin of a third stays above it.
    assert len(actions) + SEAT_CHANGES < MAX_LOG_ENTRIES * 3 // 4, len(actions)


@pytest.mark.parametrize("ruleset_id", sorted(all_rulesets()))
def test_the_longest_of_some_random_games_at_the_largest_cap_fits_a_record_with_room_to_spare(ruleset_id):
    ruleset = get_ruleset(ruleset_id)
    options = {"turn_cap": bench.largest_turn_cap(ruleset_id)}
    longest = max(len(bench.play(ruleset_id, ruleset.max_players, "random", options, seed)[0]) for seed in range(4))
    assert longest + SEAT_CHANGES < MAX_LOG_ENTRIES * 3 // 4, longest
