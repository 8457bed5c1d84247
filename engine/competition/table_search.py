"""A round's tables with the fewest repeated meetings, then the closest standings (docs/competition.md,
"How a round's tables are formed").

Entrants are numbers ``0 .. count - 1`` by position (in Swiss, the standing: 0 leads). Two costs:

- **repeats**: over every two entrants seated at one table, how often they met before (a pair that met
  twice counts 2). Zero exactly when nobody meets anyone again.
- **spread**: over the tables, the square of each table's spread in positions (its last entrant's
  position minus its first's). Consecutive blocks of positions have the least; the square makes one
  wide table cost more than two slightly wider ones.

Repeats come first; spread only orders the plans of the fewest repeats (``by_standing``; round robin
ignores it). At two seats a plan is a perfect matching, and the blossom algorithm (networkx's
``max_weight_matching``) finds the plan of fewest repeats, then least spread, exactly, at any size.
At more seats a plan without repeats is a partition into cliques (NP-complete), so a depth-first
branch and bound searches the plans, in two phases, each stopped after a fixed number of nodes (a
node: one entrant tried at a seat, one table's bounds read, or one swap weighed), ``REPEAT_WORK`` and
``SPREAD_WORK`` divided by the entrants (a node reads each free entrant about once). Counting nodes
instead of seconds makes the plan a function of the inputs alone, whatever the machine's load.

1. Repeats. First a lower bound: per entrant, the fewest repeats of any table it can sit at (a small
   search each, ``Meetings.cheapest_tables``). Then two first plans, each bettered by swapping two
   entrants between tables while a swap lowers the repeats, the one of fewer repeats kept: this
   search's first descent (each table formed around the free entrant with the fewest free entrants
   it has not met, the hardest to seat, then members cheapest first), and tables by standing (the
   best free entrant, then whoever repeats fewest; its swaps may also keep the repeats and bring
   standings closer, which moves it off plateaus). If the plan kept has repeats and the bound allows
   none, a search offered only unmet companions looks for a plan without any (in every measured
   round it decided in a few hundred nodes). Then the branch and bound: tables formed as in the
   first descent; a table is a set (its members are tried in one order, never as permutations) and
   tables are never reordered, so each plan is met once. A branch is cut when its repeats plus a
   lower bound on the rest's reach the best plan's (``Meetings.cheapest_companions``); a set of free
   entrants searched to the end is not searched again for less (``memo``). The phase ends when a plan
   meets the root's bound or the tree is exhausted (the repeats are then proven fewest), or at its
   node bound (the best plan found). Swapping interchangeable entrants (same meetings with everyone
   else) was tried as a further symmetry break: it saved 1,506 of 2.9 million nodes over 126 Swiss
   rounds, and was left out.
2. Spread (Swiss only): from phase 1's plan, swaps while one lowers the repeats, or keeps them and
   lowers the spread; then a branch and bound among plans of at most those repeats, each table headed
   by the best free entrant and members by position, cut by the spread of consecutive blocks (the
   least the free entrants can have) and by the repeats bound. It ends exhausted, at a plan of the
   least possible spread, or at its node bound.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import networkx

from engine.competition.meetings import Meetings

#: The repeats phase's nodes at most, times the entrants: 250,000 nodes for 24 entrants, 23,437 for 256
#: (docs/competition.md has the measured figures). Its first plan is always completed, whatever the bound.
REPEAT_WORK = 6_000_000
#: Each phase spends at most this share of its nodes on its bounds' table floors (repeats) and on
#: improving its first plan by swaps.
SHARE = 4
#: The spread phase's nodes at most, times the entrants (41,666 nodes for 24 entrants).
SPREAD_WORK = 1_000_000


@dataclass(frozen=True, slots=True)
class Tables:
    """A round's tables (positions, each table and the tables in position order) and what is known of
    them: ``fewest`` when no plan has fewer repeats (the search finished), ``closest`` when no plan of
    as few repeats has less spread."""

    tables: tuple[tuple[int, ...], ...]
    repeats: int
    spread: int
    fewest: bool
    closest: bool
    nodes: int  # the search's nodes, both phases (0 for a matching)


class _Stop(Exception):
    """The node limit is reached, or the plan cannot be bettered: the search unwinds."""


class _FirstPlan(Exception):
    """The first descent has its plan."""


def form_tables(count: int, size: int, earlier: Sequence[Sequence[Sequence[int]]], *, by_standing: bool,
                repeat_work: int = REPEAT_WORK, spread_work: int = SPREAD_WORK) -> Tables:
    """The tables of ``size`` of ``count`` entrants (``count`` a multiple of ``size``), given the
    ``earlier`` rounds' tables (positions; each round a partition of the entrants)."""
    if size < 2 or count % size:
        raise ValueError(f"{count} entrants do not divide into tables of {size}")
    meetings = Meetings(count, size, earlier)
    if size == 2:
        return _matched(meetings, by_standing)
    found = _FewestRepeats(meetings, repeat_work // count).run()
    if by_standing:
        found = _ClosestStandings(meetings, found, spread_work // count).run()
    return found


def spread_of(table: Sequence[int]) -> int:
    return (max(table) - min(table)) ** 2


def repeats_of(table: Sequence[int], met: Sequence[Sequence[int]]) -> int:
    return sum(met[a][b] for a, b in itertools.combinations(table, 2))


def _ordered(tables: list[tuple[int, ...]], meetings: Meetings, nodes: int, fewest: bool, closest: bool) -> Tables:
    tables = sorted(tuple(sorted(table)) for table in tables)
    return Tables(tuple(tables), sum(repeats_of(table, meetings.met) for table in tables),
                  sum(spread_of(table) for table in tables), fewest, closest, nodes)


def _matched(meetings: Meetings, by_standing: bool) -> Tables:
    """Two seats: a minimum-cost perfect matching, repeats weighted above any spread (the largest total
    spread is below ``weight``), so the matching minimises repeats first, then spread.

    By standing, only pairs ``a < b`` with ``b - a <= met(a) + met(b) + 1`` are offered (``met(x)``: how
    many entrants ``x`` met), which loses no optimum: in a plan with a pair farther apart, some ``c``
    between them can trade partners (``a`` with ``c`` and ``b`` with ``c``'s partner, or ``a`` with
    ``c``'s partner and ``b`` with ``c`` when that partner precedes ``a``) into two new pairs of less
    squared spread, and no more repeats unless ``a`` or ``b`` met one of them; each entrant ``a`` met
    blocks one ``c`` at most, so with more entrants between than ``met(a) + met(b)`` one trade is open
    and the plan was not the best. 256 entrants after eight rounds: about 4,000 pairs instead of
    32,640."""
    n = meetings.count
    weight = (n // 2) * (n - 1) ** 2 + 1 if by_standing else 1
    met_count = [n - 1 - meetings.unmet[a].bit_count() for a in range(n)]
    most = max(met_count)
    graph = networkx.Graph()
    for a in range(n):
        reach = a + met_count[a] + most + 2 if by_standing else n
        for b in range(a + 1, min(n, reach)):
            if by_standing and b - a > met_count[a] + met_count[b] + 1:
                continue
            graph.add_edge(a, b, weight=-(meetings.met[a][b] * weight + ((b - a) ** 2 if by_standing else 0)))
    matching = networkx.max_weight_matching(graph, maxcardinality=True)
    return _ordered([tuple(pair) for pair in matching], meetings, 0, True, True)


def _swap_descent(meetings: Meetings, plan: Sequence[Sequence[int]], nodes: int, *,
                  by_standing: bool) -> tuple[list[tuple[int, ...]], int]:
    """Better a plan by swapping two entrants of two tables while that lowers the repeats (by standing:
    the repeats, then the spread), the first such swap each time, in table and seat order, until a pass
    over every two tables finds none or ``nodes`` swaps were weighed. The plan, and the swaps weighed.
    Without standings only tables with a repeat are looked at: no swap between two without one helps."""
    met = meetings.met
    tables = [list(table) for table in plan]
    repeats = [repeats_of(table, met) for table in tables]
    weighed, improved = 0, True
    while improved:
        improved = False
        for i, first in enumerate(tables):
            for j in range(i + 1, len(tables)):
                if not by_standing and not (repeats[i] or repeats[j]):
                    continue
                second = tables[j]
                for xi in range(len(first)):
                    for yi in range(len(second)):
                        weighed += 1
                        if weighed > nodes:
                            return [tuple(table) for table in tables], nodes
                        x, y = first[xi], second[yi]
                        gain_first = sum(met[x][a] - met[y][a] for a in first if a != x)
                        gain_second = sum(met[y][b] - met[x][b] for b in second if b != y)
                        gain = gain_first + gain_second
                        if gain < 0 or (gain == 0 and not by_standing):
                            continue
                        before = spread_of(first) + spread_of(second)
                        first[xi], second[yi] = y, x
                        if gain == 0 and spread_of(first) + spread_of(second) >= before:
                            first[xi], second[yi] = x, y  # no closer: undone
                            continue
                        repeats[i] -= gain_first
                        repeats[j] -= gain_second
                        improved = True
    return [tuple(table) for table in tables], weighed


def _by_position(meetings: Meetings) -> list[tuple[int, ...]]:
    """Tables formed by position: the first free entrant, then whoever repeats fewest meetings with those
    seated (the first position of those)."""
    met, free, tables = meetings.met, list(range(meetings.count)), []
    while free:
        table = [free.pop(0)]
        while len(table) < meetings.size:
            pick = min(range(len(free)), key=lambda i: (sum(met[free[i]][a] for a in table), i))
            table.append(free.pop(pick))
        tables.append(tuple(table))
    return tables


class _FewestRepeats:
    """Phase 1: branch and bound on repeats (module docstring)."""

    def __init__(self, meetings: Meetings, limit: int) -> None:
        self.meetings, self.limit, self.nodes = meetings, limit, 0
        self.best: list[tuple[int, ...]] = []
        self.best_repeats = 1 << 62
        self.memo: dict[int, int] = {}  # free set -> its completion costs at least this many repeats
        self.root_bound = 0
        self.first_only = False

    def run(self) -> Tables:
        everyone = (1 << self.meetings.count) - 1
        meetings = self.meetings
        try:
            self.nodes += meetings.cheapest_tables(self.limit // SHARE)
            self.root_bound = meetings.cheapest_companions(everyone)[0]
            self.first_only = True
            with contextlib.suppress(_FirstPlan):
                self._search(everyone, 0, [])
            if self.best_repeats > self.root_bound:
                # Two first plans bettered by swaps, the fewer repeats kept: this search's, and the one
                # by standing (each table the best free entrant, then whoever repeats fewest).
                starts = []
                for plan, by_standing in ((self.best, False), (_by_position(meetings), True)):
                    swapped, spent = _swap_descent(meetings, plan, self.limit // SHARE // 2, by_standing=by_standing)
                    self.nodes += spent
                    starts.append((sum(repeats_of(table, meetings.met) for table in swapped), swapped))
                self.best_repeats, self.best = min(starts, key=lambda start: start[0])
            self.first_only = False
            if self.best_repeats > self.root_bound == 0:
                self._without_repeats(everyone)
            if self.best_repeats > self.root_bound:
                self._search(everyone, 0, [])
            exhausted = True
        except _Stop:
            exhausted = False
        fewest = exhausted or self.best_repeats <= self.root_bound
        return _ordered(self.best, meetings, self.nodes, fewest, False)

    def _without_repeats(self, everyone: int) -> None:
        """Look for a plan without any repeat before any plan with fewer repeats than the best: only
        unmet entrants are offered at each seat, so this search is small. A plan found ends the phase
        (it meets the root's bound); free sets it exhausts keep a bound of one repeat (``memo``) for
        the search after it."""
        best, best_repeats = self.best, self.best_repeats
        self.best_repeats = 1  # the cutoff: plans of no repeat only
        try:
            self._search(everyone, 0, [])
        finally:
            if self.best_repeats:  # none found: the best plan stays
                self.best, self.best_repeats = best, best_repeats

    def _tick(self) -> None:
        self.nodes += 1
        # The first descent (one node per entrant: it never backtracks) always ends in a plan.
        if self.nodes > self.limit and self.best:
            raise _Stop

    def _search(self, free: int, spent: int, plan: list[tuple[int, ...]]) -> None:
        if not free:
            if spent < self.best_repeats:
                self.best, self.best_repeats = list(plan), spent
                if spent <= self.root_bound:
                    raise _Stop  # nothing can do better
                if self.first_only:
                    raise _FirstPlan
            return
        self._tick()
        if spent + self.memo.get(free, 0) >= self.best_repeats:
            return  # searched before, for as little
        bound, head = self.meetings.cheapest_companions(free)
        if spent + bound >= self.best_repeats:
            return
        self._members(free & ~(1 << head), [head], 0, free, spent, plan)
        # Searched to the end: whatever completes ``free`` costs at least this.
        self.memo[free] = max(self.memo.get(free, 0), self.best_repeats - spent)

    def _members(self, pool: int, table: list[int], cost: int, free: int, spent: int,
                 plan: list[tuple[int, ...]]) -> None:
        meetings = self.meetings
        if len(table) == meetings.size:
            plan.append(tuple(table))
            self._search(free & ~sum(1 << a for a in table), spent + cost, plan)
            plan.pop()
            return
        allowed = self.best_repeats - 1 - spent - cost  # the most this table may still add
        met = meetings.met
        options = []
        if allowed == 0:  # only entrants who met nobody at the table
            rest = pool
            for a in table:
                rest &= meetings.unmet[a]
            while rest:
                low = rest & -rest
                options.append((0, low.bit_length() - 1))
                rest ^= low
        else:
            rest = pool
            while rest:
                low = rest & -rest
                c = low.bit_length() - 1
                rest ^= low
                added = sum(met[c][a] for a in table)
                if added <= allowed:
                    options.append((added, c))
        options.sort()
        need = meetings.size - len(table)
        remaining = sum(1 << c for _, c in options)
        for added, c in options:
            if remaining.bit_count() < need:
                return
            self._tick()
            remaining &= ~(1 << c)
            table.append(c)
            self._members(remaining, table, cost + added, free, spent, plan)
            table.pop()


class _ClosestStandings:
    """Phase 2: branch and bound on spread among plans of at most phase 1's repeats."""

    def __init__(self, meetings: Meetings, start: Tables, limit: int) -> None:
        self.meetings, self.limit, self.nodes = meetings, limit, 0
        self.start = start
        self.best = [tuple(table) for table in start.tables]
        self.best_spread = start.spread
        self.repeats = start.repeats
        self.memo: dict[tuple[int, int], int] = {}  # (free set, repeats left) -> least spread to complete it
        self.root_bound = 0

    def run(self) -> Tables:
        everyone = (1 << self.meetings.count) - 1
        self.root_bound = self._least_spread(everyone)
        try:
            if self.best_spread > self.root_bound:
                swapped, self.nodes = _swap_descent(self.meetings, self.best, self.limit // SHARE, by_standing=True)
                self.best = swapped
                self.repeats = sum(repeats_of(table, self.meetings.met) for table in swapped)
                self.best_spread = sum(spread_of(table) for table in swapped)
            if self.best_spread > self.root_bound:
                self._search(everyone, self.repeats, 0, [])
            exhausted = True
        except _Stop:
            exhausted = False
        closest = exhausted or self.best_spread <= self.root_bound
        # The repeats phase's own node count is part of the plan's cost.
        found = _ordered(self.best, self.meetings, self.start.nodes + self.nodes, self.start.fewest, closest)
        return found

    def _least_spread(self, free: int) -> int:
        """The spread of the free entrants in consecutive blocks of ``size``: no plan of them has less."""
        size, total, block = self.meetings.size, 0, []
        rest = free
        while rest:
            low = rest & -rest
            block.append(low.bit_length() - 1)
            rest ^= low
            if len(block) == size:
                total += (block[-1] - block[0]) ** 2
                block = []
        return total

    def _search(self, free: int, repeats_left: int, spent: int, plan: list[tuple[int, ...]]) -> None:
        if not free:
            if spent < self.best_spread:
                self.best, self.best_spread = list(plan), spent
                if spent <= self.root_bound:
                    raise _Stop
            return
        self.nodes += 1
        if self.nodes > self.limit:
            raise _Stop
        key = (free, repeats_left)
        least = max(self._least_spread(free), self.memo.get(key, 0))
        if spent + least >= self.best_spread:
            return
        if self.meetings.cheapest_companions(free)[0] > repeats_left:
            return
        head = (free & -free).bit_length() - 1
        self._members(free & ~(1 << head), [head], 0, free, repeats_left, spent, plan)
        self.memo[key] = max(self.memo.get(key, 0), self.best_spread - spent)

    def _members(self, pool: int, table: list[int], cost: int, free: int, repeats_left: int, spent: int,
                 plan: list[tuple[int, ...]]) -> None:
        meetings = self.meetings
        if len(table) == meetings.size:
            plan.append(tuple(table))
            self._search(free & ~sum(1 << a for a in table), repeats_left - cost,
                         spent + (table[-1] - table[0]) ** 2, plan)
            plan.pop()
            return
        head, need, met = table[0], meetings.size - len(table), meetings.met
        rest = pool
        while rest.bit_count() >= need:
            low = rest & -rest
            c = low.bit_length() - 1
            rest ^= low
            if spent + (c - head) ** 2 >= self.best_spread:
                return  # members come by position: every later one spreads the table more
            self.nodes += 1
            if self.nodes > self.limit:
                raise _Stop
            added = sum(met[c][a] for a in table)
            if cost + added > repeats_left:
                continue
            table.append(c)
            self._members(rest, table, cost + added, free, repeats_left, spent, plan)
            table.pop()
