"""Queued simulation speed: in-process, then on 1 and on 2 RQ workers, in one run; then
the time a warm worker takes to answer a human's move with its bot's move.

    .venv/bin/python bench/simulate.py [--games 20000] [--ruleset monopoly-cars2] [--chunk-size N]

Uses ``REDIS_URL`` if set, else starts an embedded Redis server. Each queued figure is
the wall time from submitting to the finished result, workers already warm (started
and registered before the clock starts). Targets: 2 workers >= 1.6x the in-process
rate; 1 worker at most 15% slower than in-process; median bot reply under 100 ms.

On a shared machine the wall-clock rates swing with the other processes' load, so the
CPU time spent per game is printed too (this process for in-process, the worker
processes for queued): the queue's own cost shows there, whatever the load.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time

import psutil

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from redis import Redis  # noqa: E402
from rq import Worker  # noqa: E402

from api.runs.keys import run_key  # noqa: E402
from api.service.embedded_redis import EmbeddedRedis  # noqa: E402
from api.simulations import lifecycle as simulations  # noqa: E402
from engine.simulate import play_chunk  # noqa: E402


def start_workers(redis_url: str, count: int, fork: bool) -> list[subprocess.Popen]:
    client = Redis.from_url(redis_url)
    expected = Worker.count(connection=client) + count
    command = [sys.executable, "-m", "api.cli", "worker", "--redis-url", redis_url,
               *(["--fork"] if fork else [])]
    env = {**os.environ, "PYTHONPATH": ROOT}
    processes = [
        subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(count)
    ]
    while Worker.count(connection=client) < expected:
        if any(p.poll() is not None for p in processes):
            raise SystemExit("a worker failed to start")
        time.sleep(0.05)
    return processes


def stop_workers(processes: list[subprocess.Popen]) -> None:
    for process in processes:
        process.send_signal(signal.SIGTERM)
    for process in processes:
        process.wait(timeout=30)


def cpu_seconds(processes: list[psutil.Process]) -> float:
    total = 0.0
    for process in processes:
        for item in [process, *process.children(recursive=True)]:
            times = item.cpu_times()
            total += times.user + times.system + times.children_user + times.children_system
    return total


def queued_rate(redis_url: str, body: dict, workers: int, fork: bool) -> tuple[float, float, int]:
    """Games per wall second and per worker CPU second of one queued simulation; its chunk count."""
    client = Redis.from_url(redis_url)
    processes = start_workers(redis_url, workers, fork)
    watched = [psutil.Process(p.pid) for p in processes]
    try:
        cpu_before = cpu_seconds(watched)
        began = time.perf_counter()
        sim_id = simulations.submit(client, body)
        while client.hget(run_key(simulations.KIND, sim_id), "status") not in (b"finished", b"failed", b"cancelled"):
            time.sleep(0.01)
        elapsed = time.perf_counter() - began
        cpu = cpu_seconds(watched) - cpu_before
        state = simulations.status(client, sim_id)
        if state["status"] != "finished" or state["progress"]["games_done"] != body["games"]:
            raise SystemExit(f"simulation ended {state['status']}: {state['error']}")
        return body["games"] / elapsed, body["games"] / cpu, state["chunks"]
    finally:
        stop_workers(processes)
        client.close()


def bot_reply_latencies(redis_url: str, moves: int, fork: bool) -> list[float]:
    """Seconds from a human's accepted move (monopoly-cars2, human vs a heuristic bot, through
    the app) until the bot's move is stored, with one warm worker on ``bots``."""
    from api.app import create_app

    app = create_app({"REDIS_URL": redis_url})
    client = app.test_client()
    client_redis = Redis.from_url(redis_url)
    processes = start_workers(redis_url, 1, fork)
    latencies: list[float] = []
    try:
        game = None
        while len(latencies) < moves:
            if game is None:
                game = client.post("/v1/games", json={
                    "ruleset": "monopoly-cars2", "seed": len(latencies),
                    "seats": [{"name": "human"}, {"name": "robot", "bot": "heuristic"}],
                }).get_json()
                auth = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
            game_id = game["id"]
            listed = client.get(f"/v1/games/{game_id}/decisions", headers=auth).get_json()
            if not listed["decisions"]:
                state = client.get(f"/v1/games/{game_id}", headers=auth).get_json()
                if state["status"] == "finished":
                    game = None
                else:
                    time.sleep(0.005)  # the bot is still on the move
                continue
            began = time.perf_counter()
            decision = listed["decisions"][0]
            reply = client.post(f"/v1/games/{game_id}/actions", json=decision["default"] or decision["options"][0],
                                headers={**auth, "If-Match": f'"{listed["version"]}"'}).get_json()
            if reply.get("status") != "active" or 1 not in client.get(
                    f"/v1/games/{game_id}", headers=auth).get_json()["waiting_for"]:
                if reply.get("status") == "finished":
                    game = None
                continue
            key = f"game:{{{game_id}}}"
            while int(client_redis.hget(key, "version")) <= reply["version"]:
                if time.perf_counter() - began > 30:
                    raise SystemExit("no bot reply in 30 s: is the worker on the same Redis?")
                time.sleep(0.0005)
            latencies.append(time.perf_counter() - began)
    finally:
        stop_workers(processes)
        client_redis.close()
    return latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ruleset", default="monopoly-cars2")
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--chunk-size", type=int, help="default: the service's automatic size")
    parser.add_argument("--fork", action="store_true", help="workers fork per job (RQ's default)")
    parser.add_argument("--bot-moves", type=int, default=40, help="human moves answered by a bot, timed (0: skip)")
    args = parser.parse_args()

    embedded = None
    redis_url = os.environ.get("REDIS_URL")
    if not redis_url:
        embedded = EmbeddedRedis(tempfile.mkdtemp(prefix="rulehouse-bench-"), persist=False).start()
        redis_url = embedded.url
    try:
        began, cpu_began = time.perf_counter(), time.process_time()
        play_chunk(args.ruleset, args.players, ["random"], None, 1, 0, args.games)
        in_process = args.games / (time.perf_counter() - began)
        in_process_cpu = args.games / (time.process_time() - cpu_began)
        body = {"ruleset": args.ruleset, "players": args.players, "bots": ["random"], "games": args.games,
                "seed": 1, "chunk_size": args.chunk_size}
        one, one_cpu, chunks = queued_rate(redis_url, body, 1, args.fork)
        two, two_cpu, _ = queued_rate(redis_url, body, 2, args.fork)
        latencies = sorted(bot_reply_latencies(redis_url, args.bot_moves, args.fork)) if args.bot_moves else []
    finally:
        if embedded is not None:
            embedded.stop()
    worker_kind = "forking" if args.fork else "in-process"
    print(f"{args.ruleset}, {args.players} players, {args.games} games, {chunks} chunks, {worker_kind} workers,"
          f" load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(f"{'':18} {'games/s':>8} {'vs in-process':>13} {'games/CPU-s':>12} {'vs in-process':>13}")
    print(f"{'in-process':18} {in_process:8.1f} {1:13.2f} {in_process_cpu:12.1f} {1:13.2f}")
    for label, rate, cpu_rate, target in (("queued, 1 worker", one, one_cpu, ">= 0.85"),
                                          ("queued, 2 workers", two, two_cpu, ">= 1.60")):
        print(f"{label:18} {rate:8.1f} {rate / in_process:13.2f} {cpu_rate:12.1f} {cpu_rate / in_process_cpu:13.2f}"
              f"   (target: wall ratio {target})")
    if not latencies:
        return
    median, p90 = latencies[len(latencies) // 2], latencies[int(len(latencies) * 0.9)]
    print(f"bot reply to a human move, warm worker: median {median * 1000:.1f} ms, p90 {p90 * 1000:.1f} ms,"
          f" max {latencies[-1] * 1000:.1f} ms over {len(latencies)} moves (target: median < 100 ms)")


if __name__ == "__main__":
    main()
