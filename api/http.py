"""Small helpers shared by the blueprints: JSON responses, tokens, request headers."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime

from flask import Response, current_app, request

from api import deadlines
from api.problems import ApiProblem
from api.store import GameRecord, GameStore

# Both parts of a Redis stream id are unsigned 64-bit: 19 digits always fit, 20 may not.
CURSOR_PATTERN = r"^(0|[0-9]{1,19}-[0-9]{1,19})$"
_CURSOR = re.compile(CURSOR_PATTERN)
_VERSION = re.compile(r'^\s*(?:W/)?"?([0-9]{1,18})"?\s*$')


def store() -> GameStore:
    return current_app.extensions["rulehouse.store"]


def json_response(body: dict, status: int = 200, *, version: int | None = None, headers: dict | None = None,
                  ) -> Response:
    response = Response(json.dumps(body, separators=(",", ":")), status=status, mimetype="application/json")
    if version is not None:
        response.headers["ETag"] = f'"{version}"'
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def bearer_token() -> str | None:
    """The token of ``Authorization: Bearer <token>``; None without the header; 401 when malformed."""
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise ApiProblem("unauthorized", "use 'Authorization: Bearer <token>'", headers={"WWW-Authenticate": "Bearer"})
    return token


def caller_seat(record: GameRecord) -> tuple[str, int | None]:
    """(role, seat) of the caller of a game loaded with their token: "seat", "creator" or "spectator"."""
    role = record.token_role
    if role is None:
        return "spectator", None
    if role == "":
        raise ApiProblem("unauthorized", "this token does not belong to this game",
                         headers={"WWW-Authenticate": 'Bearer error="invalid_token"'})
    if role == "creator":
        return "creator", None
    return "seat", int(role)


def load_game(game_id: str, token: str | None) -> GameRecord:
    record = store().load(game_id, token=token)
    if record is None:
        raise ApiProblem("not-found", f"no game {game_id!r}")
    return record


def load_current(game_id: str, token: str | None) -> GameRecord:
    """The game as a reader should see it: with its overdue decision defaults played first."""
    record = load_game(game_id, token)
    if deadlines.apply_if_overdue(store(), record):
        record = load_game(game_id, token)
    return record


def expected_version() -> int:
    """The version named by ``If-Match`` (428 when missing, 412 when it names no version)."""
    header = request.headers.get("If-Match")
    if header is None:
        raise ApiProblem("precondition-required", "send If-Match with the version you saw (the game's ETag)")
    version = version_of(header)
    if version is None:
        raise ApiProblem("version-mismatch", "If-Match must be one game version, such as \"3\"")
    return version


def version_of(header: str) -> int | None:
    """The version an ``If-Match``/``If-None-Match`` value names (``"3"``, ``3`` or ``W/"3"``), else None."""
    match = _VERSION.match(header)
    return None if match is None else int(match.group(1))


def valid_cursor(cursor: str) -> bool:
    return bool(_CURSOR.match(cursor))


def iso_time(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, UTC).isoformat().replace("+00:00", "Z")
