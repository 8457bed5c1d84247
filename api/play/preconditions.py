"""Read ETags, decision ids and the ``If-Match`` preconditions of a move (DESIGN.md, "Preconditions and ETags").

- A read answers with ETag ``"<version>"`` to a spectator and ``"<version>.<role>"`` to a
  token holder (``<role>``: the seat number, or ``c`` for the creator), because each token
  sees its own body of one version.
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
import re
from dataclasses import dataclass

from api.http.problems import ApiProblem
from engine.core.decisions import Decision

#: a seat's pending decisions: seat (as text, JSON keys) -> [since, digest]
Marks = dict[str, list]

_VERSION_TAG = re.compile(r'^"([0-9]{1,18})(?:\.([0-9]{1,3}|c))?"$')
_DECISION_TAG = re.compile(r'^"d:([0-9]{1,3})\.([0-9]{1,18})"$')
_LEGACY_VERSION = re.compile(r"^([0-9]{1,18})$")
#: the longest If-Match value worth parsing
MAX_TAG_LENGTH = 64


@dataclass(frozen=True, slots=True)
class Precondition:
    """What a move's ``If-Match`` names: a version (``seat`` None) or one seat's decision."""

    version: int | None = None
    seat: int | None = None
    since: int | None = None

    @property
    def names_decision(self) -> bool:
        return self.since is not None


def role_tag(role: str, seat: int | None) -> str | None:
    """The ``<role>`` part of a caller's ETag: the seat number, ``c`` for the creator, None for a spectator."""
    if role == "seat":
        return str(seat)
    return "c" if role == "creator" else None


def read_etag(version: int, role: str | None = None) -> str:
    return f'"{version}"' if role is None else f'"{version}.{role}"'


def if_none_match(header: str | None, etag: str) -> bool:
    """Whether ``If-None-Match`` names exactly this ETag (any of a list, weak or strong; ``*`` matches)."""
    if header is None:
        return False
    tags = [tag.strip() for tag in header[:1024].split(",")]
    return any(tag == "*" or tag.removeprefix("W/") == etag for tag in tags)


def parse_if_match(header: str | None) -> Precondition:
    """The precondition of a move: 428 without one, 400 (saying what is wrong) for any other value."""
    if header is None:
        raise ApiProblem("precondition-required", 'send If-Match: the game version you saw (its ETag, e.g. "3") '
                         'or the decision you answer ("d:<decision id>")')
    value = header.strip()
    if len(value) > MAX_TAG_LENGTH:
        raise _bad_tag(f"If-Match is longer than {MAX_TAG_LENGTH} characters")
    if match := _DECISION_TAG.match(value):
        return Precondition(seat=int(match.group(1)), since=int(match.group(2)))
    if match := _VERSION_TAG.match(value) or _LEGACY_VERSION.match(value):
        return Precondition(version=int(match.group(1)))
    if value.startswith("W/"):
        raise _bad_tag("If-Match compares strong tags only: drop the W/")
    if "," in value or value == "*":
        raise _bad_tag("If-Match takes exactly one tag")
    raise _bad_tag('If-Match must be a version tag ("3", or the ETag "3.1" you read) or a decision tag '
                   '("d:1.3", a decision id prefixed with d:)')


def _bad_tag(detail: str) -> ApiProblem:
    return ApiProblem("bad-request", detail, header="If-Match")


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
