"""``GET /v1/games/{id}/views/{version}``: the view a caller had (or may now have) at a past version."""

from __future__ import annotations

from flask import request
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from api.http.helpers import bearer_token, caller_seat, json_response, load_game, store
from api.http.problems import ApiProblem, problem_response, validation_problem
from api.play.game_record import OVER
from api.play.rules_version import ensure_current
from api.views.timeline import timelines
from engine.core.registry import get_ruleset
from engine.records import MAX_LOG_ENTRIES, MAX_SEAT

blp = Blueprint("views", __name__, url_prefix="/v1/games",
                description="Past positions of a game, for replays: the view at any version.")

#: a version number in a path: never above the longest log a game has (and far below 2**63)
MAX_VERSION = 10 * MAX_LOG_ENTRIES


VERSION_PATH = {"in": "path", "name": "version", "required": True,
                "description": "The version: 0 (just created) up to the game's own.",
                "schema": {"type": "integer", "minimum": 0, "maximum": MAX_VERSION}}
SEAT_QUERY = {"in": "query", "name": "seat", "required": False,
              "description": "A finished game only: whose view (once the game is over every seat's may be "
                             "seen). Absent: the token's seat, else the spectator's view.",
              "schema": {"type": "integer", "minimum": 0, "maximum": MAX_SEAT}}


class PastViewSchema(Schema):
    game_id = fields.String(required=True)
    version = fields.Integer(required=True, metadata={"description": "The version asked for."})
    latest_version = fields.Integer(required=True, metadata={"description": "The game's version now."})
    seat = fields.Integer(required=True, allow_none=True, metadata={
        "description": "Whose view this is; null: the spectator's."})
    status = fields.String(required=True, validate=validate.OneOf(["waiting", "active", "finished"]), metadata={
        "description": "The game's status at that version."})
    view = fields.Dict(required=True, allow_none=True, metadata={
        "description": "The view at that version, as `GET /v1/games/{id}` gave it then; null while the table "
                       "waited for players."})
    waiting_for = fields.List(fields.Integer(), required=True, metadata={
        "description": "The seats whose decision was pending at that version."})
    result = fields.Dict(required=True, allow_none=True, metadata={
        "description": "The result, at the version that ended the game and after."})


def _number(text: str | None, name: str, highest: int, where: str) -> int | None:
    """A whole number 0 .. ``highest`` from the path or query (None when absent); else 422 naming it."""
    if text is None:
        return None
    # The length first: int() of a digit string past 4,300 digits raises (and would be a 500).
    if len(text) > len(str(highest)) or not text.isascii() or not text.isdigit() or int(text) > highest:
        raise validation_problem({name: [f"a whole number 0 .. {highest}"]}, prefix=where)
    return int(text)


@blp.route("/<game_id>/views/<version>")
class PastView(MethodView):
    @blp.doc(operationId="get_view_at", security=[{"bearerAuth": []}, {}], parameters=[VERSION_PATH, SEAT_QUERY])
    @blp.response(200, PastViewSchema)
    @blp.alt_response(**problem_response(401, "The token is malformed or not one of this game's."))
    @blp.alt_response(**problem_response(403, "`seat` is another seat's and the game is not finished."))
    @blp.alt_response(**problem_response(404, "No such game, or it has no such version yet."))
    @blp.alt_response(**problem_response(410, "The game was created under an older rules version."))
    @blp.alt_response(**problem_response(422, "`version` or `seat` is not a number in range."))
    def get(self, game_id: str, version: str):
        """The view at a past version

        The game as the caller saw it at `version` (0: just created), for replays: a seat token
        gets its own seat's view (its hand, its secrets of then), the creator token and no token
        the spectator's. Once the game is finished nothing is secret any more: `seat` picks any
        seat's view. The service plays the game's log again from its seed up to that version,
        from a checkpoint every 50 log entries, so stepping through a long game costs little.
        A past view never changes: the answer may be cached (`Cache-Control: private`).
        """
        at = _number(version, "version", MAX_VERSION, "/path")
        asked_seat = _number(request.args.get("seat"), "seat", MAX_SEAT, "/query")
        game = load_game(game_id, bearer_token())
        _, own_seat = caller_seat(game)
        ruleset = get_ruleset(game.ruleset)
        ensure_current(ruleset, game)
        if at > game.version:
            raise ApiProblem("not-found", f"game {game_id} has no version {at} yet: it is at version {game.version}")
        seat = own_seat
        if asked_seat is not None:
            if asked_seat >= len(game.seats):
                raise validation_problem({"seat": [f"this game has seats 0 .. {len(game.seats) - 1}"]},
                                         prefix="/query")
            if game.status not in OVER and asked_seat != own_seat:
                raise ApiProblem("forbidden", "a running game shows a seat's view to that seat's token only")
            seat = asked_seat
        state = timelines.state_at(store(), ruleset, game, at)
        if state is None:
            body = {"status": "waiting", "view": None, "waiting_for": [], "result": None}
        else:
            result = ruleset.result(state)
            body = {
                "status": "active" if result is None else "finished",
                "view": ruleset.view(state, seat),
                "waiting_for": sorted({decision.seat for decision in ruleset.pending(state)}),
                "result": None if result is None else result.to_dict(),
            }
        response = json_response({"game_id": game_id, "version": at, "latest_version": game.version, "seat": seat,
                                  **body})
        response.headers["Cache-Control"] = "private, max-age=86400"
        response.vary.add("Authorization")
        return response
