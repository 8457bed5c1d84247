"""``/v1/simulations``: bulk bot games on the workers (202 + Location, then poll; DELETE cancels)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from types import ModuleType

from flask import Response, current_app, url_for
from flask.views import MethodView
from flask_smorest import Blueprint

from api.apps import ownership
from api.http.helpers import json_response
from api.http.problems import ApiProblem, problem_response, validation_problem
from api.runs.lifecycle import Settings
from api.runs.store import Connection, RunNotFound, connect
from api.simulations import lifecycle
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
    app.extensions[EXTENSION] = connect(app.config["REDIS_URL"])


def redis() -> Connection:
    return current_app.extensions[EXTENSION]


def settings() -> Settings:
    return Settings.from_config(current_app.config)


def app_settings() -> Settings:
    """``settings()`` with the TTL the calling app's retention asks for (runs of the simulation workers)."""
    kept = settings()
    return dataclasses.replace(kept, ttl=ownership.simulation_ttl(kept.ttl))


# What the endpoints of simulations and experiments (api/experiments/routes.py) share; ``runs`` is the
# kind's lifecycle module, ``noun`` its name in problems.


def found(runs: ModuleType, noun: str, read: Callable, run_id: str, *args) -> Response:
    """``read(redis, run_id, *args)`` answered, with an unknown run, or another app's, answered as 404."""
    try:
        ownership.require_owner(runs.owner(redis(), run_id), noun, hide=True)
        return json_response(read(redis(), run_id, *args))
    except RunNotFound:
        raise ApiProblem("not-found", f"no {noun} {run_id!r} (or it has expired)") from None


def start(runs: ModuleType, body: dict, admit: Callable[[dict, str], None], kind: str, endpoint: str,
          id_name: str) -> Response:
    """Submit a run for the calling app: 202 with its status and ``Location`` (``endpoint``'s, with the
    run's id as ``id_name``)."""
    try:
        run_id = runs.submit(redis(), body, app_settings(), owner=ownership.current_app_id(), admit=admit)
    except InvalidOptions as error:
        raise validation_problem(error.fields, error.message) from None
    ownership.claim(kind, run_id)
    location = url_for(endpoint, **{id_name: run_id})
    return json_response(runs.status(redis(), run_id), 202, headers={"Location": location})


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
        return start(lifecycle, body, ownership.admit_simulation, "sims", "simulations.Simulation", "sim_id")


@blp.route("/<string:sim_id>")
class Simulation(MethodView):
    @blp.response(200, SimulationSchema)
    @blp.alt_response(**problem_response(404, "No such simulation, or it has expired."))
    def get(self, sim_id: str):
        """Read a simulation

        Status (`queued`, `running`, `finished`, `failed`, `cancelled`), progress in games,
        elapsed seconds, and once finished the statistics in `result`.
        """
        return found(lifecycle, "simulation", lifecycle.status, sim_id)

    @blp.doc(operationId="cancel_simulation")
    @blp.response(200, SimulationSchema)
    @blp.alt_response(**problem_response(404, "No such simulation, or it has expired."))
    def delete(self, sim_id: str):
        """Cancel a simulation

        A queued or running simulation becomes `cancelled`: its queued chunks leave the
        queue and a running chunk stops within seconds; the games counted so far stay in
        `progress`. A simulation that has already ended is left as it is.
        """
        return found(lifecycle, "simulation", lifecycle.cancel, sim_id, settings())
