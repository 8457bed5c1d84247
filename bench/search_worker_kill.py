"""How long a search bot's move and a hint wait when their search worker is killed mid-search.

    .venv/bin/python bench/search_worker_kill.py [--runs 2] [--without-heartbeats]

A real search worker takes the move of a Hitchiker seat played by ``mcts-5`` (seconds of
search) or a seat's hint; it is SIGKILLed once the job has started, a fresh worker starts at
once, and the bench prints the seconds from the kill to the move being played (or the hint
being ready, asked again every second as a client would), with the default
``RULEHOUSE_SEARCH_JOB_TIMEOUT`` (60 s) and ``RULEHOUSE_BOT_JOB_LEASE`` (5 s).
``--without-heartbeats`` runs workers that do not beat (``api.ground.heartbeats``), as every worker
was before: their jobs are taken for dead only at the timeout plus the lease. Redis:
``REDIS_URL``, else an embedded one.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.processes import wait_for  # noqa: E402

GAME = {"ruleset": "hitchiker", "seed": 4, "seats": [{"bot": "mcts-5"}, {"bot": "mcts-5"}]}
WORKER = "from api.cli import main; main()"
#: the same worker with its heartbeat switched off
SILENT_WORKER = "import api.ground.heartbeats as beats; beats.start_beating = lambda *args: None; " + WORKER


def start_worker(redis_url: str, queues: str, beating: bool) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", WORKER if beating else SILENT_WORKER, "worker", "--redis-url",
                             redis_url, "--queues", queues], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def killed_when_started(connection, job_id: str, worker: subprocess.Popen) -> float:
    wait_for(lambda: connection.hget(f"rq:job:{job_id}", "status") == b"started", timeout=120, interval=0.02)
    worker.send_signal(signal.SIGKILL)
    worker.wait()
    return time.monotonic()


def one_run(redis_url: str, kind: str, beating: bool) -> float:
    import redis

    from api.app import create_app

    connection = redis.Redis.from_url(redis_url)
    connection.flushdb()
    client = create_app({"REDIS_URL": redis_url, "BOT_QUEUE": "bots"}).test_client()
    workers = [start_worker(redis_url, "search", beating)]
    try:
        wait_for(lambda: connection.scard("rq:workers") >= 1, timeout=30)
        if kind == "move":
            game = client.post("/v1/games", json=GAME).get_json()
            killed_at = killed_when_started(connection, f"bot-{game['id']}-0", workers[0])
            workers.append(start_worker(redis_url, "bots,search", beating))
            wait_for(lambda: client.get(f"/v1/games/{game['id']}").get_json()["version"] >= 1, timeout=300,
                     interval=0.2)
        else:
            game = client.post("/v1/games", json={**GAME, "seats": [{"name": "A"}, {"name": "B"}],
                                                  "hints": True}).get_json()
            seat = client.get(f"/v1/games/{game['id']}/decisions").get_json()["waiting_for"][0]
            token = next(entry["token"] for entry in game["seats"] if entry["seat"] == seat)
            url, auth = f"/v1/games/{game['id']}/hint", {"Authorization": f"Bearer {token}"}
            client.get(url, headers=auth)
            killed_at = killed_when_started(connection, f"hint-{game['id']}-{seat}-0", workers[0])
            workers.append(start_worker(redis_url, "search", beating))
            wait_for(lambda: client.get(url + "?wait=1", headers=auth).status_code == 200, timeout=300, interval=0)
        return time.monotonic() - killed_at
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.kill()
                worker.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--without-heartbeats", action="store_true")
    args = parser.parse_args()
    from api.service.embedded_redis import redis_url_or_embedded

    with contextlib.ExitStack() as stack:
        redis_url = redis_url_or_embedded(stack)
        workers = "without heartbeats" if args.without_heartbeats else "beating"
        for kind in ("move", "hint"):
            seconds = [one_run(redis_url, kind, not args.without_heartbeats) for _ in range(args.runs)]
            print(f"{kind} of a killed search worker ({workers}): played "
                  + " / ".join(f"{value:.1f}" for value in seconds) + " s after the kill", flush=True)


if __name__ == "__main__":
    main()
