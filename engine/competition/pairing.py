"""Who sits at which table, in which seat, in each round of a tournament (docs/competition.md, "Formats").

Every format splits the entrants into tables of ``table_size`` (so their number must divide), each
entrant at exactly one table of a round:

- ``round_robin``: the rounds spread meetings as evenly as possible, standings aside. At two-seat
  tables it is the circle method, where everyone meets everyone once in ``entrants - 1`` rounds; at
  larger tables, each round the tables of the fewest earlier meetings (``table_search``), since a
  schedule where every pair meets exactly once exists only for some sizes.
- ``swiss``: the tables of the fewest repeated meetings, and among those the closest standings (the
  leaders together): ``table_search`` says what is exact and what is bounded.
- ``duplicate``: every table of a round plays the same seed; entrant ``(group g, position p)`` sits
  in round ``r`` at seat ``(p + r) mod k`` of table ``(g + p * r) mod m`` (``k`` seats, ``m`` tables),
  so over ``k`` rounds each entrant plays every seat once, among changing opponents.

Seats in round robin and Swiss go to whoever has played that seat least (first seats vary).
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from engine.competition.standings import TableResult, standings
from engine.competition.table_search import form_tables

ROUND_ROBIN, SWISS, DUPLICATE = "round_robin", "swiss", "duplicate"
FORMATS = (ROUND_ROBIN, SWISS, DUPLICATE)
MAX_ENTRANTS = 256
MAX_ROUNDS = 64
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
    position = {entrant: index for index, entrant in enumerate(order)}
    by_position = [[tuple(position[e] for e in table if e in position) for table in tables] for tables in earlier]
    found = form_tables(len(order), plan.table_size, by_position, by_standing=plan.format == SWISS)
    seat_counts = _seat_counts(earlier)
    return [_assign_seats([order[p] for p in table], seat_counts, order) for table in found.tables]


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


def _seat_counts(earlier: Sequence[Sequence[Sequence[str]]]) -> Counter:
    counts: Counter = Counter()
    for tables in earlier:
        for table in tables:
            for seat, entrant in enumerate(table):
                counts[(entrant, seat)] += 1
    return counts


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
