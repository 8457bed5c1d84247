"""A finished game's places, one per seat (1 = best; tied seats share a place, the next place skips:
1, 1, 3), as the ratings and the standings read them (docs/competition.md, "Ranks")."""

from __future__ import annotations

from collections.abc import Collection, Mapping


def ranks_from_result(result: Mapping, leavers: Collection[int] = ()) -> list[int]:
    """Places per seat from a ``Result.to_dict()``.

    - The ``winners`` share first place (a shared win is a tie).
    - The other seats follow the engine's ``ranking`` order, one place each.
    - A game that ended by turn cap (``turn_cap_hit``) is ranked by ``scores`` alone, best first;
      equal scores tie.
    - Seats in ``leavers`` (docs/competition.md, "Leaving") come after every seat that stayed,
      tied with each other, whatever the game made of their position.
    """
    seats = len(result["scores"])
    stayed = [seat for seat in range(seats) if seat not in leavers]
    left = [seat for seat in range(seats) if seat in leavers]
    if result.get("turn_cap_hit"):
        scores = result["scores"]
        order = sorted(stayed, key=lambda seat: -scores[seat])
        same = lambda a, b: scores[a] == scores[b]  # noqa: E731
    else:
        winners = set(result["winners"])
        position = {seat: index for index, seat in enumerate(result["ranking"])}
        order = sorted(stayed, key=lambda seat: (seat not in winners, position.get(seat, seats), seat))
        same = lambda a, b: a in winners and b in winners  # noqa: E731
    ranks = [0] * seats
    for index, seat in enumerate(order):
        previous = order[index - 1] if index else None
        ranks[seat] = ranks[previous] if previous is not None and same(previous, seat) else index + 1
    for seat in left:
        ranks[seat] = len(stayed) + 1
    return ranks
