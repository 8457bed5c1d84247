"""Simulations end to end: queued through the SDK, played by a real worker process, waited for."""

from __future__ import annotations

import pytest
from rulehouse_sdk import Client, InvalidRequest, NotFound, SimulationFailed, WaitTimeout

from tests.sdk.test_examples import load_example
from tests.sdk.test_retries import ScriptedServer


def test_run_simulation_example_waits_with_progress(base_url, checker, worker, capsys):
    done = load_example("run_simulation").main(base_url, games=300, seed=5, session=checker.session())
    assert done["status"] == "finished"
    assert done["progress"]["games_done"] == done["games"] == 300
    result = done["result"]
    assert result["games"] == 300 and len(result["win_rates"]) == 2
    assert sum(result["wins"]) + result["draws"] <= 300
    out = capsys.readouterr().out
    assert "300/300 games" in out and "seat 0 (heuristic)" in out
    assert ("GET", "/v1/simulations/{sim_id}", 200) in checker.checked


def test_progress_is_reported_on_every_poll(client, worker):
    # Big enough to be polled under way; an idle worker may still finish it before the answer to the POST.
    created = client.create_simulation("monopoly-cars2", 3000, players=3, bots=["random"], seed=8, chunk_size=500)
    assert created["status"] in ("queued", "running", "finished") and created["chunks"] == 6
    seen = []
    done = client.wait_for_simulation(created["id"], poll_interval=0.05, timeout=120, progress=seen.append)
    assert seen[-1] == done and done["status"] == "finished"
    done_counts = [simulation["progress"]["games_done"] for simulation in seen]
    assert done_counts == sorted(done_counts) and done_counts[-1] == 3000


def test_a_cancelled_simulation_is_returned_not_raised(client):
    created = client.create_simulation("monopoly-cars2", 1000, seed=1)  # no worker: it stays queued
    cancelled = client.cancel_simulation(created["id"])
    assert cancelled["status"] == "cancelled"
    assert client.wait_for_simulation(created["id"], timeout=5)["status"] == "cancelled"


def test_simulation_errors(client):
    with pytest.raises(InvalidRequest) as raised:
        client.create_simulation("monopoly-cars2", 10, bots=["no-such-bot"])
    assert any(field["pointer"].startswith("/bots") for field in raised.value.errors)
    with pytest.raises(NotFound):
        client.get_simulation("no-such-simulation")


def test_waiting_past_the_timeout_raises_wait_timeout(client):
    created = client.create_simulation("monopoly-cars2", 1000, seed=2)  # no worker: it stays queued
    with pytest.raises(WaitTimeout) as raised:
        client.wait_for_simulation(created["id"], poll_interval=0.05, timeout=0.3)
    assert isinstance(raised.value, TimeoutError) and raised.value.problem["status"] == "queued"
    client.cancel_simulation(created["id"])


def test_a_failed_simulation_raises_with_its_error(client, checker):
    # The live service cannot be made to fail on demand: a stub serves a real simulation marked failed.
    failed = {**client.create_simulation("monopoly-cars2", 10, seed=3), "status": "failed", "error": "chunk 0: boom"}
    with ScriptedServer((200, {}, failed)) as server, pytest.raises(SimulationFailed) as raised:
        Client(server.url, session=checker.session()).wait_for_simulation(failed["id"])
    assert raised.value.detail == "chunk 0: boom" and raised.value.problem == failed
