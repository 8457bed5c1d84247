"""``GET /v1/games/{id}/record`` and ``POST /v1/rulesets/{id}/evaluate``."""

from __future__ import annotations

from flask import g
from flask.views import MethodView
from flask_smorest import Blueprint

from api.http.helpers import bearer_token, caller_seat, json_response, load_current, ruleset_at_path, store
from api.http.problems import ApiProblem, problem_response, validation_problem
from api.play.game_record import WAITING
from api.records.build import record_for
from api.records.schemas import EvaluateRequestSchema, EvaluationSchema
from engine.records import MAX_LOG_ENTRIES, MAX_SEAT, RecordError, RecordSchema, evaluate

blp = Blueprint("records", __name__, url_prefix="/v1", description="Game records: export, replay and evaluation.")

#: largest evaluate body: the exported record of a game of MAX_LOG_ENTRIES entries, events and all,
#: fits (records average 220-260 bytes a log entry: docs/records.md, "How long a game gets")
EVALUATE_MAX_BYTES = 8 * 1024 * 1024


@blp.route("/games/<game_id>/record")
class GameRecordView(MethodView):
    @blp.doc(operationId="get_record")
    @blp.doc(security=[{"bearerAuth": []}, {}])
    @blp.response(200, RecordSchema)
    @blp.alt_response(**problem_response(401, "The token is malformed or not one of this game's."))
    @blp.alt_response(**problem_response(404, "No such game (or it expired)."))
    @blp.alt_response(**problem_response(409, "The game has not started: it waits for its open seats "
                                         "(`reason`: not_started); its record begins when it starts."))
    def get(self, game_id: str):
        """The game's record

        A self-contained record (docs/records.md) that `rulehouse replay` checks. Once the
        game is finished, everyone gets all of it: seed and salt (to check the
        `seed_commitment`), every action and every event. While it runs, a seat token gets
        what that seat may see (its own actions and secrets, public events, other seats'
        actions where the ruleset has no secret choices) and no seed; the creator token or no
        token the spectator's part.
        """
        record = load_current(game_id, bearer_token())
        if record.status == WAITING:
            raise ApiProblem("illegal-action", "the game has not started: it waits for its open seats",
                             reason="not_started", version=record.version)
        role, seat = caller_seat(record)
        body = record_for(store(), record, seat)
        etag_role = {"seat": str(seat), "creator": "c"}.get(role)
        response = json_response(body)
        response.headers["ETag"] = f'"{record.version}"' if etag_role is None else f'"{record.version}.{etag_role}"'
        response.headers["Cache-Control"] = "private"
        response.headers["Vary"] = "Authorization"
        return response


#: The spec's request example (tests/api/test_spec_examples.py sends it): the first move of the
#: create_game example's game (seed 7: Ann spins first), seen by the other seat.
EVALUATE_EXAMPLE = {"record": {"ruleset": "monopoly-cars2", "players": 2, "seed": 7,
                               "log": [{"seat": 0, "action": {"type": "roll"}}]}, "seat": 1}


@blp.route("/rulesets/<ruleset_id>/evaluate")
class Evaluate(MethodView):
    #: read by api.app before the body is: records are larger than actions
    max_body_bytes = EVALUATE_MAX_BYTES

    @blp.doc(requestBody={"required": True, "content": {"application/json": {
        "schema": EvaluateRequestSchema, "example": EVALUATE_EXAMPLE}}})
    @blp.response(200, EvaluationSchema)
    @blp.alt_response(**problem_response(404, "No such ruleset."))
    @blp.alt_response(**problem_response(413, f"The body is larger than {EVALUATE_MAX_BYTES} bytes."))
    @blp.alt_response(**problem_response(422, f"The record does not fit the format (e.g. more than "
                                         f"{MAX_LOG_ENTRIES} log entries), names another ruleset or rules "
                                         f"version, has no seed or start, or `seat` is not in the game."))
    @blp.doc(operationId="evaluate")
    def post(self, ruleset_id: str):
        """Evaluate a record without storing it

        Replays the record's setup and log on the engine (nothing is read from or written
        to Redis) and answers whether every action was legal (the first illegal one stops
        the evaluation, with the engine's reason), then the seat's view, its pending
        decisions, the events it may see, and the result if the game is over. Apps that
        keep their own storage referee with it.
        """
        ruleset_at_path(ruleset_id)
        record, seat = _evaluate_request(g.json_body)
        if record.get("ruleset", ruleset_id) != ruleset_id:
            raise validation_problem({"record": {"ruleset": [f"this is /v1/rulesets/{ruleset_id}"]}})
        try:
            answer = evaluate({**record, "ruleset": ruleset_id}, seat)
        except RecordError as error:
            fields = {"seat": error.fields["seat"]} if error.reason == "invalid_seat" else {
                "record": error.fields or {"_schema": [error.message]}}
            raise validation_problem(fields, error.message, reason=error.reason) from None
        return json_response(answer)


def _evaluate_request(body) -> tuple[dict, int | None]:
    """The record and seat of an evaluate body. The record is checked once, by the engine, against
    ``RecordSchema`` (loading a long log twice would double the request's cost)."""
    if not isinstance(body, dict) or not isinstance(body.get("record"), dict):
        raise validation_problem({"record": ["required: a record object"]})
    unknown = sorted(set(body) - set(EvaluateRequestSchema._declared_fields))
    if unknown:
        raise validation_problem({name: ["unknown field"] for name in unknown})
    seat = body.get("seat")
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= MAX_SEAT):
        raise validation_problem({"seat": [f"null or a seat number 0 .. {MAX_SEAT}"]})
    return body["record"], seat
