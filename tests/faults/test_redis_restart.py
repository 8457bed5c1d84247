"""Redis dies (SIGKILL) and comes back from its append-only file (``appendfsync always``) in the
middle of games and of a simulation. Meanwhile clients get 503 problem+json with Retry-After,
never a 500; afterwards every game goes on from its last committed version and plays to the
end with each move applied once, and the simulation's result equals the in-process one.

Here every seat is a person (the test); the same run with bot seats is ``bench/faults.py``:
a bot job that a worker had started when the outage killed it waits for the bot-move
recovery sweep of the hardening branch (see docs/operations.md, "Faults")."""

from __future__ import annotations

import json
import os
import signal
import threading
import time

import pytest

from api.app import create_app
from api.service.embedded_redis import EmbeddedRedis
from engine.core.registry import get_ruleset
from engine.core.rng import Rng
from engine.simulate import simulate
from tests.api.helpers import auth
from tests.processes import Workers, wait_for

GAMES = [("cash-n-guns", 4), ("monopoly-cars2", 3), ("hitchiker", 2), ("whipcash", 2)]
SIMULATION = {"ruleset": "monopoly-cars2", "players": 2, "games": 3000, "seed": 9, "chunk_size": 250}


def play_human(client, game: dict, rng: Rng, moves: int | None = None, seat: int | None = 0) -> int:
    """``seat`` (None: whoever is asked first) plays up to ``moves`` moves (None: until the game ends)."""
    made = 0
    token = auth(game["seats"][0]["token"])
    # A bot job the outage caught in flight is run again about a minute later (api/service/worker.py).
    deadline = time.monotonic() + 150
    while moves is None or made < moves:
        assert time.monotonic() < deadline, f"game {game['id']} stopped moving: {_why(client, game)}"
        if seat is None:
            waiting = client.get(f"/v1/games/{game['id']}").get_json()["waiting_for"]
            token = auth(game["seats"][waiting[0] if waiting else 0]["token"])
        listed = client.get(f"/v1/games/{game['id']}/decisions", headers=token)
        assert listed.status_code == 200, listed.get_json()
        seen = listed.get_json()
        if not seen["decisions"]:
            state = client.get(f"/v1/games/{game['id']}").get_json()
            if state["status"] == "finished":
                return made
            continue
        reply = client.post(f"/v1/games/{game['id']}/actions", json=rng.choice(seen["decisions"][0]["options"]),
                            headers={**token, "If-Match": f'"{seen["version"]}"'})
        assert reply.status_code in (200, 409, 412), reply.get_json()
        made += reply.status_code == 200
    return made


def _why(client, game: dict) -> dict:
    """What a stuck game waits for: its state and its bot job's (for the failure message)."""
    from redis import Redis
    from rq.job import Job

    from api.play.bot_queueing import bot_job_id

    store = client.application.extensions["rulehouse.store"]
    status, version = store.status(game["id"])
    job_id = bot_job_id(game["id"], version)
    connection = Redis.from_url(client.application.config["REDIS_URL"])
    try:
        job = Job.fetch(job_id, connection=connection)
        job_state = (job.get_status(), (job.exc_info or "")[-300:])
    except Exception as error:
        job_state = repr(error)
    return {"status": status, "version": version, "job": job_state}


def supervise(workers: Workers, stop: threading.Event) -> None:
    """Restart each worker process that exited, like a process supervisor."""
    while not stop.wait(0.5):
        alive = [process for process in workers.processes if process.poll() is None]
        missing = len(workers.processes) - len(alive)
        if missing:
            workers.processes = alive
            workers.start(missing)


def assert_replays(store, game: dict, ruleset_id: str, players: int) -> None:
    record = store.load(game["id"])
    log = store.action_log(game["id"])
    ruleset = get_ruleset(ruleset_id)
    state = ruleset.new_game(players, {}, record.seed)
    for seat, action in log:
        ruleset.apply(state, seat, action)
    assert record.version == len(log)
    assert json.loads(record.state) == ruleset.to_dict(state)


@pytest.mark.timeout(400)
def test_games_and_a_simulation_survive_a_redis_restart(tmp_path):
    run_restart(tmp_path, bots=False)


def run_restart(tmp_path, bots: bool) -> None:
    """The scenario; ``bots``: every seat but the first is a ``random`` bot played by the workers."""
    server = EmbeddedRedis(tmp_path / "redis", appendfsync="always").start()
    workers = Workers(server.url)
    stop = threading.Event()
    try:
        workers.start(2)
        app = create_app({"REDIS_URL": server.url, "BOT_QUEUE": "bots"})
        client = app.test_client()
        store = app.extensions["rulehouse.store"]
        rng = Rng(5)
        games = []
        for number, (ruleset_id, players) in enumerate(GAMES):
            seats = [{"name": "human"}] + [{"name": f"p{i}", **({"bot": "random"} if bots else {})}
                                           for i in range(1, players)]
            created = client.post("/v1/games", json={"ruleset": ruleset_id, "seats": seats, "seed": number})
            assert created.status_code == 201
            games.append((created.get_json(), ruleset_id, players))
        simulation = client.post("/v1/simulations", json=SIMULATION)
        assert simulation.status_code == 202
        location = simulation.headers["Location"]
        for game, _, _ in games:
            play_human(client, game, rng, moves=2, seat=0 if bots else None)
        versions = {game["id"]: store.status(game["id"])[1] for game, _, _ in games}

        os.kill(server.process.pid, signal.SIGKILL)
        server.process.wait()
        for game, _, _ in games:
            for reply in (client.get(f"/v1/games/{game['id']}"),
                          client.post(f"/v1/games/{game['id']}/actions", json={"type": "x"},
                                      headers={**auth(game["seats"][0]["token"]), "If-Match": '"1"'}),
                          client.get(location), client.get("/v1/ready")):
                assert reply.status_code == 503, reply.get_data(as_text=True)
                assert reply.headers["Content-Type"] == "application/problem+json"
                assert reply.headers["Retry-After"] == "1"
                assert reply.get_json()["type"] == "https://rulehouse.dev/problems/service-unavailable"

        server.start()  # the same port and directory: it reloads its append-only file
        # An RQ worker whose Redis vanished mid-job quits (RQ's design), possibly only some seconds
        # later; its supervisor (rulehouse serve, systemd Restart=always, the compose restart policy)
        # starts it again, as this thread does until the test ends.
        supervisor = threading.Thread(target=supervise, args=(workers, stop), daemon=True)
        supervisor.start()
        for game, _, _ in games:
            assert store.status(game["id"])[1] >= versions[game["id"]]  # nothing committed was lost
        for game, ruleset_id, players in games:
            # With bots: to the end (the workers must answer every bot seat); without: 20 more moves.
            play_human(client, game, rng, moves=None if bots else 20, seat=0 if bots else None)
            if bots:
                assert store.status(game["id"])[0] == "finished"
            assert store.status(game["id"])[1] > versions[game["id"]]
            assert_replays(store, game, ruleset_id, players)
        # A chunk caught in flight (started, or taken from the queue and not started) is queued
        # again by the reaper once its lease expired (api/runs/store.py, ``lost_chunks``), seconds later.
        finished = wait_for(lambda: (r := client.get(location).get_json())["status"] == "finished" and r,
                            timeout=180, interval=0.2)
        expected = simulate(SIMULATION["ruleset"], SIMULATION["games"], SIMULATION["players"], ["random"], {},
                            SIMULATION["seed"])
        for timing in ("seconds", "games_per_s"):
            expected.pop(timing), finished["result"].pop(timing)
        assert finished["result"] == expected
    finally:
        stop.set()
        workers.stop()
        server.stop()
