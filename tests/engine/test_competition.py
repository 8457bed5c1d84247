"""engine/competition: ranks, openskill ratings, pairings and standings, without a server."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from openskill.models import PlackettLuce

from engine.competition import (
    Rating,
    TableResult,
    TournamentPlan,
    plan_round,
    plan_rounds_default,
    rank_points,
    ranks_from_result,
    rate,
    standings,
    table_seeds,
    tournament_problems,
)
from engine.competition.pairing import FORMATS, MAX_ENTRANTS, MAX_ROUNDS


def result(winners, ranking, scores, turn_cap=False):
    return {"winners": winners, "ranking": ranking, "scores": scores, "turn_cap_hit": turn_cap}


# -- ranks -----------------------------------------------------------------------------------


def test_ranks_follow_the_engine_ranking_and_a_shared_win_is_a_tie():
    assert ranks_from_result(result([2], [2, 0, 1], [5, 9, 1])) == [2, 3, 1]
    assert ranks_from_result(result([1, 3], [3, 1, 0, 2], [0, 0, 0, 0])) == [3, 1, 4, 1]


def test_a_turn_cap_game_ranks_by_scores_with_equal_scores_tied():
    # The engine's winners (e.g. by a tie-break on properties) do not count: the scores do.
    assert ranks_from_result(result([0], [0, 1, 2, 3], [50, 50, 70, 10], turn_cap=True)) == [2, 2, 1, 4]


def test_leavers_rank_after_everyone_who_stayed_tied_with_each_other():
    assert ranks_from_result(result([0], [0, 1, 2, 3], [9, 8, 7, 6]), leavers={0, 2}) == [3, 1, 3, 2]


# -- ratings ---------------------------------------------------------------------------------


def test_rate_is_openskill_plackett_luce_one_player_teams():
    before = [Rating(), Rating(30.0, 5.0), Rating(20.0, 7.0)]
    after = rate(before, [2, 1, 2])
    model = PlackettLuce()
    expected = model.rate([[model.rating(mu=r.mu, sigma=r.sigma)] for r in before], ranks=[2, 1, 2])
    assert [(r.mu, r.sigma) for r in after] == [(team[0].mu, team[0].sigma) for team in expected]
    assert after[1].mu > before[1].mu and after[0].mu < before[0].mu
    assert all(a.sigma < b.sigma for a, b in zip(after, before, strict=True))


def test_a_tie_between_equals_leaves_them_equal_and_ordinal_is_mu_minus_three_sigma():
    a, b = rate([Rating(), Rating()], [1, 1])
    assert a == b and a.mu == pytest.approx(25.0)
    assert a.ordinal == pytest.approx(a.mu - 3 * a.sigma)


# -- validation ------------------------------------------------------------------------------


def test_tournament_problems_name_the_field():
    names = [f"p{i}" for i in range(10)]
    assert tournament_problems("swiss", names[:8], 4, 3, 2, 6) == {}
    assert "table_size" in tournament_problems("swiss", names[:8], 9, 3, 2, 6)
    assert "entrants" in tournament_problems("duplicate", names, 4, 4, 2, 6)
    assert "duplicate" in tournament_problems("duplicate", names, 4, 4, 2, 6)["entrants"][0]
    assert "entrants" in tournament_problems("swiss", ["a", "a", "b", "c"], 2, 1, 2, 6)
    assert "rounds" in tournament_problems("duplicate", names[:8], 4, 3, 2, 6)
    assert "rounds" in tournament_problems("swiss", names[:8], 4, 0, 2, 6)
    assert "format" in tournament_problems("knockout", names[:8], 4, 1, 2, 6)
    # Every format's default number of rounds, for every field and table size, stays within MAX_ROUNDS,
    # or the absent `rounds` is named.
    for format in FORMATS:
        for size in range(2, 17):
            for count in range(size, MAX_ENTRANTS + 1, size):
                field = [f"p{i}" for i in range(count)]
                if "rounds" not in tournament_problems(format, field, size, None, 2, 16):
                    assert plan_rounds_default(format, count, size) <= MAX_ROUNDS, (format, count, size)
    assert "rounds" in tournament_problems("round_robin", [f"p{i}" for i in range(66)], 2, None, 2, 6)
    assert tournament_problems("round_robin", [f"p{i}" for i in range(66)], 2, 64, 2, 6) == {}


# -- pairing ---------------------------------------------------------------------------------


def play_tournament(plan: TournamentPlan, outcome=lambda table: tuple(range(1, len(table) + 1))):
    """Every round planned from the results before it; ``outcome`` gives a table's places."""
    results, rounds = [], []
    for r in range(plan.rounds):
        tables = plan_round(plan, r, results)
        rounds.append(tables)
        results += [TableResult(r, t, table, outcome(table)) for t, table in enumerate(tables)]
    return rounds, results


def assert_partitions(plan, rounds):
    for tables in rounds:
        seated = [entrant for table in tables for entrant in table]
        assert sorted(seated) == sorted(plan.entrants), "everyone at exactly one table"
        assert all(len(table) == plan.table_size for table in tables)


def test_round_robin_at_two_seats_meets_everyone_exactly_once():
    names = tuple(f"p{i}" for i in range(8))
    plan = TournamentPlan("round_robin", names, 2, plan_rounds_default("round_robin", 8, 2), 1)
    rounds, _ = play_tournament(plan)
    assert len(rounds) == 7
    assert_partitions(plan, rounds)
    met = Counter(frozenset(table) for tables in rounds for table in tables)
    assert set(met) == {frozenset(pair) for pair in itertools.combinations(names, 2)}
    assert set(met.values()) == {1}


def test_round_robin_at_four_seats_spreads_meetings():
    names = tuple(f"p{i}" for i in range(16))
    plan = TournamentPlan("round_robin", names, 4, plan_rounds_default("round_robin", 16, 4), 1)
    rounds, _ = play_tournament(plan)
    assert len(rounds) == 5  # 15 opponents, 3 a round
    assert_partitions(plan, rounds)
    met = Counter(frozenset(pair) for tables in rounds for table in tables for pair in itertools.combinations(table, 2))
    # 16 players, 4 to a table: a perfect schedule (an affine plane) exists; the search comes near it.
    assert len(met) >= 100 and max(met.values()) <= 2


def test_swiss_puts_leaders_together_and_avoids_repeats_where_possible():
    names = tuple(f"p{i:02}" for i in range(12))
    plan = TournamentPlan("swiss", names, 4, 4, 1)
    # The lowest entrant name at a table wins it, and so on: the standings stay in name order.
    rounds, _ = play_tournament(plan, outcome=lambda table: tuple(sorted(table).index(e) + 1 for e in table))
    assert_partitions(plan, rounds)
    first, second = rounds[0], rounds[1]
    assert {frozenset(t) for t in first} == {frozenset(names[0:4]), frozenset(names[4:8]), frozenset(names[8:12])}
    # round 2 puts the three round winners together, with the best second
    top = next(t for t in second if "p00" in t)
    assert {"p00", "p04", "p08"} <= set(top)
    pairs = Counter(frozenset(p) for tables in rounds[:2] for table in tables for p in itertools.combinations(table, 2))
    # Four seats from three first-round tables: each table must repeat one pair, and repeats no more.
    assert sum(count - 1 for count in pairs.values()) == 3 and max(pairs.values()) == 2


def test_swiss_seats_rotate_first_seats():
    names = tuple(f"p{i}" for i in range(8))
    plan = TournamentPlan("swiss", names, 4, 4, 1)
    rounds, _ = play_tournament(plan)
    firsts = Counter(tables[t][0] for tables in rounds for t in range(2))
    assert max(firsts.values()) <= 2


@pytest.mark.parametrize(("entrants", "size"), [(12, 4), (8, 2), (15, 5), (6, 3), (4, 4)])
def test_duplicate_seats_everyone_in_every_seat_and_shares_seeds_per_round(entrants, size):
    names = tuple(f"e{i}" for i in range(entrants))
    plan = TournamentPlan("duplicate", names, size, size, 99)
    rounds, _ = play_tournament(plan)
    assert_partitions(plan, rounds)
    seats = {name: sorted(table.index(name) for tables in rounds for table in tables if name in table)
             for name in names}
    assert all(got == list(range(size)) for got in seats.values())
    seeds = [table_seeds(plan, r, entrants // size) for r in range(size)]
    assert all(len(set(round_seeds)) == 1 for round_seeds in seeds)
    assert len({round_seeds[0] for round_seeds in seeds}) == size, "a new seed each round"
    swiss = TournamentPlan("swiss", names, size, size, 99)
    assert len(set(table_seeds(swiss, 0, entrants // size))) == entrants // size, "a seed per table elsewhere"


# -- standings -------------------------------------------------------------------------------


def test_points_wins_and_tie_breaks():
    assert rank_points((1, 2, 2, 4), 1) == 1.5
    assert rank_points((1, 1, 3), 0) == 1.5
    results = [TableResult(0, 0, ("a", "b"), (1, 2)), TableResult(0, 1, ("c", "d"), (1, 2)),
               TableResult(0, 2, ("e", "f"), (1, 2)), TableResult(1, 0, ("a", "c"), (1, 2)),
               TableResult(1, 1, ("b", "e"), (1, 2)), TableResult(1, 2, ("d", "f"), (1, 2))]
    # Seeded f first and a last: a leads on points; b, c, d, e have a point and a win each, and b and c
    # met stronger opponents (opposition 3 against 1), which outranks the seeding; seeding breaks the rest.
    table = standings("fedcba", results)
    assert [s.entrant for s in table] == ["a", "c", "b", "e", "d", "f"]
    by_name = {s.entrant: s for s in table}
    assert (by_name["a"].points, by_name["a"].wins, by_name["a"].games) == (2.0, 2, 2)
    assert (by_name["b"].opposition, by_name["e"].opposition) == (3.0, 1.0)
    assert [s.place for s in standings("abc", [])] == [1, 2, 3], "entrant order breaks the last tie"


def test_duplicate_matchpoints_compare_the_same_seat_of_the_same_deal():
    results = [TableResult(0, 0, ("a", "b"), (1, 2)), TableResult(0, 1, ("c", "d"), (2, 1)),
               TableResult(0, 2, ("e", "f"), (1, 2))]
    table = {s.entrant: s for s in standings("abcdef", results, duplicate=True)}
    # seat 0: a and e won, c lost: a and e get 1 + 0.5, c 0; seat 1: d won, b and f lost
    assert (table["a"].matchpoints, table["e"].matchpoints, table["c"].matchpoints) == (1.5, 1.5, 0.0)
    assert table["d"].matchpoints == 2.0 and table["d"].place == 1
