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
   entrants can have); it starts from phase 1's plan and ends exhausted or at ``SPREAD_NODES``.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import networkx

#: Nodes of the repeats phase at most. Every round of 24 entrants or fewer in bench/swiss.py's sweep
#: finished far below it (docs/competition.md has the figures).
REPEAT_NODES = 300_000
#: Nodes of the spread phase at most.
SPREAD_NODES = 100_000


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


def form_tables(count: int, size: int, earlier: Sequence[Sequence[Sequence[int]]], *, by_standing: bool,
                repeat_nodes: int = REPEAT_NODES, spread_nodes: int = SPREAD_NODES) -> Tables:
    """The tables of ``size`` of ``count`` entrants (``count`` a multiple of ``size``), given the
    ``earlier`` rounds' tables (positions; each round a partition of the entrants)."""
    field = _Field(count, size, earlier)
    if size == 2:
        return _matched(field, by_standing)
    found = _FewestRepeats(field, repeat_nodes).run()
    if by_standing:
        found = _ClosestStandings(field, found, spread_nodes).run()
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

    def cheapest_companions(self, free: int) -> tuple[int, int]:
        """A lower bound on the repeats of seating every entrant of ``free``, and the free entrant
        hardest to seat (fewest unmet free entrants; the first position of those)."""
        seats = self.size - 1
        short, head, fewest = 0, -1, self.count + 1
        rest = free
        while rest:
            low = rest & -rest
            a = low.bit_length() - 1
            rest ^= low
            options = (self.unmet[a] & free).bit_count()
            if options < fewest:
                head, fewest = a, options
            if options < seats:
                short += seats - options
        bound = (short + 1) // 2
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
    spread is below ``weight``), so the matching minimises repeats first, then spread."""
    n = field.count
    weight = (n // 2) * (n - 1) ** 2 + 1 if by_standing else 1
    graph = networkx.Graph()
    for a, b in itertools.combinations(range(n), 2):
        graph.add_edge(a, b, weight=-(field.met[a][b] * weight + ((b - a) ** 2 if by_standing else 0)))
    matching = networkx.max_weight_matching(graph, maxcardinality=True)
    return _ordered([tuple(pair) for pair in matching], field, 0, True, True)


class _FewestRepeats:
    """Phase 1: branch and bound on repeats (module docstring)."""

    def __init__(self, field: _Field, limit: int) -> None:
        self.field, self.limit, self.nodes = field, limit, 0
        self.best: list[tuple[int, ...]] = []
        self.best_repeats = 1 << 62
        self.memo: dict[int, int] = {}  # free set -> its completion costs at least this many repeats
        self.root_bound = 0

    def run(self) -> Tables:
        everyone = (1 << self.field.count) - 1
        self.root_bound = self.field.cheapest_companions(everyone)[0]
        try:
            self._search(everyone, 0, [])
            exhausted = True
        except _Stop:
            exhausted = False
        fewest = exhausted or self.best_repeats <= self.root_bound
        return _ordered(self.best, self.field, self.nodes, fewest, False)

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes > self.limit:
            raise _Stop

    def _search(self, free: int, spent: int, plan: list[tuple[int, ...]]) -> None:
        if not free:
            if spent < self.best_repeats:
                self.best, self.best_repeats = list(plan), spent
                if spent <= self.root_bound:
                    raise _Stop  # nothing can do better
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
