"""``/v1/players`` and ``/v1/ratings``: an app's players, their games and ratings (docs/competition.md).
Every answer is the calling app's own: another app's player ids are unknown here (404)."""

from __future__ import annotations

from flask.views import MethodView
from flask_smorest import Blueprint

from api.apps.ownership import current_app_id
from api.competition import players
from api.competition.schemas import LeaderboardSchema, PageQuerySchema, PlayerGamesPageSchema, PlayerSchema
from api.ground.times import iso_time
from api.http.helpers import json_response, ruleset_at_path, store
from api.http.problems import ApiProblem, problem_response

players_blp = Blueprint("players", __name__, url_prefix="/v1/players",
                        description="The app's named players: their games, ratings and results.")
ratings_blp = Blueprint("ratings", __name__, url_prefix="/v1/ratings", description="The app's leaderboards.")

PLAYER_404 = problem_response(404, "The app has no player of that id (another app's players are not this app's).")
#: A player's reads name its games, unlisted ones too: not for a publishable key (api/apps/access.py).
GAMES_SCOPE_403 = problem_response(403, "The app key lacks the `games` scope (a publishable key never has it).")


def _known_player(player_id: str) -> str:
    if not players.known(store(), current_app_id(), player_id):
        raise ApiProblem("not-found", f"this app has no player {player_id!r}")
    return player_id


@players_blp.route("/<player_id>")
class Player(MethodView):
    @players_blp.response(200, PlayerSchema)
    @players_blp.alt_response(**PLAYER_404)
    @players_blp.alt_response(**GAMES_SCOPE_403)
    def get(self, player_id: str):
        """Read a player

        The player's rating in each ruleset it has rated games of (`mu`, its uncertainty
        `sigma`, the leaderboard's `ordinal`, its place), how many of its games the app keeps,
        and its latest rated results; its average move cost over the analyses already made of its
        most recent games (reading one never starts an analysis).
        """
        app_id = current_app_id()
        _known_player(player_id)
        recent = players.recent_results(store(), app_id, player_id)
        move_cost, analysed_games = players.move_cost(store(), app_id, player_id)
        for entry in recent:
            entry["finished"] = iso_time(entry["finished"])
        return json_response({"player": player_id, "ratings": players.player_ratings(store(), app_id, player_id),
                              "games_played": players.games_played(store(), app_id, player_id), "recent": recent,
                              "move_cost": move_cost, "analysed_games": analysed_games})


@players_blp.route("/<player_id>/games")
class PlayerGames(MethodView):
    @players_blp.arguments(PageQuerySchema, location="query")
    @players_blp.response(200, PlayerGamesPageSchema)
    @players_blp.alt_response(**PLAYER_404)
    @players_blp.alt_response(**GAMES_SCOPE_403)
    def get(self, query: dict, player_id: str):
        """A player's games, paged

        Newest first: each game the player sat at (the seat it had), running or finished,
        while the game is kept. Pass `next` as `cursor` to read on.
        """
        _known_player(player_id)
        games, following = players.player_games(store(), current_app_id(), player_id, query["cursor"], query["limit"])
        for game in games:
            game["created"] = iso_time(game["created"])
        return json_response({"player": player_id, "games": games, "next": following})


@ratings_blp.route("/<ruleset_id>")
class Leaderboard(MethodView):
    @ratings_blp.arguments(PageQuerySchema, location="query")
    @ratings_blp.response(200, LeaderboardSchema)
    @ratings_blp.alt_response(**problem_response(404, "No such ruleset."))
    def get(self, query: dict, ruleset_id: str):
        """The app's leaderboard of a ruleset, paged

        Every player (people and bots) with a rated game of the ruleset in this app, best
        `ordinal` (`mu - 3 sigma`) first. Pass `next` as `cursor` to read on.
        """
        ruleset = ruleset_at_path(ruleset_id)
        entries, following = players.leaderboard(store(), current_app_id(), ruleset.id, query["cursor"],
                                                 query["limit"])
        return json_response({"ruleset": ruleset.id, "ratings": entries, "next": following})
