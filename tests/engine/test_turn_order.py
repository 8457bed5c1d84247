"""The shared opening roll-offs: who rolls when, and how ties are settled."""

from __future__ import annotations

from collections.abc import Callable

from engine.core.turn_order import roll_for_first, roll_for_order


def scripted(values: list) -> Callable[[], object]:
    return iter(values).__next__


def test_roll_for_first_rerolls_only_the_tied_highest_until_one_is_left():
    first, rolls = roll_for_first(range(4), scripted([5, 2, 5, 1, 3, 3, 6, 4]))
    assert first == [0]
    assert rolls == [(1, 0, 5), (1, 1, 2), (1, 2, 5), (1, 3, 1), (2, 0, 3), (2, 2, 3), (3, 0, 6), (3, 2, 4)]


def test_roll_for_first_stops_after_max_rounds_with_the_seats_still_tied():
    tied, rolls = roll_for_first(range(3), scripted([4, 4, 1, 4, 4]), max_rounds=2)
    assert tied == [0, 1]
    assert [r[0] for r in rolls] == [1, 1, 1, 2, 2]


def test_roll_for_order_settles_the_best_tied_group_first_and_scores_by_the_given_key():
    # Round 1: 7, 11, 7, 11 -> seats 1 and 3 re-roll first (3 beats 1), then seats 0 and 2 (0 beats 2).
    dice = [[3, 4], [5, 6], [4, 3], [6, 5], [1, 1], [6, 6], [2, 2], [1, 2]]
    order, rolls = roll_for_order(range(4), scripted(dice), score=sum)
    assert order == [3, 1, 0, 2]
    assert [(r[0], r[1]) for r in rolls] == [(1, 0), (1, 1), (1, 2), (1, 3), (2, 1), (2, 3), (2, 0), (2, 2)]
