"""Reading an app's players and ratings (the writes are api.competition.games')."""

from __future__ import annotations

import json

from api.competition.player_store import player_store
from api.play.store import GameStore
from engine.competition import Rating
from engine.core.registry import all_rulesets


def known(store: GameStore, app_id: str, player: str) -> bool:
    """Whether the app keeps anything of ``player``: games (their index) or a rating in some ruleset."""
    return player_store(store).known(app_id, player, list(all_rulesets()))


def player_ratings(store: GameStore, app_id: str, player: str) -> list[dict]:
    """The player's rating in each ruleset it has rated games of, with its place on that leaderboard."""
    rulesets = list(all_rulesets())
    found = []
    for ruleset, (stored, rank) in zip(rulesets, player_store(store).ratings_and_places(app_id, player, rulesets),
                                       strict=True):
        if stored is None:
            continue
        entry = json.loads(stored)
        found.append({"ruleset": ruleset, **Rating(entry["mu"], entry["sigma"]).to_dict(), "games": entry["games"],
                      "place": (rank or 0) + 1})
    return found


def recent_results(store: GameStore, app_id: str, player: str) -> list[dict]:
    return player_store(store).recent_results(app_id, player)


def games_played(store: GameStore, app_id: str, player: str) -> int:
    return player_store(store).games_count(app_id, player)


#: How many of a player's most recent games its ``move_cost`` reads the stored analyses of.
MOVE_COST_GAMES = 20


def move_cost(store: GameStore, app_id: str, player: str) -> tuple[float | None, int]:
    """The player's average move cost in win-chance points over the analyses already stored of its
    ``MOVE_COST_GAMES`` most recent games (its seat's ``cost`` over its ``decisions``, all games
    together), and how many analysed games that is. None when no such game has a decision with a
    choice. Reads only each analysis' seat costs (``AnalysisStore.costs``), never an analysis
    itself (a long game's is megabytes), and starts none: one not asked, running or failed counts
    for nothing."""
    members = [member for member, _ in player_store(store).newest_games(app_id, player, 0, MOVE_COST_GAMES)]
    stored = store.analyses.costs([member.rpartition(":")[0] for member in members])
    cost, decisions, games = 0.0, 0, 0
    for member, seat_costs in zip(members, stored, strict=True):
        if seat_costs is None:
            continue
        seat_decisions, seat_cost = json.loads(seat_costs)[int(member.rpartition(":")[2])]
        cost, decisions, games = cost + seat_cost, decisions + seat_decisions, games + 1
    return (cost / decisions if decisions else None), games


def player_games(store: GameStore, app_id: str, player: str, offset: int, limit: int) -> tuple[list[dict], int | None]:
    """A page of the player's games, newest first, and the offset of the next page (None: the last).
    Games that expired leave the index as they are met."""
    players_store = player_store(store)
    entries = players_store.newest_games(app_id, player, offset, limit)
    games = store.fields_of([member.rpartition(":")[0] for member, _ in entries],
                            ["ruleset", "status", "rated", "tournament"])
    found, gone = [], []
    for (member, created), (ruleset, status, rated, tournament) in zip(entries, games, strict=True):
        game_id, _, seat = member.rpartition(":")
        if ruleset is None:
            gone.append(member)
            continue
        found.append({"id": game_id, "seat": int(seat), "ruleset": ruleset, "status": status, "rated": rated == "1",
                      "tournament": tournament, "created": created})
    players_store.drop_games(app_id, player, gone)
    more = len(entries) == limit and players_store.games_count(app_id, player) > offset + limit - len(gone)
    return found, (offset + limit - len(gone) if more else None)


def leaderboard(store: GameStore, app_id: str, ruleset: str, offset: int, limit: int) -> tuple[list[dict], int | None]:
    """A page of the app's leaderboard of ``ruleset``: best ordinal first, and the next page's offset."""
    board = player_store(store).board(app_id, ruleset, offset, limit + 1)
    more = len(board) > limit
    entries = []
    for place, (player, value) in enumerate(board[:limit], start=offset + 1):
        entry = json.loads(value)
        entries.append({"place": place, "player": player, **Rating(entry["mu"], entry["sigma"]).to_dict(),
                        "games": entry["games"]})
    return entries, (offset + limit if more else None)
