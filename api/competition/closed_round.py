"""A duplicate round's games stay closed until the whole round has finished (docs/competition.md,
"Duplicate and secrets"): every table of the round shares one seed, so a finished table's record,
or a spectator of a faster table, would show a slower table its deals.

While ``closed:{<game>}`` exists (written with the round's games, deleted when the round ends), a
read under ``/v1/games/<game>`` answers only to a seat token of that game (its past views only its own
seat's, even once the table has finished), and its record, forks and hints to nobody: 403
``round_running``. Writes need the game's own seat (or creator) tokens anyway,
and a tournament's game has no creator token and no invites.
"""

from __future__ import annotations

import re

from flask import request

from api.competition.keys import closed_key
from api.http.helpers import bearer_token, store
from api.http.problems import ApiProblem
from api.play.store import GameStore

_GAME_PATH = re.compile(r"^/v1/games/([^/]+)(/.*)?$")
#: what not even the game's own seats may read while the round runs: it holds the seed (or searches from it)
_SHUT_TO_SEATS = ("/record", "/hint")
#: where ``?seat=`` picks another seat's view of a finished game: only the token's own seat while closed
_OTHER_SEATS_VIEWS = "/views/"


def round_running(tournament_id: str) -> ApiProblem:
    return ApiProblem("forbidden", f"this game is a table of a duplicate round of tournament {tournament_id} that "
                      "has not finished: its tables share their deals, so it stays closed until the round ends",
                      reason="round_running", tournament=tournament_id)


def refuse_fork(games: GameStore, game_id: str) -> None:
    tournament_id = games.control.get(closed_key(game_id))
    if tournament_id is not None:
        raise round_running(tournament_id)


def guard() -> None:
    """``before_request``: refuse whatever a closed game may not show (one GET on the control Redis for
    reads under ``/v1/games/<id>``; about 0.1 ms, bench/competition.py)."""
    if request.method not in ("GET", "HEAD"):
        return  # a write under /v1/games/<id> acts for a seat or a creator: it needs that game's token anyway
    matched = _GAME_PATH.match(request.path)
    if matched is None:
        return
    game_id, rest = matched.group(1), matched.group(2) or ""
    games = store()
    tournament_id = games.control.get(closed_key(game_id))
    if tournament_id is None:
        return
    if rest.startswith(_SHUT_TO_SEATS):
        raise round_running(tournament_id)
    token = bearer_token()
    role = None if token is None else games.token_role(game_id, token)
    if role is None or not role.isdigit():
        raise round_running(tournament_id)
    asked_seat = request.args.get("seat")
    if rest.startswith(_OTHER_SEATS_VIEWS) and asked_seat is not None and asked_seat != role:
        # A finished table shows every seat's past views (``?seat=``): its hands are the slower tables' too.
        raise round_running(tournament_id)
