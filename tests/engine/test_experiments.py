"""The experiments' engine half: variants, paired tallies that merge across chunks, statistics."""

from __future__ import annotations

import math
import random

import pytest

from engine.core.errors import InvalidOptions
from engine.core.registry import get_ruleset
from engine.experiments.design import MAX_VARIANTS, design
from engine.experiments.measures import Moments, PairedSums, VariantTally, lead_changes, play_experiment_chunk
from engine.experiments.report import (
    adjust,
    differences,
    next_round_games,
    precision_state,
    sentence,
    stop_reason,
    variant_measures,
)
from engine.experiments.statistics import confidence_sequence_radius, fixed_half_width, holm, paired_difference
from engine.simulate import game_seed, play_chunk, play_game

CARS = get_ruleset("monopoly-cars2")


def sweep(values=(10, 26), **extra):
    return design(CARS, 2, {}, ["random", "random"], [], {"starting_money": list(values), **extra})


def test_a_sweep_of_two_options_is_their_grid_after_the_base():
    variants = sweep((10, 20), spinner_faces=[[1, 2, 3], [4, 5, 6]])
    assert [v.name for v in variants] == ["base", "starting_money=10, spinner_faces=[1,2,3]",
                                          "starting_money=10, spinner_faces=[4,5,6]",
                                          "starting_money=20, spinner_faces=[1,2,3]",
                                          "starting_money=20, spinner_faces=[4,5,6]"]
    assert variants[4].options == {"starting_money": 20, "spinner_faces": [4, 5, 6]}


@pytest.mark.parametrize(("make", "path"), [
    (lambda: sweep(turn_cap=[100], spinner_faces=[[1]]), ["sweep"]),
    (lambda: sweep(range(MAX_VARIANTS + 1)), ["sweep"]),
    (lambda: design(CARS, 2, {}, ["random"] * 2, [], {"colour": ["red"]}), ["sweep", "colour"]),
    (lambda: sweep((10, -5)), ["sweep", "starting_money", "1"]),
    (lambda: design(CARS, 2, {}, ["random"] * 2, [{"name": "x", "options": {"starting_money": "lots"}}], {}),
     ["variants", "0", "options", "starting_money"]),
    (lambda: design(CARS, 2, {}, ["random"] * 2, [{"name": "x", "bots": ["genius"]}], {}), ["variants", "0", "bots"]),
    (lambda: design(CARS, 2, {}, ["random"] * 2, [], {}), ["variants"]),
])
def test_bad_variants_name_the_field(make, path):
    with pytest.raises(InvalidOptions) as caught:
        make()
    where = caught.value.fields
    for key in path:
        assert key in where, (path, caught.value.fields)
        where = where[key]


def test_chunks_of_an_experiment_merge_into_one_run():
    variants = sweep()
    whole = play_experiment_chunk(CARS.id, 2, variants, [0, 1, 2], 7, 0, 60)
    parts = [play_experiment_chunk(CARS.id, 2, variants, [0, 1, 2], 7, start, 20) for start in (40, 0, 20)]
    for v in (0, 1, 2):
        merged = VariantTally.empty(2, variants[v].bots)
        for part in parts:
            merged.merge(part[v])
        got, want = merged.to_dict(), whole[v].to_dict()
        got["tally"].pop("seconds"), want["tally"].pop("seconds")
        assert got == want


def test_each_variant_plays_the_games_of_a_plain_simulation_of_its_options():
    variants = sweep((10, 26))
    tallies = play_experiment_chunk(CARS.id, 2, variants, [0, 1, 2], 3, 0, 40)
    for v, variant in enumerate(variants):
        plain = play_chunk(CARS.id, 2, variant.bots, variant.options, 3, 0, 40)
        assert (tallies[v].tally.wins, tallies[v].tally.turns) == (plain.wins, plain.turns)


def test_the_paired_difference_is_the_mean_of_the_games_differences():
    variants = sweep((26,))
    tallies = play_experiment_chunk(CARS.id, 2, variants, [0, 1], 9, 0, 50)
    seat0 = []
    for index in range(50):
        base, other = (play_game(CARS, 2, v.bots, v.options, game_seed(9, index)) for v in variants)
        seat0.append((other.result.winners == [0]) - (base.result.winners == [0]))
    mean = sum(seat0) / 50
    sd = math.sqrt(sum((d - mean) ** 2 for d in seat0) / 49)
    got = differences(tallies[1])["win_rates"][0]
    assert got["difference"] == pytest.approx(mean, abs=1e-6)
    assert got["ci95"] == pytest.approx([mean - 1.959964 * sd / math.sqrt(50), mean + 1.959964 * sd / math.sqrt(50)],
                                        abs=1e-5)
    assert got["pairs"] == 50


def test_pairs_of_identical_games_have_no_variance_and_full_correlation():
    sums = PairedSums()
    for value in (1, 0, 1, 1, 0):
        sums.add(value, value)
    got = paired_difference(sums)
    assert got["difference"] == 0 and got["ci95"] == [0, 0] and got["correlation"] == 1.0
    assert got["unpaired_half_width"] > 0


def test_holm_steps_down():
    assert holm([0.01, 0.04, 0.03, 0.005]) == [0.03, 0.06, 0.06, 0.02]
    assert holm([0.5]) == [0.5]


def test_lead_changes_ignore_ties():
    assert lead_changes([0, 0, -1, 0, 1, -1, 1, 0]) == 2
    assert lead_changes([-1, -1]) == 0


def test_the_confidence_sequence_is_wider_than_one_look_and_narrows():
    radii = [confidence_sequence_radius(n, 0.5, 10_000) for n in (100, 1000, 10_000, 100_000)]
    assert radii == sorted(radii, reverse=True)
    for n, radius in zip((100, 1000, 10_000, 100_000), radii, strict=True):
        assert fixed_half_width(0.5, n) < radius
    # Near the size it is tuned for, the price of looking at every round is under 2x the width.
    assert radii[2] < 2 * fixed_half_width(0.5, 10_000)


def test_the_confidence_sequence_covers_a_coin_at_every_look():
    """1000 runs of a fair coin, looked at every 50 flips up to 5000: the 95% sequence must miss
    0.5 in at most about 5% of the runs, where one-look intervals miss far more often."""
    rng = random.Random(4)
    missed_sequence = missed_naive = 0
    for _ in range(300):
        heads = 0
        sequence_miss = naive_miss = False
        for n in range(1, 5001):
            heads += rng.random() < 0.5
            if n % 50 == 0:
                p = heads / n
                sd = math.sqrt(p * (1 - p))
                sequence_miss |= abs(p - 0.5) > confidence_sequence_radius(n, sd, 2000)
                naive_miss |= abs(p - 0.5) > fixed_half_width(sd, n)
        missed_sequence += sequence_miss
        missed_naive += naive_miss
    assert missed_sequence <= 0.08 * 300
    assert missed_naive > 2 * missed_sequence


def _tally_of(wins_and_pairs: list[tuple[int, int]], positions: list[tuple[int, int]] | None = None) -> VariantTally:
    """Two seats' games: (seat 0 won, the base's seat 0 won) each; ``positions`` the same for the first
    mover (None: no turn order counted, as in a chunk recorded before it was)."""
    tally = VariantTally.empty(2, ["random", "random"])
    tally.tally.games = len(wins_and_pairs)
    tally.tally.wins = [sum(x for x, _ in wins_and_pairs), sum(1 - x for x, _ in wins_and_pairs)]
    for x, y in wins_and_pairs:
        tally.paired_wins[0].add(x, y)
        tally.paired_wins[1].add(1 - x, 1 - y)
    for x, y in positions or []:
        tally.tally.positions.games += 1
        tally.tally.positions.wins[1 - x] += 1
        tally.paired_positions[0].add(x, y)
        tally.paired_positions[1].add(1 - x, 1 - y)
    return tally


def test_a_variant_plays_on_while_its_first_mover_is_undecided_though_its_seats_are():
    stop = {"difference_within": 0.02, "win_rate_within": 0.05, "max_games": 100_000, "min_games": 100}
    rng = random.Random(2)
    seats = [(1, 0)] * 1500 + [(0, 0)] * 1500
    noisy = [(int(rng.random() < 0.5), int(rng.random() < 0.5)) for _ in range(3000)]
    state = precision_state(_tally_of(seats, positions=noisy), stop, compared=1)
    assert state["verdicts"] == ["different", "different"] and state["position_verdicts"] == [None, None]
    assert state["win_rate_met"] and not state["difference_met"]
    assert stop_reason(state, stop, is_base=False) is None
    decided = precision_state(_tally_of(seats, positions=seats), stop, compared=1)
    assert decided["position_verdicts"] == ["different", "different"]
    assert stop_reason(decided, stop, is_base=False) == "precision"
    # Games without their turn order (chunks of an older worker) leave the rule to the seats.
    assert stop_reason(precision_state(_tally_of(seats), stop, compared=1), stop, is_base=False) == "precision"


def test_a_first_mover_win_rate_short_of_precision_keeps_the_base_playing():
    stop = {"win_rate_within": 0.05, "max_games": 100_000, "min_games": 100}
    many = [(1, 0), (0, 0)] * 1500
    state = precision_state(_tally_of(many, positions=many[:100]), stop, 1)
    assert state["win_rate_radius"][0] < 0.05 < state["position_win_rate_radius"][0]
    assert stop_reason(state, stop, is_base=True) is None


def test_a_clear_difference_stops_the_variant_and_a_budget_stops_the_rest():
    stop = {"difference_within": 0.02, "max_games": 4000, "min_games": 100}
    clear = _tally_of([(1, 0)] * 300 + [(0, 0)] * 300)
    state = precision_state(clear, stop, compared=1)
    assert state["verdicts"] == ["different", "different"]
    assert stop_reason(state, stop, is_base=False) == "difference_decided"
    rng = random.Random(1)
    noisy = _tally_of([(int(rng.random() < 0.5), int(rng.random() < 0.5)) for _ in range(400)])
    state = precision_state(noisy, stop, compared=1)
    assert stop_reason(state, stop, is_base=False) is None
    assert stop_reason({**state, "games": 4000}, stop, is_base=False) == "budget"


def test_identical_variants_are_found_equivalent():
    stop = {"difference_within": 0.02, "max_games": 100_000, "min_games": 100}
    same = _tally_of([(1, 1)] * 2000 + [(0, 0)] * 2000)
    assert stop_reason(precision_state(same, stop, compared=3), stop, is_base=False) == "difference_decided"


def test_win_rate_precision_needs_enough_games():
    stop = {"win_rate_within": 0.05, "max_games": 100_000, "min_games": 100}
    few = _tally_of([(1, 0), (0, 0)] * 50)
    many = _tally_of([(1, 0), (0, 0)] * 1500)
    assert stop_reason(precision_state(few, stop, 1), stop, is_base=True) is None
    assert stop_reason(precision_state(many, stop, 1), stop, is_base=True) == "win_rate_precision"


def test_rounds_grow_by_a_tenth_in_whole_chunks_within_the_budget():
    stop = {"min_games": 1000, "max_games": 5000}
    assert next_round_games(0, stop, 250) == 1000
    assert next_round_games(1000, stop, 250) == 250
    assert next_round_games(4000, stop, 300) == 600
    assert next_round_games(4900, stop, 250) == 100


def test_the_report_names_the_most_balanced_variant():
    variants = sweep((10, 26))
    tallies = play_experiment_chunk(CARS.id, 2, variants, [0, 1, 2], 5, 0, 80)
    reports = []
    for v, variant in enumerate(variants):
        report = variant_measures(CARS.id, 5, variant, tallies[v])
        report["difference"] = differences(tallies[v]) if v else None
        reports.append(report)
    adjust(reports)
    assert all("p_holm" in d for r in reports[1:] for d in r["difference"]["win_rates"])
    assert all("p_holm" in d for r in reports[1:] for d in r["difference"]["position_win_rates"])
    best = min(reports[1:], key=lambda r: abs(r["first_mover_edge"]["value"]))
    assert sentence(reports).startswith(f"with {best['name']} the first mover's edge is ")
    assert reports[2]["turns"]["mean"] > reports[1]["turns"]["mean"]  # more money, longer games
    assert Moments(2, 3, 5).n == 2


def test_a_lineup_comparison_shows_the_skill_share():
    strong_first = {"name": "strong first", "bots": ["heuristic", "random"]}
    variants = design(CARS, 2, {}, ["random", "random"], [strong_first], {})
    assert variants[1].bots == ["heuristic", "random"] and variants[1].options == {}
    tallies = play_experiment_chunk(CARS.id, 2, variants, [0, 1], 2, 0, 60)
    report = variant_measures(CARS.id, 2, variants[1], tallies[1])
    heuristic = report["bot_stats"]["heuristic"]
    assert heuristic["skill_share"] == pytest.approx(heuristic["win_rate"] - 0.5, abs=1e-6)
    assert heuristic["skill_share_ci95"] == pytest.approx([b - 0.5 for b in heuristic["win_rate_ci95"]], abs=1e-6)
    assert report["bot_stats"]["random"]["games"] == 60


def test_eliminations_are_counted_with_the_turn_of_the_first():
    whipcash = get_ruleset("whipcash")
    variants = design(whipcash, 3, {}, ["heuristic"] * 3, [{"name": "same"}], {})
    tallies = play_experiment_chunk(whipcash.id, 3, variants, [0], 4, 0, 30)
    eliminations = variant_measures(whipcash.id, 4, variants[0], tallies[0])["eliminations"]
    # A game of Whipca$h ends with one player standing: two of three are out, the first partway through.
    assert (eliminations["count"], eliminations["seats_per_game"]) == (30, 2.0)
    assert 0 < eliminations["first_at"]["mean"] < 1
    assert tallies[0].elimination_games == 30 and tallies[0].first_elimination.n == 30
