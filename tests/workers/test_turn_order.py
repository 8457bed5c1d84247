"""Win rates by turn-order position through the workers: simulations and experiments over HTTP, and a
chunk recorded in the tally format before turn order was counted (an older worker's, before a deploy)
still counting in everything it has."""

from __future__ import annotations

import json

import pytest

from api.experiments.store import ExperimentStore
from api.simulations.store import SimulationStore
from engine.core.registry import get_ruleset
from engine.experiments.design import Variant
from engine.experiments.measures import play_experiment_chunk
from engine.simulate import game_seed, play_chunk, play_game, simulate
from tests.engine.turn_orders import order_the_table_saw, won
from tests.processes import wait_for

RULESET = "monopoly-cars2"
#: Seeds of these tests (the golden games use 0 .. 9).
SEED = 7433


@pytest.fixture
def client(redis_db_url, redis):
    from api.app import create_app

    app = create_app({"REDIS_URL": redis_db_url})
    app.testing = True
    return app.test_client()


def finished(client, location: str) -> dict:
    state = wait_for(lambda: (r := client.get(location).get_json())["status"] in ("finished", "failed") and r,
                     timeout=90, interval=0.1)
    assert state["status"] == "finished", state["error"]
    return state


def test_a_simulation_on_the_workers_counts_wins_by_who_moved_first(client, workers):
    response = client.post("/v1/simulations", json={"ruleset": RULESET, "players": 4, "bots": ["heuristic"],
                                                    "games": 240, "seed": SEED, "chunk_size": 60})
    assert response.status_code == 202
    workers.start(2)
    positions = finished(client, response.headers["Location"])["result"]["positions"]
    ruleset = get_ruleset(RULESET)
    wins = [0] * 4
    for index in range(240):
        seed = game_seed(SEED, index)
        result = play_game(ruleset, 4, ["heuristic"] * 4, {}, seed).result
        for position, seat in enumerate(order_the_table_saw(RULESET, 4, {}, seed)):
            wins[position] += won(result, seat)
    assert positions["games"] == 240 and positions["wins"] == wins
    assert sum(positions["first_movers"]) == 240


def old_format(tally_dict: dict) -> dict:
    """A tally as a worker of the release before turn order wrote it."""
    return {name: value for name, value in tally_dict.items() if name != "positions"}


def test_a_simulation_chunk_recorded_before_the_deploy_still_counts(client, redis, workers):
    response = client.post("/v1/simulations", json={"ruleset": RULESET, "players": 4, "bots": ["heuristic"],
                                                    "games": 200, "seed": SEED, "chunk_size": 50})
    sim_id = response.get_json()["id"]
    old = play_chunk(RULESET, 4, ["heuristic"], {}, SEED, 0, 50)
    assert SimulationStore(redis).record(sim_id, 0, json.dumps(old_format(old.to_dict())), 50, 600) == 1
    workers.start(2)
    result = finished(client, response.headers["Location"])["result"]
    whole = simulate(RULESET, 200, 4, ["heuristic"], {}, SEED)
    assert result["games"] == 200 and result["wins"] == whole["wins"] and result["turns"] == whole["turns"]
    newer = play_chunk(RULESET, 4, ["heuristic"], {}, SEED, 50, 150).positions
    assert result["positions"]["games"] == 150
    assert (result["positions"]["wins"], result["positions"]["first_movers"]) == (newer.wins, newer.first_movers)


def test_an_experiment_chunk_recorded_before_the_deploy_still_counts(client, redis, workers):
    body = {"ruleset": RULESET, "players": 3, "bots": ["heuristic"], "sweep": {"starting_money": [8]},
            "games": 160, "seed": SEED, "chunk_size": 40}
    response = client.post("/v1/experiments", json=body)
    assert response.status_code == 202
    exp_id = response.get_json()["id"]
    spec = json.loads(ExperimentStore(redis).meta(exp_id)["spec"])
    variants = [Variant.from_dict(v) for v in spec["variants"]]
    old = play_experiment_chunk(RULESET, 3, variants, [0, 1], SEED, 0, 40)
    chunk = {}
    for v, tally in old.items():
        data = tally.to_dict()
        data["tally"] = old_format(data["tally"])
        del data["paired_positions"]
        chunk[str(v)] = data
    assert ExperimentStore(redis).record(exp_id, 0, json.dumps(chunk), 80, 600) == 1
    workers.start(2)
    state = finished(client, response.headers["Location"])
    newer = play_experiment_chunk(RULESET, 3, variants, [0, 1], SEED, 40, 120)
    whole = play_experiment_chunk(RULESET, 3, variants, [0, 1], SEED, 0, 160)
    for v, report in enumerate(state["result"]["variants"]):
        assert report["games"] == 160 and report["win_rates"] == [round(w / 160, 6) for w in whole[v].tally.wins]
        assert report["positions"]["games"] == 120 and report["positions"]["wins"] == newer[v].tally.positions.wins
        first_rate = newer[v].tally.positions.wins[0] / 120
        assert report["first_mover_edge"]["value"] == pytest.approx(first_rate - 1 / 3, abs=1e-6)
    difference = state["result"]["variants"][1]["difference"]
    assert difference["win_rates"][0]["pairs"] == 160 and difference["position_win_rates"][0]["pairs"] == 120
    assert state["result"]["summary"].startswith("with starting_money=8 the first mover's edge is ")
