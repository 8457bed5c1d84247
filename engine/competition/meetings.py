"""What the earlier rounds say of a round's tables: who met whom, and lower bounds on the repeats of
seating a set of entrants (``engine.competition.table_search`` searches with them)."""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Sequence


class Meetings:
    """The entrants' earlier meetings: ``met[a][b]`` counts, ``unmet[a]`` the bit set of those ``a`` never
    met, ``rounds`` each earlier round's tables as bit sets."""

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
        #: per entrant, the fewest repeats of any table it can sit at, or less (``cheapest_tables``); 0 until known
        self.table_floor = [0] * count

    def cheapest_tables(self, nodes: int) -> int:
        """Fill ``table_floor``: for each entrant the fewest repeats of a table it can sit at, found by a
        small branch and bound per entrant (its companions cheapest first) of at most ``nodes`` nodes
        together; an entrant left when they run out keeps the repeats with its own cheapest companions,
        which no table of it undercuts. The nodes spent."""
        spent = 0
        for a in range(self.count):
            floor, used = self._cheapest_table(a, nodes - spent)
            self.table_floor[a] = floor
            spent += used
        return spent

    def _cheapest_table(self, a: int, nodes: int) -> tuple[int, int]:
        """The fewest repeats of a table of ``a``, or a lower bound if ``nodes`` (companions tried) run
        out first; and the nodes spent."""
        met = self.met
        others = sorted((met[a][x], x) for x in range(self.count) if x != a)
        own = sum(cost for cost, _ in others[:self.size - 1])  # a's own pairs: no table of a costs less
        # ``prefix[j] - prefix[i]``: what companions ``i`` to ``j - 1`` (in that order) cost ``a``.
        prefix = list(itertools.accumulate((cost for cost, _ in others), initial=0))
        best, spent = [1 << 62], [0]

        class Enough(Exception):
            pass

        def extend(start: int, table: list[int], cost: int, need: int) -> None:
            if not need:
                best[0] = min(best[0], cost)
                if best[0] <= own:
                    raise Enough  # as few as its own pairs allow
                return
            for i in range(start, len(others) - need + 1):
                spent[0] += 1
                if spent[0] > nodes:
                    raise Enough
                # Companions come cheapest first for a: the next ``need`` of them cost it the least.
                if cost + prefix[i + need] - prefix[i] >= best[0]:
                    return
                x = others[i][1]
                added = sum(met[x][t] for t in table)
                if cost + added < best[0]:
                    table.append(x)
                    extend(i + 1, table, cost + added, need - 1)
                    table.pop()

        if nodes <= 0:
            return own, 0
        with contextlib.suppress(Enough):
            extend(0, [a], 0, self.size - 1)
        return (best[0], spent[0]) if spent[0] <= nodes else (own, nodes)

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
