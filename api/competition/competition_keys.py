"""The key layout of api/competition (see its package docstring)."""

from __future__ import annotations

PENDING_KEY = "competition:pending"
#: due-time index of the players' lists that may hold an expired game (``api.competition.player_lists``)
LISTS_DUE_KEY = "competition:lists-due"


def player_games_key(app_id: str, player: str) -> str:
    return f"app:{{{app_id}}}:player:{player}:games"


def player_results_key(app_id: str, player: str) -> str:
    return f"app:{{{app_id}}}:player:{player}:results"


def ratings_key(app_id: str, ruleset: str) -> str:
    return f"app:{{{app_id}}}:ratings:{ruleset}"


def board_key(app_id: str, ruleset: str) -> str:
    return f"app:{{{app_id}}}:board:{ruleset}"


def rated_game_key(app_id: str, game_id: str) -> str:
    """Present once the game's ratings are counted (a game is rated once)."""
    return f"app:{{{app_id}}}:rated:{game_id}"


def tournament_key(tournament_id: str) -> str:
    return f"tournament:{{{tournament_id}}}"


def app_tournaments_key(app_id: str) -> str:
    return f"app:{{{app_id}}}:tournaments"


RUNNING_TOURNAMENTS_KEY = "tournaments:running"


def closed_key(game_id: str) -> str:
    """Present while the game is a table of a duplicate round that has not finished: its value is the
    tournament's id."""
    return f"closed:{{{game_id}}}"
