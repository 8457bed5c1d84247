"""Who sits at which table, in which seat, in each round of a tournament (docs/competition.md, "Formats").

Every format splits the entrants into tables of ``table_size`` (so their number must divide), each
entrant at exactly one table of a round:

- ``round_robin``: the rounds spread meetings as evenly as possible, standings aside. At two-seat
  tables it is the circle method, where everyone meets everyone once in ``entrants - 1`` rounds; at
  larger tables, tables of the fewest earlier meetings (a local search), since a schedule where every
  pair meets exactly once exists only for some sizes.
- ``swiss``: tables by standing (the leaders together), avoiding repeat opponents where possible.
- ``duplicate``: every table of a round plays the same seed; entrant ``(group g, position p)`` sits
  in round ``r`` at seat ``(p + r) mod k`` of table ``(g + p * r) mod m`` (``k`` seats, ``m`` tables),
  so over ``k`` rounds each entrant plays every seat once, among changing opponents.

Seats in round robin and Swiss go to whoever has played that seat least (first seats vary).
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from engine.competition.standings import TableResult, standings

ROUND_ROBIN, SWISS, DUPLICATE = "round_robin", "swiss", "duplicate"
FORMATS = (ROUND_ROBIN, SWISS, DUPLICATE)
MAX_ENTRANTS = 256
MAX_ROUNDS = 64
#: Passes of swaps the table search makes per round at most.
_MAX_SWAP_PASSES = 20
#: A Swiss table swaps entrants with the tables this many places after it to bring standings closer.
_SPREAD_REACH = 2
#: hashed with the tournament's seed, round[, table]: the tables' game seeds (``table_seeds``)
_SEED_STREAM = 0x70C


@dataclass(frozen=True, slots=True)
class TournamentPlan:
    format: str
    entrants: tuple[str, ...]
    table_size: int
    rounds: int
    seed: int


def plan_rounds_default(format: str, entrants: int, table_size: int) -> int:
    """Rounds when the tournament names none: round robin, enough for everyone to be able to meet
    everyone; Swiss, about log2 of the field; duplicate, one per seat."""
    if format == DUPLICATE:
        return table_size
    if format == ROUND_ROBIN:
        return entrants - 1 if table_size == 2 else math.ceil((entrants - 1) / (table_size - 1))
    return max(1, math.ceil(math.log2(max(entrants, 2))))


def tournament_problems(format: str, entrants: Sequence[str], table_size: int, rounds: int | None,
                        min_players: int, max_players: int) -> dict[str, list[str]]:
    """What is wrong with a tournament, by field (empty: nothing). The ruleset seats ``min_players``
    to ``max_players``."""
    problems: dict[str, list[str]] = {}
    if format not in FORMATS:
        problems["format"] = [f"must be one of {list(FORMATS)}"]
    if not min_players <= table_size <= max_players:
        problems["table_size"] = [f"this ruleset seats {min_players} to {max_players} players"]
    repeated = sorted({entrant for entrant in entrants if list(entrants).count(entrant) > 1})
    if repeated:
        problems["entrants"] = [f"each entrant once: {repeated} repeat"]
    elif len(entrants) > MAX_ENTRANTS:
        problems["entrants"] = [f"at most {MAX_ENTRANTS} entrants"]
    elif "table_size" not in problems and (len(entrants) < table_size or len(entrants) % table_size):
        what = "a duplicate tournament's" if format == DUPLICATE else "the"
        problems["entrants"] = [f"{what} {len(entrants)} entrants do not divide into tables of {table_size}"]
    if rounds is None and format in FORMATS and "table_size" not in problems and table_size >= 2:
        default = plan_rounds_default(format, len(entrants), table_size)
        if default > MAX_ROUNDS:  # a round robin of more than 65 entrants at two seats
            problems["rounds"] = [f"the {format} default for {len(entrants)} entrants is {default} rounds, more than "
                                  f"{MAX_ROUNDS}: give rounds (1 to {MAX_ROUNDS})"]
    if rounds is not None:
        if not 1 <= rounds <= MAX_ROUNDS:
            problems["rounds"] = [f"1 to {MAX_ROUNDS}"]
        elif format == DUPLICATE and "table_size" not in problems and rounds % table_size:
            problems["rounds"] = [f"a duplicate tournament plays every seat equally: a multiple of {table_size}"]
    return problems


def plan_round(plan: TournamentPlan, round_index: int, results: Sequence[TableResult],
               earlier: Sequence[Sequence[Sequence[str]]] = ()) -> list[tuple[str, ...]]:
    """The tables of round ``round_index`` (from 0), each the entrants by seat. ``results`` are the
    finished tables of the earlier rounds (Swiss reads the standings from them); ``earlier`` the
    earlier rounds' tables (meetings and seats), which default to ``results``' own."""
    if not earlier:
        rounds: dict[int, list[tuple[str, ...]]] = {}
        for table in sorted(results, key=lambda t: (t.round, t.table)):
            rounds.setdefault(table.round, []).append(table.entrants)
        earlier = [rounds[r] for r in sorted(rounds)]
    if plan.format == DUPLICATE:
        return _duplicate_round(plan.entrants, plan.table_size, round_index)
    if plan.format == ROUND_ROBIN and plan.table_size == 2:
        return _circle_round(plan.entrants, round_index)
    if plan.format == SWISS:
        order = [standing.entrant for standing in standings(plan.entrants, results)]
    else:  # round robin at larger tables: a different starting order each round
        shift = round_index % len(plan.entrants)
        order = list(plan.entrants[shift:] + plan.entrants[:shift])
    met = _meetings(earlier)
    tables = _fewest_repeats(order, plan.table_size, met, by_standing=plan.format == SWISS)
    seat_counts = _seat_counts(earlier)
    return [_assign_seats(table, seat_counts, order) for table in tables]


def table_seeds(plan: TournamentPlan, round_index: int, tables: int) -> list[int]:
    """Each table's game seed: one seed for every table of a duplicate round, a seed per table otherwise,
    new each round. They come from the tournament's seed through a cryptographic hash, not a
    splitmix: a finished game's record reveals its seed, and that must not tell the tournament's seed
    (and so every later round's deals)."""
    if plan.format == DUPLICATE:
        return [_hashed_seed(plan.seed, round_index)] * tables
    return [_hashed_seed(plan.seed, round_index, table) for table in range(tables)]


def _hashed_seed(seed: int, *path: int) -> int:
    digest = hashlib.blake2b(repr((_SEED_STREAM, seed, *path)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1  # a game seed is 63 bits


def _duplicate_round(entrants: Sequence[str], size: int, round_index: int) -> list[tuple[str, ...]]:
    tables = len(entrants) // size
    placed: list[list[str]] = [[""] * size for _ in range(tables)]
    for index, entrant in enumerate(entrants):
        group, position = divmod(index, size)
        placed[(group + position * round_index) % tables][(position + round_index) % size] = entrant
    return [tuple(table) for table in placed]


def _circle_round(entrants: Sequence[str], round_index: int) -> list[tuple[str, ...]]:
    """The circle method: the first entrant stays, the others turn one place a round."""
    n = len(entrants)
    others = list(entrants[1:])
    shift = round_index % (n - 1)
    turned = [entrants[0], *others[shift:], *others[:shift]]
    pairs = [(turned[i], turned[n - 1 - i]) for i in range(n // 2)]
    # Alternate who sits first, so nobody always opens.
    return [pair if (round_index + i) % 2 == 0 else pair[::-1] for i, pair in enumerate(pairs)]


def _meetings(earlier: Sequence[Sequence[Sequence[str]]]) -> dict[str, Counter]:
    """How often each two entrants met: ``met[a][b]``."""
    met: dict[str, Counter] = defaultdict(Counter)
    for tables in earlier:
        for table in tables:
            for i, a in enumerate(table):
                for b in table[i + 1:]:
                    met[a][b] += 1
                    met[b][a] += 1
    return met


def _seat_counts(earlier: Sequence[Sequence[Sequence[str]]]) -> Counter:
    counts: Counter = Counter()
    for tables in earlier:
        for table in tables:
            for seat, entrant in enumerate(table):
                counts[(entrant, seat)] += 1
    return counts


def _met_at(entrant: str, table: Sequence[str], met: dict[str, Counter], leaving: str | None = None) -> int:
    """Earlier meetings of ``entrant`` with the others at ``table`` (``leaving`` apart)."""
    seen = met.get(entrant)
    return 0 if not seen else sum(seen[other] for other in table if other != entrant and other != leaving)


def _fewest_repeats(order: list[str], size: int, met: dict[str, Counter], *, by_standing: bool) -> list[list[str]]:
    """Tables of ``size`` from ``order`` (the best standing first): greedily, each table's first entrant
    the best still free and then whoever repeats fewest meetings with those already seated (standing
    breaking ties); then swaps of two entrants between tables while a swap lowers the repeats (or, for
    Swiss, keeps them and brings each table's standings closer). A swap's gain is counted from the two
    entrants' meetings alone, so a pass costs (tables * seats) squared small sums."""
    position = {entrant: index for index, entrant in enumerate(order)}
    free = list(order)
    tables: list[list[str]] = []
    while free:
        table = [free.pop(0)]
        while len(table) < size:
            best = min(range(len(free)), key=lambda i: (_met_at(free[i], table, met), i))
            table.append(free.pop(best))
        tables.append(table)

    def spread(table: list[str]) -> int:
        return max(position[e] for e in table) - min(position[e] for e in table) if by_standing else 0

    def repeats(table: list[str]) -> int:
        return sum(_met_at(entrant, table, met) for entrant in table) // 2

    counts = [repeats(table) for table in tables]
    for _ in range(_MAX_SWAP_PASSES):
        improved = False
        for a, first in enumerate(tables):
            for b in range(a + 1, len(tables)):
                # Only a table with a repeat can lose one; a Swiss table only tightens its standings with
                # its neighbours (the tables are in standing order).
                if not (counts[a] or counts[b]) and not (by_standing and b - a <= _SPREAD_REACH):
                    continue
                second = tables[b]
                for i, x in enumerate(first):
                    for j, y in enumerate(second):
                        gain = (_met_at(x, first, met) + _met_at(y, second, met)
                                - _met_at(y, first, met, leaving=x) - _met_at(x, second, met, leaving=y))
                        if gain < 0 or (gain == 0 and not by_standing):
                            continue
                        before = spread(first) + spread(second)
                        first[i], second[j] = y, x
                        if gain > 0 or spread(first) + spread(second) < before:
                            improved = True
                            counts[a], counts[b] = repeats(first), repeats(second)
                            x = y  # the seat now holds y
                        else:
                            first[i], second[j] = x, y
        if not improved:
            break
    for table in tables:
        table.sort(key=position.__getitem__)
    tables.sort(key=lambda table: position[table[0]])
    return tables


def _assign_seats(table: Sequence[str], seat_counts: Counter, order: Sequence[str]) -> tuple[str, ...]:
    """Seat by seat, the entrant of the table who has played that seat least (standing breaking ties)."""
    position = {entrant: index for index, entrant in enumerate(order)}
    free = list(table)
    seated = []
    for seat in range(len(table)):
        pick = min(free, key=lambda entrant: (seat_counts[(entrant, seat)], position[entrant]))
        free.remove(pick)
        seated.append(pick)
    return tuple(seated)
