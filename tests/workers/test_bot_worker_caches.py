"""A bot worker's state cache keeps its bound over many games, and its /metrics shows it (issue 29)."""

from __future__ import annotations

import pytest
import requests
from prometheus_client.parser import text_string_to_metric_families

from tests.processes import free_port, wait_for

SEATS = [{"name": "Ann"}, *({"name": f"b{n}", "bot": "random"} for n in (1, 2, 3))]
GAMES = 8
BOUND = 3


def worker_cache(port: int, cache: str) -> tuple[float | None, float | None]:
    found = {}
    text = requests.get(f"http://127.0.0.1:{port}/metrics", timeout=5).text
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.labels.get("cache") == cache:
                found[sample.name] = sample.value
    return found.get("rulehouse_cache_entries"), found.get("rulehouse_cache_bound")


@pytest.mark.timeout(180)
def test_a_bot_worker_keeps_the_states_of_its_bound_of_games(app, workers, monkeypatch):
    port = free_port()
    monkeypatch.setenv("RULEHOUSE_STATE_CACHE_SIZE", str(BOUND))
    workers.start(1, "--queues", "bots", "--metrics-port", str(port))
    client = app.test_client()
    games = [client.post("/v1/games", json={"ruleset": "cash-n-guns", "seed": seed, "seats": SEATS}).get_json()
             for seed in range(GAMES)]
    # The three bots choose their bullets, one job each; then only Ann is pending, and the worker has
    # kept the state of its last move of that game.
    for game in games:
        wait_for(lambda game=game: client.get(f"/v1/games/{game['id']}").get_json()["waiting_for"] == [0]
                 and client.get(f"/v1/games/{game['id']}").get_json()["version"] == 3, timeout=90, interval=0.1)
    # Every bot job writes the worker's cache sizes when it ends: the last one may still be finishing.
    assert wait_for(lambda: worker_cache(port, "state")[0] is not None and worker_cache(port, "state"),
                    timeout=30) == (BOUND, BOUND)
