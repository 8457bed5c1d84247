"""Decision ids and the precondition of a move (DESIGN.md, "Preconditions and ETags"); the HTTP tags
that carry them (``ETag``, ``If-Match``) are read and written by api/http/etags.py.

- A read's ETag is the version, and the caller's role with it, because each token sees its own
  body of one version.
- Each pending decision has the id ``"<seat>.<since>"``: ``since`` is the version at which
  the seat's current decisions first appeared. It survives other seats' moves and changes
  when the seat itself acts or its decisions change (a next round that looks the same gets
  a new id, because the seat acted in between). The ``since`` of each pending seat is kept
  with the game as a "mark" ``[since, digest of the seat's decisions]``.
- ``If-Match`` names either a version (``"3"`` or ``"3.1"``: strict) or a decision
  (``"d:1.3"``: accepted while seat 1's decisions are those that appeared at version 3).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from engine.core.decisions import Decision

#: a seat's pending decisions: seat (as text, JSON keys) -> [since, digest]
Marks = dict[str, list]


@dataclass(frozen=True, slots=True)
class Precondition:
    """What a move's ``If-Match`` names: a version (``seat`` None) or one seat's decision."""

    version: int | None = None
    seat: int | None = None
    since: int | None = None

    @property
    def names_decision(self) -> bool:
        return self.since is not None


def _digest(decisions: list[Decision]) -> str:
    text = json.dumps([d.to_dict() for d in decisions], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def by_seat(decisions: list[Decision]) -> dict[int, list[Decision]]:
    seats: dict[int, list[Decision]] = {}
    for decision in decisions:
        seats.setdefault(decision.seat, []).append(decision)
    return seats


def next_marks(pending: list[Decision], previous: Marks | None, version: int, actor: int | None = None) -> Marks:
    """The marks of a new ``version``: a seat keeps its ``since`` when it did not act and its decisions
    are unchanged; any other pending seat gets ``since = version``."""
    previous = previous or {}
    marks: Marks = {}
    for seat, decisions in by_seat(pending).items():
        digest = _digest(decisions)
        earlier = previous.get(str(seat))
        keep = earlier is not None and seat != actor and earlier[1] == digest
        marks[str(seat)] = [earlier[0] if keep else version, digest]
    return marks


def since_of(marks: Marks | None, seat: int, version: int, pending: list[Decision]) -> int | None:
    """When ``seat``'s pending decisions appeared (None when it has none); a game stored without
    marks counts them from its current version."""
    if not any(d.seat == seat for d in pending):
        return None
    mark = (marks or {}).get(str(seat))
    return version if mark is None else mark[0]


def decision_id(seat: int, since: int) -> str:
    return f"{seat}.{since}"


def with_ids(decisions: list[Decision], marks: Marks | None, version: int, pending: list[Decision]) -> list[dict]:
    """``decisions`` as response bodies, each with its ``id``."""
    bodies = []
    for decision in decisions:
        since = since_of(marks, decision.seat, version, pending)
        bodies.append({"id": decision_id(decision.seat, since), **decision.to_dict()})
    return bodies


def current_ids(marks: Marks | None, seat: int | None, version: int, pending: list[Decision]) -> list[str]:
    """The caller's current decision ids (for a 412 body)."""
    if seat is None:
        return []
    since = since_of(marks, seat, version, pending)
    return [] if since is None else [decision_id(seat, since)]
