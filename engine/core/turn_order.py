"""Opening roll-offs: who goes first, or the whole order of play, by rolling (or spinning); and the
order of play of a table that goes round clockwise from its first player (``clockwise_from``).

Both helpers draw in the same order: a round rolls for every seat still in it, seat by seat;
ties roll again among themselves in the next round. ``roll`` is called once per seat and round,
so the game decides what a roll is (two dice, a spinner...); ``score`` turns it into the number
compared (default: the roll itself). Every roll comes back as ``(round, seat, roll)`` so the game
can keep and tell them in its own shape.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

Rolled = tuple[int, int, Any]


def clockwise_from(first: int, players: int) -> list[int]:
    """The seats in turn-order position at a table whose seat numbers go clockwise and whose play goes
    round clockwise from ``first``: ``first``, ``first + 1``, ..., wrapping past the last seat to 0."""
    return [(first + step) % players for step in range(players)]


def _roll_round(group: Sequence[int], round_number: int, roll: Callable[[], Any],
                score: Callable[[Any], int] | None, rolls: list[Rolled]) -> list[list[int]]:
    """Roll once for each seat of ``group``; the seats grouped by equal score, best first."""
    totals = {}
    for seat in group:
        value = roll()
        rolls.append((round_number, seat, value))
        totals[seat] = value if score is None else score(value)
    return [[seat for seat in group if totals[seat] == total]
            for total in sorted(set(totals.values()), reverse=True)]


def roll_for_first(seats: Sequence[int], roll: Callable[[], Any], score: Callable[[Any], int] | None = None,
                   max_rounds: int | None = None) -> tuple[list[int], list[Rolled]]:
    """Everyone rolls, the highest goes first; the tied highest roll again among themselves.

    Returns the seats still tied for first (a single seat, unless ``max_rounds`` ran out, which
    only a roll that cannot differ makes likely) and every roll made.
    """
    rolls: list[Rolled] = []
    contenders = list(seats)
    round_number = 1
    while True:
        contenders = _roll_round(contenders, round_number, roll, score, rolls)[0]
        if len(contenders) == 1 or round_number == max_rounds:
            return contenders, rolls
        round_number += 1


def roll_for_order(seats: Sequence[int], roll: Callable[[], Any],
                   score: Callable[[Any], int] | None = None) -> tuple[list[int], list[Rolled]]:
    """Ranks every seat by its roll, highest first; each group of tied seats re-rolls among itself.

    Tied groups are settled depth first, the best group first, so its re-rolls come before
    those of any group ranked below it.
    """
    rolls: list[Rolled] = []

    def rank(group: Sequence[int], round_number: int) -> list[int]:
        ordered: list[int] = []
        for tied in _roll_round(group, round_number, roll, score, rolls):
            ordered += tied if len(tied) == 1 else rank(tied, round_number + 1)
        return ordered

    return rank(seats, 1), rolls
