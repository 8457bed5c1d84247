"""``/v1/simulations``: bulk bot games on the workers (202 + Location, then poll; DELETE cancels)."""

from __future__ import annotations

import dataclasses

from flask import current_app, url_for
from flask.views import MethodView
from flask_smorest import Blueprint
from redis import Redis

from api.apps import ownership
from api.http import json_response
from api.problems import ApiProblem, problem_response, validation_problem
from api.simulations import jobs
from api.simulations.schemas import SimulationRequestSchema, SimulationSchema
from engine.core.errors import InvalidOptions

blp = Blueprint(
    "simulations", __name__, url_prefix="/v1/simulations",
    description="Many bot games played by the workers, with win rates and game lengths.",
)

EXTENSION = "rulehouse.simulations"


@blp.record_once
def _connect(state) -> None:
    # RQ needs a client that returns bytes, unlike the game store's.
    app = state.app
    app.extensions[EXTENSION] = Redis.from_url(app.config["REDIS_URL"])


def redis() -> Redis:
    return current_app.extensions[EXTENSION]


def settings() -> jobs.Settings:
    return jobs.Settings.from_config(current_app.config)


def app_settings() -> jobs.Settings:
    """``settings()`` with the TTL the calling app's retention asks for (runs of the simulation workers)."""
    kept = settings()
    return dataclasses.replace(kept, ttl=ownership.simulation_ttl(kept.ttl))


def _found(read, sim_id: str, *args) -> dict:
    """``read(redis, sim_id, *args)``, with an unknown simulation, or another app's, answered as 404."""
    try:
        ownership.require_owner(jobs.owner(redis(), sim_id), "simulation", hide=True)
        return read(redis(), sim_id, *args)
    except jobs.SimulationNotFound:
        raise ApiProblem("not-found", f"no simulation {sim_id!r} (or it has expired)") from None


#: The request example of the spec (tests/api/test_spec_examples.py sends it).
SIMULATION_EXAMPLE = {"ruleset": "monopoly-cars2", "games": 1000, "players": 3, "bots": ["heuristic", "random"],
                      "seed": 42}


@blp.route("")
class Simulations(MethodView):
    @blp.arguments(SimulationRequestSchema, example=SIMULATION_EXAMPLE)
    @blp.response(202, SimulationSchema, headers={"Location": {"schema": {"type": "string"}}})
    @blp.alt_response(**problem_response(422, "Unknown ruleset or bot, wrong players, invalid options, or a "
                                              "limit exceeded."))
    @blp.alt_response(**problem_response(400, "The body is not valid JSON."))
    @blp.alt_response(**problem_response(415, "The body is not JSON."))
    def post(self, body: dict):
        """Start a simulation

        Queues the games in chunks on the workers and answers at once with `Location`;
        poll that resource for progress and, when `status` is `finished`, the statistics
        (win rate per seat and per bot with 95% intervals, game lengths, draws, turn-cap
        hits). Game i depends only on (seed, i): the same request with the same seed gives
        the same statistics, however many workers share it.
        """
        try:
            sim_id = jobs.submit(redis(), body, app_settings(), owner=ownership.current_app_id(),
                                 admit=ownership.admit_simulation)
        except InvalidOptions as error:
            raise validation_problem(error.fields, error.message) from None
        ownership.claim("sims", sim_id)
        location = url_for("simulations.Simulation", sim_id=sim_id)
        return json_response(jobs.status(redis(), sim_id), 202, headers={"Location": location})


@blp.route("/<string:sim_id>")
class Simulation(MethodView):
    @blp.response(200, SimulationSchema)
    @blp.alt_response(**problem_response(404, "No such simulation, or it has expired."))
    def get(self, sim_id: str):
        """Read a simulation

        Status (`queued`, `running`, `finished`, `failed`, `cancelled`), progress in games,
        elapsed seconds, and once finished the statistics in `result`.
        """
        return json_response(_found(jobs.status, sim_id))

    @blp.doc(operationId="cancel_simulation")
    @blp.response(200, SimulationSchema)
    @blp.alt_response(**problem_response(404, "No such simulation, or it has expired."))
    def delete(self, sim_id: str):
        """Cancel a simulation

        A queued or running simulation becomes `cancelled`: its queued chunks leave the
        queue and a running chunk stops within seconds; the games counted so far stay in
        `progress`. A simulation that has already ended is left as it is.
        """
        return json_response(_found(jobs.cancel, sim_id, settings()))
