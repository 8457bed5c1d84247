"""``/v1/experiments``: variants of a game compared on the same seeds by the simulation workers."""

from __future__ import annotations

from flask.views import MethodView
from flask_smorest import Blueprint

from api.experiments import admission, lifecycle
from api.experiments.schemas import ExperimentRequestSchema, ExperimentSchema
from api.http.problems import problem_response
from api.simulations.routes import found, settings, start

blp = Blueprint(
    "experiments", __name__, url_prefix="/v1/experiments",
    description="House rules, sweeps and bot lineups compared on the same seeds, with intervals.",
)

#: The request example of the spec (tests/api/test_spec_examples.py sends it).
EXPERIMENT_EXAMPLE = {"ruleset": "monopoly-cars2", "players": 2, "bots": ["heuristic"],
                      "sweep": {"starting_money": [10, 14, 18, 22]}, "games": 400, "seed": 7}


@blp.route("")
class Experiments(MethodView):
    @blp.arguments(ExperimentRequestSchema, example=EXPERIMENT_EXAMPLE)
    @blp.response(202, ExperimentSchema, headers={"Location": {"schema": {"type": "string"}}})
    @blp.alt_response(**problem_response(422, "Unknown ruleset, option or bot, a value out of range, too many "
                                              "variants or sweep options, or a limit exceeded; `errors` names "
                                              "the field."))
    @blp.alt_response(**problem_response(403, "Over a quota (`reason`: `quota_simulation_work_per_day`, "
                                              "`quota_queued_chunks`, `quota_experiments_in_flight`)."))
    @blp.alt_response(**problem_response(400, "The body is not valid JSON."))
    @blp.alt_response(**problem_response(415, "The body is not JSON."))
    def post(self, body: dict):
        """Start an experiment

        Plays the base and every variant on the same seeds (game i of each uses the seed of
        (seed, i)), in chunks on the simulation workers that each play every variant of their
        seeds, so the comparison with the base is paired. With `stop`, it plays in rounds and stops
        each variant when its question is answered by a 95% confidence sequence; the whole budget
        is counted against the app's quotas at once. Answers 202 with `Location`.
        """
        return start(lifecycle, body, admission.admit, "exps", "experiments.Experiment", "exp_id")


@blp.route("/<string:exp_id>")
class Experiment(MethodView):
    @blp.response(200, ExperimentSchema)
    @blp.alt_response(**problem_response(404, "No such experiment, or it has expired."))
    def get(self, exp_id: str):
        """Read an experiment

        Status, progress per variant (games, and why it stopped), and the results so far: per
        variant its measures with 95% intervals and its paired differences from the base.
        """
        return found(lifecycle, "experiment", lifecycle.status, exp_id)

    @blp.doc(operationId="cancel_experiment")
    @blp.response(200, ExperimentSchema)
    @blp.alt_response(**problem_response(404, "No such experiment, or it has expired."))
    def delete(self, exp_id: str):
        """Cancel an experiment

        A queued or running experiment becomes `cancelled`: every queued chunk leaves the queue and
        running chunks stop within seconds; the games counted so far stay in `result`.
        """
        return found(lifecycle, "experiment", lifecycle.cancel, exp_id, settings())
