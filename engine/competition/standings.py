"""Tournament standings from the tables played (docs/competition.md, "Standings and tie-breaks")."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class TableResult:
    """One finished table: who sat where, and the place of each seat (``ranks_from_result``)."""

    round: int
    table: int
    entrants: tuple[str, ...]  # by seat
    ranks: tuple[int, ...]  # by seat, 1 best, ties equal


@dataclass(frozen=True, slots=True)
class Standing:
    entrant: str
    place: int
    points: float
    wins: int
    opposition: float
    #: duplicate only: the comparison with the entrants who held the same seat of the same deal
    matchpoints: float | None
    games: int

    def to_dict(self) -> dict:
        return {"entrant": self.entrant, "place": self.place, "points": self.points, "wins": self.wins,
                "opposition": round(self.opposition, 6), "matchpoints": self.matchpoints, "games": self.games}


def rank_points(ranks: Sequence[int], seat: int) -> float:
    """A seat's points from one table: one per opponent it finished ahead of, a half per opponent it tied."""
    mine = ranks[seat]
    return sum(1.0 if mine < other else 0.5 if mine == other else 0.0
               for index, other in enumerate(ranks) if index != seat)


def matchpoints(results: Sequence[TableResult]) -> dict[str, float]:
    """Duplicate scoring: each seat of each round is compared with the same seat at the round's other
    tables (the same deal): a point for each such table where it finished at a better place, a half for
    the same place."""
    by_seat: dict[tuple[int, int], list[tuple[str, int]]] = defaultdict(list)
    for table in results:
        for seat, (entrant, rank) in enumerate(zip(table.entrants, table.ranks, strict=True)):
            by_seat[(table.round, seat)].append((entrant, rank))
    found: dict[str, float] = defaultdict(float)
    for holders in by_seat.values():
        for entrant, rank in holders:
            found[entrant] += sum(1.0 if rank < other else 0.5 if rank == other else 0.0
                                  for _, other in holders) - 0.5  # minus the comparison with itself
    return found


def standings(entrants: Sequence[str], results: Sequence[TableResult], *, duplicate: bool = False) -> list[Standing]:
    """Every entrant's standing, best first. Order: (duplicate: matchpoints first), points, wins,
    opposition (the sum over its games of the mean tournament points of the opponents of that table),
    then the order of entrants at creation. So places never tie."""
    points: dict[str, float] = defaultdict(float)
    wins: dict[str, int] = defaultdict(int)
    games: dict[str, int] = defaultdict(int)
    for table in results:
        for seat, entrant in enumerate(table.entrants):
            points[entrant] += rank_points(table.ranks, seat)
            wins[entrant] += table.ranks[seat] == 1
            games[entrant] += 1
    opposition: dict[str, float] = defaultdict(float)
    for table in results:
        for entrant in table.entrants:
            others = [points[other] for other in table.entrants if other != entrant]
            opposition[entrant] += sum(others) / len(others) if others else 0.0
    matched = matchpoints(results) if duplicate else {}
    seeding = {entrant: index for index, entrant in enumerate(entrants)}

    def key(entrant: str) -> tuple:
        return (-matched.get(entrant, 0.0), -points[entrant], -wins[entrant], -opposition[entrant], seeding[entrant])

    ordered = sorted(entrants, key=key)
    return [Standing(entrant, place, points[entrant], wins[entrant], opposition[entrant],
                     matched.get(entrant, 0.0) if duplicate else None, games[entrant])
            for place, entrant in enumerate(ordered, start=1)]
