"""Small helpers shared by the blueprints: JSON responses, tokens, request headers."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from flask import Response, current_app, request

from api.http.etags import if_none_match, read_etag, role_tag
from api.http.problems import ApiProblem
from api.play import timeouts
from api.play.game_record import GameRecord
from api.play.store import GameStore
from engine.core.registry import UnknownRuleset, get_ruleset
from engine.core.ruleset import Ruleset

# Both parts of a Redis stream id are unsigned 64-bit: 19 digits always fit, 20 may not.
CURSOR_PATTERN = r"^(0|[0-9]{1,19}-[0-9]{1,19})$"
_CURSOR = re.compile(CURSOR_PATTERN)


def store() -> GameStore:
    return current_app.extensions["rulehouse.store"]


def reads_no_game(view: Callable) -> Callable:
    """Mark a view whose path names a game but that reads nothing of it (a static page shell): the
    closed-round check (api/competition/closed_round.py) lets it through. Everything else that names a
    game goes through that check."""
    view.reads_no_game = True
    return view


def json_response(body: dict, status: int = 200, *, version: int | None = None, role: str | None = None,
                  headers: dict | None = None) -> Response:
    """A JSON answer; with ``version`` its read ETag, which a token holder's ``role`` (``role_tag``)
    makes caller-specific (then ``Cache-Control: private``)."""
    response = Response(json.dumps(body, separators=(",", ":")), status=status, mimetype="application/json")
    if version is not None:
        caller_specific(response, version, role)
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def caller_specific(response: Response, version: int, role: str | None) -> Response:
    """Set the read ETag of ``version`` as ``role`` sees it, and the caching headers that go with it."""
    response.headers["ETag"] = read_etag(version, role)
    response.vary.add("Authorization")
    if role is not None:
        response.headers["Cache-Control"] = "private"
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


def required_token() -> str:
    """The bearer token of a request that needs one (401 without)."""
    token = bearer_token()
    if token is None:
        raise ApiProblem("unauthorized", "this needs a token: 'Authorization: Bearer <token>'",
                         headers={"WWW-Authenticate": "Bearer"})
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


def ruleset_at_path(ruleset_id: str) -> Ruleset:
    """The ruleset a path names; 404 for an unknown id (the message lists the ids and the nearest one)."""
    try:
        return get_ruleset(ruleset_id)
    except UnknownRuleset as unknown:
        raise ApiProblem("not-found", unknown.message) from None


def load_game(game_id: str, token: str | None) -> GameRecord:
    record = store().load(game_id, token=token)
    if record is None:
        raise ApiProblem("not-found", f"no game {game_id!r}")
    return record


def load_current(game_id: str, token: str | None) -> GameRecord:
    """The game as a reader should see it: with its overdue decision defaults played first."""
    record = load_game(game_id, token)
    if timeouts.apply_if_overdue(store(), record):
        record = load_game(game_id, token)
    return record


#: A game that moves between a request's read and its answer is read again this many times.
MAX_READ_ATTEMPTS = 3


def answer_current(game_id: str, token: str | None, answer: Callable[[GameRecord], object | None]) -> object:
    """``answer(record)`` of the game as ``load_current`` reads it, read again while ``answer`` gives
    ``None`` (the game moved before the answer could be counted); 503 after ``MAX_READ_ATTEMPTS``."""
    for _ in range(MAX_READ_ATTEMPTS):
        answered = answer(load_current(game_id, token))
        if answered is not None:
            return answered
    raise ApiProblem("service-unavailable", "the game kept moving; ask again")


def caller_role(record: GameRecord) -> tuple[str, int | None, str | None]:
    """(role, seat, role tag of the read ETag) of the caller of a game loaded with their token."""
    role, seat = caller_seat(record)
    return role, seat, role_tag(role, seat)


def not_modified(version: int, role: str | None) -> Response | None:
    """A 304 when ``If-None-Match`` names this caller's ETag of ``version``, else None."""
    if not if_none_match(request.headers.get("If-None-Match"), read_etag(version, role)):
        return None
    return caller_specific(Response(status=304), version, role)


def valid_cursor(cursor: str) -> bool:
    return bool(_CURSOR.fullmatch(cursor))


