"""SIGKILL an API process in the middle of an action (held at a test-only pause point,
api/ground/faults.py): the client sees its connection close, never a 500 or a hang; the retry with
the same Idempotency-Key is applied exactly once; the game goes on from its last commit."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading

import pytest
import redis as redis_lib
import requests

from api.play.store import GameStore
from tests.processes import ROOT, free_port, wait_for

SEATS = [{"name": n} for n in ("Ann", "Bob", "Cy", "Di")]
BULLET = {"type": "choose_bullet", "card": "bang"}


@pytest.fixture
def server(redis_db_url, tmp_path):
    """gunicorn with one worker that pauses at the point the test names (``server(point)``)."""
    started = []

    def start(point: str) -> tuple[str, object]:
        port = free_port()
        marker = tmp_path / f"{point}.pid"
        env = {**os.environ, "REDIS_URL": redis_db_url, "PYTHONPATH": str(ROOT), "RULEHOUSE_BOT_QUEUE": "",
               "RULEHOUSE_BIND": f"127.0.0.1:{port}", "RULEHOUSE_WEB_WORKERS": "1", "RULEHOUSE_THREADS": "4",
               "RULEHOUSE_TEST_PAUSE": f"{point}:{marker}"}
        process = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "python:api.service.gunicorn_conf",
                                    "api.app:create_app()"], cwd=ROOT, env=env,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        started.append(process)
        base = f"http://127.0.0.1:{port}"

        def up() -> bool:
            try:
                return requests.get(f"{base}/v1/health", timeout=2).status_code == 200
            except requests.RequestException:
                return False
        wait_for(up, timeout=60, interval=0.2)
        return base, marker

    yield start
    for process in started:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)


@pytest.mark.parametrize("point", ["before-commit", "after-commit"])
def test_an_api_process_killed_mid_action_loses_nothing_and_applies_nothing_twice(server, redis_db_url, point):
    base, marker = server(point)
    game = requests.post(f"{base}/v1/games", json={"ruleset": "cash-n-guns", "seats": SEATS, "seed": 4},
                         timeout=30).json()
    headers = {"Authorization": f"Bearer {game['seats'][0]['token']}", "If-Match": '"0"',
               "Idempotency-Key": "kill-test-1"}
    url = f"{base}/v1/games/{game['id']}/actions"
    seen: list = []

    def send() -> None:
        try:
            seen.append(requests.post(url, json=BULLET, headers=headers, timeout=30))
        except requests.RequestException as error:
            seen.append(error)

    sender = threading.Thread(target=send)
    sender.start()
    wait_for(lambda: marker.exists() and marker.read_text(), timeout=30)
    os.kill(int(marker.read_text()), signal.SIGKILL)
    sender.join(timeout=30)
    assert not sender.is_alive(), "the client hung"
    # The connection closed under it: an error, not an HTTP answer (and so never a 500).
    assert len(seen) == 1 and isinstance(seen[0], requests.ConnectionError), seen

    store = GameStore(redis_lib.Redis.from_url(redis_db_url, decode_responses=True), game_ttl=60, finished_ttl=60,
                      idempotency_ttl=60)
    assert store.status(game["id"])[1] == (0 if point == "before-commit" else 1)

    # gunicorn starts a new worker (the marker left, it pauses no more); the client retries the same request.
    def retried():
        try:
            return requests.post(url, json=BULLET, headers=headers, timeout=30)
        except requests.ConnectionError:
            return None
    reply = wait_for(retried, timeout=60, interval=0.2)
    assert reply.status_code == 200, reply.text
    assert reply.json()["version"] == 1
    assert store.action_log(game["id"]) == [(0, BULLET)]
    # The game goes on from there: the next seat plays version 1.
    nxt = requests.post(url, json=BULLET, timeout=30, headers={
        "Authorization": f"Bearer {game['seats'][1]['token']}", "If-Match": '"1"'})
    assert nxt.status_code == 200 and nxt.json()["version"] == 2
