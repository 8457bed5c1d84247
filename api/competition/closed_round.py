"""A duplicate round's games stay closed until the whole round has finished (docs/competition.md,
"Duplicate and secrets"): every table of the round shares one seed, so a finished table's record,
analysis or past views, or a spectator of a faster table, would show a slower table its deals.

The secrecy is a property of reading the game, not of a list of paths: every request whose route
names a game (its ``game_id``, in any route there is or will be) and the fork of a game go through
``check``. While ``closed:{<game>}`` exists, the check lets through only a seat token of that game,
and only for what playing its own table needs (``SEAT_PLAY``: the game, its decisions, events and
stream, its own past views, its chat, its moves, handing its seat to a bot); anything else, such as
the analysis, win chances, hints, the record or a fork, and any route added later, is 403
``round_running`` to everyone. A page that only serves a static shell for a game id (the web table)
says so with ``api.http.helpers.reads_no_game`` and is let through: it reads nothing of the game.

The mark lives as long as the round, not as the game: it is written with the tournament's life and
renewed with it (``api.competition.tournaments``), and deleted when the round ends, so a table that
outlives its TTL, or a round that outlasts every game TTL, stays closed until the round's end.
"""

from __future__ import annotations

from flask import current_app, request

from api.competition.tournament_store import tournament_store
from api.http.helpers import bearer_token, store
from api.http.problems import ApiProblem

#: the name of the path argument that names a game, in every route that reads one
GAME_ARGUMENT = "game_id"
#: (endpoint, method) a seat of a closed game may still use: what playing its own table needs
SEAT_PLAY = frozenset({
    ("games.Game", "GET"), ("games.Decisions", "GET"), ("games.Events", "GET"), ("games.Stream", "GET"),
    ("games.Actions", "POST"), ("views.PastView", "GET"), ("chat.Chat", "GET"), ("chat.Chat", "POST"),
    ("chat.ChatStream", "GET"), ("seats.HandToBot", "POST"),
})
#: the endpoint where ``?seat=`` picks another seat's view of a finished game: only the token's own seat
_PAST_VIEWS = "views.PastView"


def round_running(tournament_id: str) -> ApiProblem:
    return ApiProblem("forbidden", f"this game is a table of a duplicate round of tournament {tournament_id} that "
                      "has not finished: its tables share their deals, so it stays closed until the round ends",
                      reason="round_running", tournament=tournament_id)


def guard() -> None:
    """``before_request``: every request whose route names a game goes through ``check`` (one GET on the
    control Redis; about 0.1 ms, bench/competition.py)."""
    game_id = (request.view_args or {}).get(GAME_ARGUMENT)
    if game_id is None:
        return
    view = current_app.view_functions.get(request.endpoint)
    if getattr(view, "reads_no_game", False):
        return
    method = "GET" if request.method == "HEAD" else request.method
    check(game_id, (request.endpoint, method), seat_asked=request.args.get("seat"))


def check(game_id: str, use: tuple[str, str] | None, *, seat_asked: str | None = None) -> None:
    """403 ``round_running`` when ``game_id`` is a table of a running duplicate round and ``use`` (the
    request's endpoint and method; None: a use that is no seat's play, such as a fork) is not the play
    of one of its seats, by that seat's token (its past views: its own seat's only)."""
    games = store()
    tournament_id = tournament_store(games).closed_by(game_id)
    if tournament_id is None:
        return
    if use not in SEAT_PLAY:
        raise round_running(tournament_id)
    token = bearer_token()
    role = None if token is None else games.token_role(game_id, token)
    if role is None or not role.isdigit():
        raise round_running(tournament_id)
    if use[0] == _PAST_VIEWS and seat_asked is not None and seat_asked != role:
        # A finished table shows every seat's past views (``?seat=``): its hands are the slower tables' too.
        raise round_running(tournament_id)


def refuse_fork(game_id: str) -> None:
    """A fork reads the game (its state, or its log replayed): closed to everyone while the round runs."""
    check(game_id, None)
