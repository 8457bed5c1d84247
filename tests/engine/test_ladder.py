"""The ladder's arithmetic (engine/ladder.py) on synthetic results whose answer is known."""

from __future__ import annotations

import math

import pytest

from engine.ladder import (
    Outcome,
    bot_records,
    bradley_terry,
    elo_ratings,
    games_per_lineup,
    interval_above,
    lineups,
    pairing_summary,
    pairings,
    pairwise_wins,
    ruleset_ratings,
)
from engine.simulate import wilson_interval


def test_a_pairing_rotates_each_bot_alone_over_every_seat():
    seated = lineups("a", "b", 4)
    assert len(seated) == 8
    for lone, crowd in (("a", "b"), ("b", "a")):
        alone = [lineup for lineup in seated if lineup.lone == lone]
        assert sorted(lineup.seat for lineup in alone) == [0, 1, 2, 3]
        for lineup in alone:
            assert lineup.bots[lineup.seat] == lone
            assert [bot for seat, bot in enumerate(lineup.bots) if seat != lineup.seat] == [crowd] * 3


def test_pairings_and_game_split():
    assert pairings(["r", "h", "m"]) == [("r", "h"), ("r", "m"), ("h", "m")]
    assert games_per_lineup(400, 4) == 50
    assert games_per_lineup(401, 4) == 51  # rounded up: every lineup plays as many games
    assert games_per_lineup(3, 4) == 1


def test_records_count_seat_games_and_pairwise_wins_count_only_other_bots():
    # A alone in seat 0 wins 6 of 10 games, a B seat wins 3, one draw.
    outcome = Outcome(("a", "b", "b", "b"), 10, (6, 1, 1, 1), 1)
    records = bot_records([outcome])
    assert (records["a"].seat_games, records["a"].wins) == (10, 6)
    assert (records["b"].seat_games, records["b"].wins) == (30, 3)
    beats = pairwise_wins([outcome])
    assert beats[("a", "b")] == 6 * 3 + 1 * 3 / 2   # beat each of three B seats; the draw, half per pair
    assert beats[("b", "a")] == 3 * 1 + 1 * 3 / 2   # a B winner beat the one A seat
    assert ("b", "b") not in beats


def test_two_bots_fit_their_odds_exactly():
    strengths = bradley_terry({("a", "b"): 30.0, ("b", "a"): 10.0}, ["a", "b"], prior=0)
    assert strengths["a"] / strengths["b"] == pytest.approx(3.0)
    elo = elo_ratings(strengths, "b")
    assert elo["b"] == 0
    assert elo["a"] == pytest.approx(400 * math.log10(3))


def test_known_strengths_are_recovered_from_their_expected_results():
    truth = {"r": 1.0, "h": 4.0, "m": 10.0}
    beats = {(x, y): 1000 * truth[x] / (truth[x] + truth[y]) for x in truth for y in truth if x != y}
    fitted = bradley_terry(beats, list(truth), prior=0)
    elo = elo_ratings(fitted, "r")
    for bot, strength in truth.items():
        assert elo[bot] == pytest.approx(400 * math.log10(strength), abs=1e-6)


def test_equal_bots_rate_equal():
    outcomes = [Outcome(("a", "b", "b", "b"), 100, (25, 25, 25, 25), 0),
                Outcome(("b", "a", "a", "a"), 100, (25, 25, 25, 25), 0)]
    ratings = {entry["bot"]: entry for entry in ruleset_ratings(["a", "b"], outcomes)}
    assert ratings["a"]["elo"] == pytest.approx(0, abs=1e-6)
    assert ratings["b"]["elo"] == pytest.approx(0, abs=1e-6)
    assert ratings["a"]["win_rate"] == ratings["b"]["win_rate"] == 0.25


def test_a_bot_that_always_wins_rates_higher_and_finitely():
    # "m" wins every game it plays; "h" beats "random" more often than not.
    outcomes = [
        Outcome(("m", "random", "random", "random"), 40, (40, 0, 0, 0), 0),
        Outcome(("random", "m", "m", "m"), 40, (0, 14, 13, 13), 0),
        Outcome(("m", "h", "h", "h"), 40, (40, 0, 0, 0), 0),
        Outcome(("h", "m", "m", "m"), 40, (0, 14, 13, 13), 0),
        Outcome(("h", "random", "random", "random"), 40, (20, 7, 7, 6), 0),
        Outcome(("random", "h", "h", "h"), 40, (4, 12, 12, 12), 0),
    ]
    ratings = {entry["bot"]: entry["elo"] for entry in ruleset_ratings(["random", "h", "m"], outcomes)}
    assert ratings["random"] == 0
    assert 0 < ratings["h"] < ratings["m"] < math.inf


def test_a_dominant_pairing_has_a_verdict_and_an_even_one_overlaps():
    lopsided = [Outcome(("a", "b", "b", "b"), 50, (40, 4, 3, 3), 0),
                Outcome(("b", "a", "a", "a"), 50, (1, 17, 16, 16), 0)]
    assert pairing_summary("a", "b", lopsided)["verdict"] == "a above b"
    assert pairing_summary("b", "a", lopsided)["verdict"] == "a above b"
    even = [Outcome(("a", "b", "b", "b"), 50, (13, 12, 13, 12), 0),
            Outcome(("b", "a", "a", "a"), 50, (12, 13, 12, 13), 0)]
    summary = pairing_summary("a", "b", even)
    assert summary["verdict"] == "overlap"
    assert summary["games"] == 100
    assert summary["records"]["a"]["seat_games"] == summary["records"]["b"]["seat_games"] == 200


@pytest.mark.parametrize(("wins", "trials"), [(0, 10), (3, 10), (50, 200), (199, 200), (10, 10)])
def test_wilson_intervals_bracket_the_rate(wins, trials):
    low, high = wilson_interval(wins, trials)
    assert 0 <= low <= wins / trials <= high <= 1
    wider_low, wider_high = wilson_interval(wins // 10, trials // 10)
    assert high - low < wider_high - wider_low  # ten times the trials, a narrower interval


def test_interval_above_means_wholly_above():
    assert interval_above([0.4, 0.5], [0.2, 0.39])
    assert not interval_above([0.4, 0.5], [0.2, 0.4])
    assert not interval_above([0.2, 0.3], [0.4, 0.5])


def test_a_bot_without_any_win_needs_the_prior():
    with pytest.raises(ValueError):
        bradley_terry({("a", "b"): 5.0}, ["a", "b"], prior=0)
    assert bradley_terry({("a", "b"): 5.0}, ["a", "b"])["a"] > 1
