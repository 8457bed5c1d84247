"""A rematch of a finished game (``POST /v1/games/{id}/rematch``): who may ask for it, and the creation
body it stands for — the same ruleset, seats and options, a new seed."""

from __future__ import annotations

from api.apps import ownership
from api.http.problems import ApiProblem
from api.play.game_record import FINISHED, GameRecord


def require_rematch_allowed(record: GameRecord, role: str) -> None:
    """409 for a tournament's table (the tournament makes its own games: none has a creator token); then 403
    for any token but the creator's (through the game's app); 409 before the game finished."""
    if record.tournament is not None:
        raise ApiProblem("illegal-action", "a tournament's table has no rematch: the tournament pairs its games",
                         reason="tournament_table")
    ownership.require_creator(role, record.app, "start a rematch")
    if record.status != FINISHED:
        raise ApiProblem("illegal-action", f"only a finished game has a rematch (this one is {record.status})",
                         reason="not_finished")


def rematch_body(record: GameRecord) -> dict:
    """The ``POST /v1/games`` body of ``record``'s rematch: bots stay bots, every human seat is named again
    (a new token: the creator hands out the new seat links), a named player stays that player; the
    service draws a new seed."""
    seats = [{"name": seat.get("name"), "bot": seat.get("bot"), "player": seat.get("player"),
              "open": seat.get("name") is None and seat.get("bot") is None}
             for seat in record.seats]
    return {
        "ruleset": record.ruleset, "seats": seats, "fork": None, "options": dict(record.options or {}),
        "seed": None, "decision_timeout": record.decision_timeout, "listed": record.listed, "chat": record.chat,
        "hints": record.hint_counts is not None, "win_chances": record.win_chances, "rated": record.rated,
    }
