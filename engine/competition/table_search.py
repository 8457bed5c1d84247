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
branch and bound searches the plans, in two phases, each stopped after a fixed number of nodes
(a node: one entrant tried at a seat of a table, or one table's bounds read). Counting nodes instead of
seconds makes the plan a function of the inputs alone, whatever the machine's load.

1. Repeats. Each table is formed around the free entrant with the fewest free entrants it has not met
   (the one hardest to seat), then members cheapest first; a table is a set (its members are tried in
   one order, never as permutations), tables are never reordered, and *twins* (entrants whose
   meetings with everyone else are the same) are interchangeable, so only the first free one of a
   class is tried at a seat. A branch is cut when its repeats plus a lower bound on the rest's reach
   the best plan's: the larger of (a) per entrant, the free entrants it has not met fewer than the
   seats it must fill, halved, and (b) per earlier round, its tables' free members spread as evenly
   as they can over the tables left. A set of free entrants already searched is not searched again
   for less (``memo``). The phase ends when a plan meets the root's bound, when the tree is
   exhausted (proven fewest), or at ``REPEAT_NODES``.
2. Spread (Swiss only): among plans of at most phase 1's repeats, each table headed by the best free
   entrant and members by position, cut by the spread of consecutive blocks (the least the free
   entrants can have); it starts from phase 1's plan and ends exhausted or after ``SPREAD_WORK / count`` nodes.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import networkx

#: The repeats phase's nodes at most, times the entrants (a node reads up to every free entrant once):
#: 250,000 nodes for 24 entrants, 23,437 for 256 (docs/competition.md has the measured figures).
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
    nodes: int


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
    field = _Field(count, size, earlier)
    if size == 2:
        return _matched(field, by_standing)
    found = _FewestRepeats(field, repeat_work // count).run()
    if by_standing:
        found = _ClosestStandings(field, found, spread_work // count).run()
    return found


def spread_of(table: Sequence[int]) -> int:
    return (max(table) - min(table)) ** 2


def repeats_of(table: Sequence[int], met: Sequence[Sequence[int]]) -> int:
    return sum(met[a][b] for a, b in itertools.combinations(table, 2))


class _Field:
    """The entrants' earlier meetings: ``met[a][b]`` counts, ``unmet[a]`` the bit set of those ``a`` never
    met, ``rounds`` each earlier round's tables as bit sets, ``twin_before[c]`` the previous member of
    ``c``'s twin class (or -1)."""

    def __init__(self, count: int, size: int, earlier: Sequence[Sequence[Sequence[int]]]) -> None:
        self.count, self.size = count, size
        self.met = [[0] * count for _ in range(count)]
        self.rounds: list[list[int]] = []
        self.largest = 0  # the most entrants at an earlier table
        for tables in earlier:
            masks = []
            for table in tables:
                for a, b in itertools.combinations(table, 2):
                    self.met[a][b] += 1
                    self.met[b][a] += 1
                if len(table) > 1:
                    masks.append(sum(1 << p for p in table))
                    self.largest = max(self.largest, len(table))
            self.rounds.append(masks)
        everyone = (1 << count) - 1
        self.unmet = [everyone & ~(1 << a) & ~sum(1 << b for b in range(count) if self.met[a][b]) for a in range(count)]
        self.twin_before = self._twins()
        #: per entrant, at most the repeats of any table it can sit at (``cheapest_tables``); 0 until known
        self.table_floor = [0] * count

    def _twins(self) -> list[int]:
        """Two entrants are twins when their meetings with every third entrant are equal: swapping them
        changes no plan's repeats, and twinship is an equivalence. ``a`` and ``b`` who met ``v`` times
        are twins exactly when their rows, each with its own entry set to ``v``, are equal, so rows are
        bucketed by that key for each ``v`` the row holds and a bucket's members joined in one class."""
        parent = list(range(self.count))

        def root(a: int) -> int:
            while parent[a] != a:
                parent[a] = parent[parent[a]]
                a = parent[a]
            return a

        buckets: dict[tuple, int] = {}
        for c in range(self.count):
            row = self.met[c]
            for v in set(row[:c] + row[c + 1:]):
                first = buckets.setdefault((v, *row[:c], v, *row[c + 1:]), c)
                parent[root(c)] = root(first)
        before, last = [-1] * self.count, {}
        for c in range(self.count):
            before[c] = last.get(root(c), -1)
            last[root(c)] = c
        return before

    def cheapest_tables(self, nodes: int) -> int:
        """Fill ``table_floor``: for each entrant the fewest repeats of a table it can sit at, found by a
        small branch and bound per entrant (its companions cheapest first) of at most ``nodes`` nodes
        together; an entrant left when they run out keeps the repeats with its own cheapest companions,
        which no table of it undercuts. The nodes spent."""
        seats, spent = self.size - 1, 0
        for a in range(self.count):
            others = sorted((self.met[a][x], x) for x in range(self.count) if x != a)
            own = sum(cost for cost, _ in others[:seats])  # its pairs alone: no table of it costs less
            found = own if spent >= nodes else self._cheapest_table(a, others, own, nodes - spent)
            spent += found[1] if isinstance(found, tuple) else 0
            self.table_floor[a] = found[0] if isinstance(found, tuple) else found
        return spent

    def _cheapest_table(self, a: int, others: list[tuple[int, int]], own: int, nodes: int) -> tuple[int, int]:
        """The fewest repeats of a table of ``a`` (and the nodes spent); ``own`` if ``nodes`` run out."""
        met, best, spent = self.met, [1 << 62], [0]

        def extend(start: int, table: list[int], cost: int, need: int) -> None:
            spent[0] += 1
            if spent[0] > nodes:
                raise _Stop
            if not need:
                best[0] = min(best[0], cost)
                if best[0] <= own:
                    raise _Stop  # as few as its own pairs allow
                return
            for i in range(start, len(others) - need + 1):
                # Companions come cheapest first for a: the next ``need`` of them cost it the least.
                if cost + sum(others[j][0] for j in range(i, i + need)) >= best[0]:
                    return
                x = others[i][1]
                added = sum(met[x][t] for t in table)
                if cost + added < best[0]:
                    table.append(x)
                    extend(i + 1, table, cost + added, need - 1)
                    table.pop()

        try:
            extend(0, [a], 0, self.size - 1)
        except _Stop:
            if spent[0] > nodes:
                return own, nodes
        return best[0], spent[0]

    def cheapest_companions(self, free: int) -> tuple[int, int]:
        """A lower bound on the repeats of seating every entrant of ``free``, and the free entrant
        hardest to seat (fewest unmet free entrants; the first position of those). The bound is the
        largest of three: (a) an entrant with fewer unmet free entrants than seats to fill meets one
        again per seat short, and a repeat is short for two at most; (b) a table costs at least the
        largest ``table_floor`` of its members, so the tables cost at least the floors of ranks 1,
        ``size + 1``, ``2 size + 1``... (the largest together); (c) per earlier round,
        its tables' free members spread as evenly as they can over the tables left."""
        seats = self.size - 1
        short, floors, head, fewest = 0, [], -1, self.count + 1
        floor = self.table_floor
        rest = free
        while rest:
            low = rest & -rest
            a = low.bit_length() - 1
            rest ^= low
            floors.append(floor[a])
            options = (self.unmet[a] & free).bit_count()
            if options < fewest:
                head, fewest = a, options
            if options < seats:
                short += seats - options
        floors.sort(reverse=True)
        bound = max((short + 1) // 2, sum(floors[::self.size]))
        tables = free.bit_count() // self.size
        if tables < self.largest:  # an earlier table's members can then not sit one to a table
            by_rounds = 0
            for masks in self.rounds:
                for mask in masks:
                    members = (mask & free).bit_count()
                    if members > tables:
                        q, extra = divmod(members, tables)
                        by_rounds += extra * (q + 1) * q // 2 + (tables - extra) * q * (q - 1) // 2
            bound = max(bound, by_rounds)
        return bound, head


def _ordered(tables: list[tuple[int, ...]], field: _Field, nodes: int, fewest: bool, closest: bool) -> Tables:
    tables = sorted(tuple(sorted(table)) for table in tables)
    return Tables(tuple(tables), sum(repeats_of(table, field.met) for table in tables),
                  sum(spread_of(table) for table in tables), fewest, closest, nodes)


def _matched(field: _Field, by_standing: bool) -> Tables:
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
    n = field.count
    weight = (n // 2) * (n - 1) ** 2 + 1 if by_standing else 1
    met_count = [n - 1 - field.unmet[a].bit_count() for a in range(n)]
    graph = networkx.Graph()
    for a in range(n):
        reach = n if not by_standing else a + met_count[a] + max(met_count) + 2
        for b in range(a + 1, min(n, reach)):
            if by_standing and b - a > met_count[a] + met_count[b] + 1:
                continue
            graph.add_edge(a, b, weight=-(field.met[a][b] * weight + ((b - a) ** 2 if by_standing else 0)))
    matching = networkx.max_weight_matching(graph, maxcardinality=True)
    return _ordered([tuple(pair) for pair in matching], field, 0, True, True)


def _swap_descent(field: _Field, plan: Sequence[Sequence[int]], nodes: int, *,
                  by_standing: bool) -> tuple[list[tuple[int, ...]], int]:
    """Better a plan by swapping two entrants of two tables while that lowers the repeats (by standing:
    the repeats, then the spread), the first such swap each time, in table and seat order, until a pass
    over every two tables finds none or ``nodes`` swaps were weighed. The plan, and the swaps weighed.
    Without standings only tables with a repeat are looked at: no swap between two without one helps."""
    met = field.met
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


class _FewestRepeats:
    """Phase 1: branch and bound on repeats (module docstring)."""

    def __init__(self, field: _Field, limit: int) -> None:
        self.field, self.limit, self.nodes = field, limit, 0
        self.best: list[tuple[int, ...]] = []
        self.best_repeats = 1 << 62
        self.memo: dict[int, int] = {}  # free set -> its completion costs at least this many repeats
        self.root_bound = 0
        self.first_only = False
        self.zero_searched = False  # the search for a plan without repeats ended: there is none

    def run(self) -> Tables:
        everyone = (1 << self.field.count) - 1
        field = self.field
        try:
            self.nodes += field.cheapest_tables(self.limit // SHARE)
            self.root_bound = field.cheapest_companions(everyone)[0]
            self.first_only = True
            with contextlib.suppress(_FirstPlan):
                self._search(everyone, 0, [])
            if self.best_repeats > self.root_bound:
                swapped, spent = _swap_descent(field, self.best, self.limit // SHARE, by_standing=False)
                self.nodes += spent
                self.best, self.best_repeats = swapped, sum(repeats_of(table, field.met) for table in swapped)
            self.first_only = False
            if self.best_repeats > self.root_bound == 0:
                self._without_repeats(everyone)
            if self.best_repeats > self.root_bound:
                self._search(everyone, 0, [])
            exhausted = True
        except _Stop:
            exhausted = False
        fewest = exhausted or self.best_repeats <= self.root_bound
        return _ordered(self.best, field, self.nodes, fewest, False)

    def _without_repeats(self, everyone: int) -> None:
        """Look for a plan without any repeat before any plan with fewer repeats than the best: only
        unmet entrants are offered at each seat, so this search is small. Free sets it exhausts keep a
        bound of one repeat (``memo``) for the search after it."""
        best, best_repeats = self.best, self.best_repeats
        self.best_repeats = 1  # a cutoff: only plans of no repeat
        self._search(everyone, 0, [])  # a plan found stops everything (it meets the root's bound)
        self.best, self.best_repeats = best, best_repeats
        self.zero_searched = True

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
        bound, head = self.field.cheapest_companions(free)
        bound = max(bound, self.memo.get(free, 0))
        if spent + bound >= self.best_repeats:
            return
        twin_before = self.field.twin_before
        while twin_before[head] >= 0 and free >> twin_before[head] & 1:
            head = twin_before[head]  # the first free twin of its class heads the table
        self._members(free & ~(1 << head), [head], 0, free, spent, plan)
        # Searched to the end: whatever completes ``free`` costs at least this.
        self.memo[free] = max(self.memo.get(free, 0), self.best_repeats - spent)

    def _members(self, pool: int, table: list[int], cost: int, free: int, spent: int,
                 plan: list[tuple[int, ...]]) -> None:
        field = self.field
        if len(table) == field.size:
            plan.append(tuple(table))
            self._search(free & ~sum(1 << a for a in table), spent + cost, plan)
            plan.pop()
            return
        allowed = self.best_repeats - 1 - spent - cost  # the most this table may still add
        met = field.met
        options = []
        if allowed == 0:  # only entrants who met nobody at the table
            rest = pool
            for a in table:
                rest &= field.unmet[a]
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
        need = field.size - len(table)
        twin_before = field.twin_before
        remaining = sum(1 << c for _, c in options)
        for added, c in options:
            if remaining.bit_count() < need:
                return
            self._tick()
            remaining &= ~(1 << c)
            before = twin_before[c]
            if before >= 0 and free >> before & 1 and before not in table:
                continue  # its free twin of lower position was passed over: the same tables again
            table.append(c)
            self._members(remaining, table, cost + added, free, spent, plan)
            table.pop()


class _ClosestStandings:
    """Phase 2: branch and bound on spread among plans of at most phase 1's repeats."""

    def __init__(self, field: _Field, start: Tables, limit: int) -> None:
        self.field, self.limit, self.nodes = field, limit, 0
        self.start = start
        self.best = [tuple(table) for table in start.tables]
        self.best_spread = start.spread
        self.repeats = start.repeats
        self.memo: dict[tuple[int, int], int] = {}  # (free set, repeats left) -> least spread to complete it
        self.root_bound = 0

    def run(self) -> Tables:
        everyone = (1 << self.field.count) - 1
        self.root_bound = self._least_spread(everyone)
        try:
            if self.best_spread > self.root_bound:
                swapped, self.nodes = _swap_descent(self.field, self.best, self.limit // SHARE, by_standing=True)
                self.best = swapped
                self.repeats = sum(repeats_of(table, self.field.met) for table in swapped)
                self.best_spread = sum(spread_of(table) for table in swapped)
            if self.best_spread > self.root_bound:
                self._search(everyone, self.repeats, 0, [])
            exhausted = True
        except _Stop:
            exhausted = False
        closest = exhausted or self.best_spread <= self.root_bound
        # The repeats phase's own node count is part of the plan's cost.
        found = _ordered(self.best, self.field, self.start.nodes + self.nodes, self.start.fewest, closest)
        return found

    def _least_spread(self, free: int) -> int:
        """The spread of the free entrants in consecutive blocks of ``size``: no plan of them has less."""
        size, total, block = self.field.size, 0, []
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
        if self.field.cheapest_companions(free)[0] > repeats_left:
            return
        head = (free & -free).bit_length() - 1
        self._members(free & ~(1 << head), [head], 0, free, repeats_left, spent, plan)
        self.memo[key] = max(self.memo.get(key, 0), self.best_spread - spent)

    def _members(self, pool: int, table: list[int], cost: int, free: int, repeats_left: int, spent: int,
                 plan: list[tuple[int, ...]]) -> None:
        field = self.field
        if len(table) == field.size:
            plan.append(tuple(table))
            self._search(free & ~sum(1 << a for a in table), repeats_left - cost,
                         spent + (table[-1] - table[0]) ** 2, plan)
            plan.pop()
            return
        head, need, met = table[0], field.size - len(table), field.met
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
