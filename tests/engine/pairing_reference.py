"""Independent answers to "which tables of a round repeat fewest meetings", for checking
``engine.competition.table_search``: every plan of a small field (exhaustive), and for larger
fields whether any plan avoids every repeat (a plain memoised search over seat-by-seat choices,
with no bounds, orderings or symmetries of its own). bench/swiss.py uses them too."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from functools import cache


@cache
def all_plans(count: int, size: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Every partition of ``0 .. count - 1`` into tables of ``size`` (15,400 for 12 entrants at three)."""

    def plans(free: tuple[int, ...]) -> Iterator[tuple[tuple[int, ...], ...]]:
        if not free:
            yield ()
            return
        first, rest = free[0], free[1:]
        for others in itertools.combinations(rest, size - 1):
            left = tuple(entrant for entrant in rest if entrant not in others)
            for plan in plans(left):
                yield ((first, *others), *plan)

    return tuple(plans(tuple(range(count))))


def meetings(count: int, earlier: Sequence[Sequence[Sequence[int]]]) -> list[list[int]]:
    met = [[0] * count for _ in range(count)]
    for tables in earlier:
        for table in tables:
            for a, b in itertools.combinations(table, 2):
                met[a][b] += 1
                met[b][a] += 1
    return met


def plan_cost(plan: Sequence[Sequence[int]], met: Sequence[Sequence[int]]) -> tuple[int, int]:
    """(repeats, spread): the meetings of the pairs seated together, the squared spreads of positions."""
    repeats = sum(met[a][b] for table in plan for a, b in itertools.combinations(table, 2))
    return repeats, sum((max(table) - min(table)) ** 2 for table in plan)


def best_costs(count: int, size: int, earlier: Sequence[Sequence[Sequence[int]]]) -> tuple[int, tuple[int, int]]:
    """By trying every plan: the fewest repeats, and the least (repeats, spread) in that order."""
    met = meetings(count, earlier)
    costs = [plan_cost(plan, met) for plan in all_plans(count, size)]
    return min(repeats for repeats, _ in costs), min(costs)


def plan_without_repeats_exists(count: int, size: int, earlier: Sequence[Sequence[Sequence[int]]]) -> bool:
    """Whether the entrants split into tables where nobody met anyone before: the first free entrant
    and every choice of unmet companions, memoised by the set of free entrants."""
    met = meetings(count, earlier)
    unmet = [{b for b in range(count) if b != a and not met[a][b]} for a in range(count)]

    @cache
    def completes(free: frozenset[int]) -> bool:
        if not free:
            return True
        first = min(free)
        candidates = sorted(unmet[first] & free)
        for others in itertools.combinations(candidates, size - 1):
            if all(b in unmet[a] for a, b in itertools.combinations(others, 2)) and \
                    completes(free - {first, *others}):
                return True
        return False

    return completes(frozenset(range(count)))
