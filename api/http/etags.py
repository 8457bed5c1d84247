"""The HTTP tags of a game's versions and decisions: read ETags, ``If-None-Match`` and the ``If-Match``
of a move (DESIGN.md, "Preconditions and ETags"; what they name: api/play/preconditions.py).

- A read answers with ETag ``"<version>"`` to a spectator and ``"<version>.<role>"`` to a
  token holder (``<role>``: the seat number, or ``c`` for the creator).
- ``If-Match`` names either a version (``"3"`` or ``"3.1"``: strict) or a decision
  (``"d:1.3"``: accepted while seat 1's decisions are those that appeared at version 3).
"""

from __future__ import annotations

import re

from api.http.problems import ApiProblem
from api.play.preconditions import Precondition

_VERSION_TAG = re.compile(r'^"([0-9]{1,18})(?:\.([0-9]{1,3}|c))?"$')
_DECISION_TAG = re.compile(r'^"d:([0-9]{1,3})\.([0-9]{1,18})"$')
_LEGACY_VERSION = re.compile(r"^([0-9]{1,18})$")
#: the longest If-Match value worth parsing
MAX_TAG_LENGTH = 64


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
