"""Health, readiness and the optional bench endpoint."""

from __future__ import annotations

from flask import Blueprint as FlaskBlueprint
from flask import Response
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields

from api.http.helpers import json_response, store
from api.http.problems import ApiProblem, problem_response

blp = Blueprint("system", __name__, url_prefix="/v1", description="Service health.")
bench = FlaskBlueprint("bench", __name__, url_prefix="/v1/_bench")

class HealthSchema(Schema):
    status = fields.String(required=True, metadata={"description": "`ok`"})


class ReadySchema(HealthSchema):
    redis = fields.String(required=True, metadata={"description": "`ok` when Redis answered a PING."})


@blp.route("/health")
class Health(MethodView):
    @blp.doc(operationId="health")
    @blp.response(200, HealthSchema)
    def get(self):
        """Liveness

        Answers as long as the process serves requests; touches nothing else.
        """
        return json_response({"status": "ok"})


@blp.route("/ready")
class Ready(MethodView):
    @blp.doc(operationId="ready")
    @blp.response(200, ReadySchema)
    @blp.alt_response(**problem_response(503, "Redis is unreachable."))
    def get(self):
        """Readiness

        200 when Redis answers, 503 when it does not.
        """
        if not store().reachable():
            raise ApiProblem("service-unavailable", "Redis does not answer")
        return json_response({"status": "ok", "redis": "ok"})


@bench.route("/ping")
def ping() -> Response:
    """One Redis read through the same stack as the game endpoints (the bench's baseline)."""
    return json_response({"value": store().bench_read()})
