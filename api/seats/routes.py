"""Seats and the lobby: join a game, leave before the start, start early, hand a seat to a bot,
and list the games that wait for players (``api.play.table`` does the work)."""

from __future__ import annotations

from flask import g
from flask.views import MethodView
from flask_smorest import Blueprint

from api.apps import ownership
from api.ground.times import iso_time
from api.http.helpers import json_response, required_token, store
from api.http.problems import ApiProblem, problem_response
from api.play.game_record import GameRecord
from api.play.table import Table, is_open, public_seats
from api.seats.schemas import (
    BotSeatSchema,
    JoinedSchema,
    JoinSchema,
    LobbyPageSchema,
    LobbyQuerySchema,
    SeatsChangedSchema,
    StartSchema,
)
from engine.core.registry import get_ruleset

blp = Blueprint("seats", __name__, url_prefix="/v1/games",
                description="Seats of a game (join, leave, start, hand to a bot) and the lobby of waiting games.")

SEAT_TOKEN = [{"bearerAuth": []}]
COMMON = (
    problem_response(400, "The body is not valid JSON."),
    problem_response(404, "No such game (or it expired), or no such seat."),
    problem_response(415, "The body is not JSON."),
    problem_response(422, "The body does not fit its schema (e.g. an invalid name, an unknown bot)."),
)
CONFLICT = problem_response(409, "The seat change is not possible now (`reason`: table_full, seat_taken, "
                                 "game_started, already_started, not_started, game_over, too_few_players, "
                                 "seat_is_bot, no_mid_game_join, or a game's own code).")


def documented(forbidden: str, *, token: bool = True):
    """The problem answers of a seat operation: the shared ones, its 403 (``forbidden``), and
    401 when it needs a ``token``."""
    extra = [problem_response(403, forbidden)]
    if token:
        extra.append(problem_response(401, "No token, or not one of this game's."))

    def decorate(function):
        for problem in (*COMMON, CONFLICT, *extra):
            function = blp.alt_response(**problem)(function)
        return function
    return decorate


def _creator_in_its_app(game_id: str, token: str) -> None:
    """The creator token starts a game or hands its seats to bots only from the game's own app."""
    record = store().load(game_id, token=token)
    if record is not None and record.token_role == "creator":
        ownership.require_creator_app(record.app)


def _admit_bot(game_id: str, bot: str | None) -> None:
    """A searching bot taking a seat needs search work left today on the game's app (403 past it)."""
    record = store().load(game_id)
    if record is not None:
        ownership.admit_search_seats(get_ruleset(record.ruleset), [bot], record.app)


def _changed(record: GameRecord) -> dict:
    """The answer to a seat change: the game's public seats after it."""
    return {"id": record.id, "version": record.version, "status": record.status, "seats": public_seats(record.seats)}


@blp.route("/<game_id>/join")
class Join(MethodView):
    @blp.doc(operationId="join_game")
    @blp.arguments(JoinSchema, example={"name": "Bea"})
    @blp.response(201, JoinedSchema)
    @documented("The invite is not one of this game's, or the game needs one.", token=False)
    def post(self, body: dict, game_id: str):
        """Take a seat

        With an invite from the creation answer (or, for a listed game that has not
        started, without one) and a display name: answers the seat and its secret
        token. A seat's invite takes that seat while it is open; the per-game invite of a
        ruleset that seats players mid-game takes the first open seat before the start and
        a new seat after it. When the last open seat is taken, the game starts.
        """
        if body["player"] is not None:
            if g.get("app") is None or g.app.publishable:
                raise ApiProblem("forbidden", "only the app's secret key names a joining player (a publishable key "
                                 "would let any page claim any player id)", reason="secret_key_required")
            game = store().load(game_id)
            if game is not None and game.app != g.app.id:
                raise ApiProblem("forbidden", "only the game's own app names its players", reason="not_owner")
        # A named player's seat is indexed by the competition room, a listener of the join (Listeners.joined).
        answer, _ = Table(store()).join(game_id, body["invite"], body["name"], body["player"])
        return json_response(answer, 201)


@blp.route("/<game_id>/start")
class Start(MethodView):
    @blp.doc(operationId="start_game")
    @blp.doc(security=SEAT_TOKEN)
    @blp.arguments(StartSchema, example={"fill": "bot", "bot": "random"})
    @blp.response(200, SeatsChangedSchema)
    @documented("Only the creator token starts a game, through the app that created it (`not_owner`).")
    def post(self, body: dict, game_id: str):
        """Start a waiting game early

        The creator token starts the game now: each open seat is played by `bot`
        (`fill: bot`), or removed (`fill: remove`, where the ruleset's player range
        allows; the seats after it move up, and their tokens follow them).
        """
        token = required_token()
        _creator_in_its_app(game_id, token)
        if body["fill"] == "bot":
            _admit_bot(game_id, body.get("bot"))
        record = Table(store()).start(game_id, token, body["fill"], body.get("bot"))
        return json_response(_changed(record), version=record.version, role="c")


@blp.route("/<game_id>/seats/<int:seat>/leave")
class Leave(MethodView):
    takes_no_body = True

    @blp.doc(operationId="leave_seat")
    @blp.doc(security=SEAT_TOKEN)
    @blp.response(200, SeatsChangedSchema)
    @documented("Only the seat's own token leaves it.")
    def post(self, game_id: str, seat: int):
        """Leave a seat before the start

        The seat reopens (its token stops working); its invite, if it had one, takes it again.
        """
        record = Table(store()).leave(game_id, seat, required_token())
        return json_response(_changed(record), version=record.version)


@blp.route("/<game_id>/seats/<int:seat>/bot")
class HandToBot(MethodView):
    @blp.doc(operationId="seat_to_bot")
    @blp.doc(security=SEAT_TOKEN)
    @blp.arguments(BotSeatSchema, example={"bot": "random"})
    @blp.response(200, SeatsChangedSchema)
    @documented("Only the seat's own token or the creator's (through the game's app: `not_owner`) hands a "
                "seat to a bot.")
    def post(self, body: dict, game_id: str, seat: int):
        """Hand a seat to a bot

        During a game, the seat's player (or the creator, for a player who vanished)
        hands the seat to a bot: the game goes on with the bot playing it, and the
        seat's token stops acting.
        """
        token = required_token()
        _creator_in_its_app(game_id, token)
        _admit_bot(game_id, body["bot"])
        record = Table(store()).to_bot(game_id, seat, token, body["bot"])
        return json_response(_changed(record), version=record.version)


@blp.route("")
class Lobby(MethodView):
    @blp.doc(operationId="list_games")
    @blp.arguments(LobbyQuerySchema, location="query")
    @blp.response(200, LobbyPageSchema)
    @blp.alt_response(**problem_response(422, "A query parameter is invalid."))
    def get(self, query: dict):
        """The lobby: listed games waiting for players

        Games created with `listed: true` that have not started, oldest first, as any
        stranger may see them (no tokens, invites, seed or options). Pass `next` as
        `cursor` to read on.
        """
        records, cursor = Table(store()).lobby(query.get("ruleset"), query["limit"], query.get("cursor"))
        games = [{
            "id": record.id, "ruleset": record.ruleset, "status": record.status, "players": len(record.seats),
            "open_seats": sum(is_open(seat) for seat in record.seats), "seats": public_seats(record.seats),
            "decision_timeout": record.decision_timeout, "hints": record.hint_counts is not None,
            "created": iso_time(record.created),
        } for record in records]
        return json_response({"games": games, "next": cursor})
