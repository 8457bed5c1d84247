"""Thousands of open live streams and hundreds of slow clients: do moves and health checks still answer?

    .venv/bin/python bench/streams.py [--streams 2000] [--slow 300] [--seconds 20] [--runs 2] [--root DIR]

Starts the service with its deployed gunicorn settings (api/service/gunicorn_conf.py of the code at
``--root``, default this checkout) against an embedded Redis, creates ``--games`` 4-seat
monopoly-cars2 games, then, from one asyncio process:

- opens ``--streams`` live streams (``GET /v1/games/{id}/stream``), spread over the games, in
  batches of 100 every 50 ms, and waits until each has its first line (at most 120 s: the
  time is printed);
- opens ``--slow`` slow-header clients, each sending a request line and then one header line
  every 2 s, never finishing (a slowloris);

and then, for ``--seconds``:

- ``--movers`` processes, each playing moves at ``--move-rate`` per second on the first games
  (so their streams carry events), with a 5 s timeout per move;
- one process probing ``GET /v1/health`` every 100 ms on a new connection, 2 s timeout.

It prints how many streams were held (first line received, still open at the end), the
keep-alive and event lines they got, what became of the slow clients, the moves' p50/p99
and failures, and the health checks' success rate. Timed-out moves or probes count as
failures, not as latencies.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import importlib.util
import json
import multiprocessing
import os
import re
import signal
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.core.registry import get_ruleset  # noqa: E402
from engine.core.rng import Rng  # noqa: E402

# bench/api.py shares its service start-up and percentile (imported by path: "api" is the service package).
_spec = importlib.util.spec_from_file_location("bench_api", Path(__file__).with_name("api.py"))
bench_api = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench_api)

RULESET = "monopoly-cars2"
PLAYERS = 4
KIND = re.compile(rb'"kind": ?"(\w+)"')
#: Longest wait for every stream's first line before measuring anyway.
OPEN_LIMIT = 120


def post_json(base: str, path: str, body: dict) -> dict:
    request = urllib.request.Request(base + path, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as reply:
        return json.loads(reply.read())


# -- the asyncio side: streams and slow clients ---------------------------------------


async def read_head(reader: asyncio.StreamReader) -> int:
    status = int((await reader.readline()).split()[1])
    while (await reader.readline()) not in (b"\r\n", b""):
        pass
    return status


async def hold_stream(host: str, port: int, path: str, stats: Counter, stop: asyncio.Event) -> None:
    try:
        reader, writer = await asyncio.open_connection(host, port)
    except OSError:
        stats["stream connect failed"] += 1
        return
    try:
        writer.write(f"GET {path} HTTP/1.1\r\nHost: bench\r\n\r\n".encode())
        status = await asyncio.wait_for(read_head(reader), 30)
        if status != 200:
            stats[f"stream refused {status}"] += 1
            return
        opened = False
        while True:
            line_task = asyncio.ensure_future(reader.readline())
            stop_task = asyncio.ensure_future(stop.wait())
            done, _ = await asyncio.wait({line_task, stop_task}, return_when=asyncio.FIRST_COMPLETED)
            if stop_task in done:
                line_task.cancel()
                stats["streams held to the end" if opened else "streams never opened"] += 1
                return
            stop_task.cancel()
            line = line_task.result()
            if not line:
                stats["streams closed by the server"] += 1
                return
            kind = KIND.search(line)
            if kind:
                stats[f"{kind.group(1).decode()} lines"] += 1
                opened = True
    except (TimeoutError, OSError, IndexError, ValueError):
        stats["streams failed"] += 1
    finally:
        writer.close()


async def slow_client(host: str, port: int, stats: Counter, lifetimes: list[float], stop: asyncio.Event) -> None:
    try:
        reader, writer = await asyncio.open_connection(host, port)
    except OSError:
        stats["slow connect failed"] += 1
        return
    opened = time.monotonic()
    try:
        writer.write(b"GET /v1/health HTTP/1.1\r\nHost: bench\r\n")
        while not stop.is_set():
            try:
                answer = await asyncio.wait_for(reader.read(4096), 2.0)
            except TimeoutError:
                writer.write(b"X-Slow: 1\r\n")  # one more header line, never the end of the headers
                continue
            lifetimes.append(time.monotonic() - opened)
            outcome = "server answered " + answer.split(b" ", 2)[1].decode() if answer else "server closed"
            stats[f"slow: {outcome}"] += 1
            return
        stats["slow: still open at the end"] += 1
    except OSError:
        lifetimes.append(time.monotonic() - opened)
        stats["slow: connection reset"] += 1
    finally:
        writer.close()


async def hold_all(base: str, paths: list[str], slow: int, seconds: float, stats: Counter, lifetimes: list[float],
                   ready, meter) -> None:
    """Open the streams, wait until each has its first line (or failed), then open the slow clients, set
    ``ready`` (the measuring processes start) and hold everything for ``seconds``."""
    host, port = base.removeprefix("http://").split(":")
    stop = asyncio.Event()
    tasks = []
    for start in range(0, len(paths), 100):  # in batches, as clients arrive
        tasks += [asyncio.ensure_future(hold_stream(host, int(port), path, stats, stop))
                  for path in paths[start:start + 100]]
        await asyncio.sleep(0.05)
    began = time.monotonic()
    while (stats["state lines"] + stats["streams failed"] + sum(v for k, v in stats.items() if k.startswith("stream "))
           < len(paths)) and time.monotonic() - began < OPEN_LIMIT:
        await asyncio.sleep(0.2)
    stats["seconds to open"] = round(time.monotonic() - began)
    tasks += [asyncio.ensure_future(slow_client(host, int(port), stats, lifetimes, stop)) for _ in range(slow)]
    await asyncio.sleep(0.5)
    ready.set()
    cpu_before = meter()
    await asyncio.sleep(seconds)
    stats["service CPU %"] = round(100 * (meter() - cpu_before) / seconds)
    await asyncio.sleep(1)
    stop.set()
    await asyncio.gather(*tasks)


# -- the measuring processes -----------------------------------------------------------


def mover(base: str, games: list[dict], rate: float, ready, seconds: float, results) -> None:
    """Plays ``games`` (with every seat's token) at ``rate`` moves per second; new games when they end."""
    host, port = base.removeprefix("http://").split(":")
    ruleset = get_ruleset(RULESET)
    bot = ruleset.bot("random")
    rng = Rng(len(games[0]["id"]) + os.getpid())
    connection = http.client.HTTPConnection(host, int(port), timeout=5)
    latencies, failures = [], 0
    playing = [(game, ruleset.new_game(PLAYERS, None, game["seed"]), 0) for game in games]
    ready.wait()
    stop_at = time.time() + seconds
    next_at = time.time()
    turn = 0
    while time.time() < stop_at:
        time.sleep(max(0.0, next_at - time.time()))
        next_at += 1 / rate
        slot = turn % len(playing)
        turn += 1
        game, state, version = playing[slot]
        pending = ruleset.pending(state)
        if not pending:
            seed = rng.randint(1, 10**9)
            game = post_json(base, "/v1/games", {"ruleset": RULESET, "seed": seed,
                                                 "seats": [{"name": f"p{i}"} for i in range(PLAYERS)]})
            game["seed"] = seed
            playing[slot] = (game, ruleset.new_game(PLAYERS, None, seed), 0)
            continue
        decision = rng.choice(pending)
        action = bot.act(None, decision, rng)
        headers = {"Authorization": f"Bearer {game['seats'][decision.seat]['token']}", "If-Match": f'"{version}"',
                   "Content-Type": "application/json"}
        began = time.perf_counter()
        try:
            connection.request("POST", f"/v1/games/{game['id']}/actions", json.dumps(action), headers)
            reply = connection.getresponse()
            reply.read()
            ok = reply.status == 200
        except (OSError, http.client.HTTPException):
            connection.close()
            ok = False
        if not ok:
            failures += 1
            continue
        latencies.append(time.perf_counter() - began)
        ruleset.apply(state, decision.seat, action, check=False)
        playing[slot] = (game, state, version + 1)
    results.put(("moves", latencies, failures))


def prober(base: str, ready, seconds: float, results) -> None:
    host, port = base.removeprefix("http://").split(":")
    latencies, failures = [], 0
    ready.wait()
    stop_at = time.time() + seconds
    while time.time() < stop_at:
        began = time.perf_counter()
        connection = http.client.HTTPConnection(host, int(port), timeout=2)
        try:
            connection.request("GET", "/v1/health")
            reply = connection.getresponse()
            reply.read()
            ok = reply.status == 200
        except (OSError, http.client.HTTPException):
            ok = False
        finally:
            connection.close()
        if ok:
            latencies.append(time.perf_counter() - began)
        else:
            failures += 1
        time.sleep(max(0.0, 0.1 - (time.perf_counter() - began)))
    results.put(("health", latencies, failures))


def ms(latencies: list[float], fraction: float) -> str:
    return f"{bench_api.percentile(latencies, fraction) * 1000:.1f} ms" if latencies else "n/a"


def measure(base: str, games: list[dict], args, service) -> None:
    paths = [f"/v1/games/{games[i % len(games)]['id']}/stream" for i in range(args.streams)]
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    ready = context.Event()
    movers = [games[n::args.movers][:2] for n in range(args.movers)]
    processes = [context.Process(target=mover, args=(base, mine, args.move_rate, ready, args.seconds, results))
                 for mine in movers]
    processes.append(context.Process(target=prober, args=(base, ready, args.seconds, results)))
    for process in processes:
        process.start()
    stats: Counter = Counter()
    lifetimes: list[float] = []
    meter = bench_api.CpuMeter(service)._total if bench_api.psutil else (lambda: float("nan"))
    asyncio.run(hold_all(base, paths, args.slow, args.seconds, stats, lifetimes, ready, meter))
    gathered = [results.get(timeout=60) for _ in processes]
    for process in processes:
        process.join(10)
    moves = [value for kind, latencies, _ in gathered if kind == "moves" for value in latencies]
    move_failures = sum(failures for kind, _, failures in gathered if kind == "moves")
    health, health_failures = next((latencies, failures) for kind, latencies, failures in gathered if kind == "health")
    held = stats["streams held to the end"]
    print(f"  streams: {args.streams} asked, {stats['state lines']} opened (first line) in {stats['seconds to open']} s"
          f", {held} held to the end; "
          f"{stats['keepalive lines']} keep-alive, {stats['event lines']} event and {stats['end lines']} end lines")
    other = {key: value for key, value in sorted(stats.items()) if key.startswith(("stream ", "slow:"))
             or key in ("streams closed by the server", "streams failed", "streams never opened")}
    if other:
        print(f"  other outcomes: {other}")
    if lifetimes:
        print(f"  slow clients cut after: median {bench_api.percentile(lifetimes, 0.5):.1f} s, "
              f"max {max(lifetimes):.1f} s")
    total_health = len(health) + health_failures
    print(f"  moves ({args.movers} clients x {args.move_rate:.0f}/s): {len(moves)} ok, {move_failures} failed; "
          f"p50 {ms(moves, 0.5)}, p99 {ms(moves, 0.99)}")
    print(f"  service CPU while measured: {stats['service CPU %']}% of one core")
    print(f"  health checks: {len(health)}/{total_health} ok ({len(health) / max(1, total_health):.0%}); "
          f"p50 {ms(health, 0.5)}, p99 {ms(health, 0.99)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--streams", type=int, default=2000)
    parser.add_argument("--slow", type=int, default=300)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--movers", type=int, default=4)
    parser.add_argument("--move-rate", type=float, default=25.0, help="moves per second per mover")
    parser.add_argument("--keepalive", type=float, default=5.0, help="the service's STREAM_KEEPALIVE_SECONDS")
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout whose service to measure")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    with ExitStack() as stack:
        from api.service.embedded_redis import EmbeddedRedis

        directory = stack.enter_context(tempfile.TemporaryDirectory(prefix="rulehouse-bench-"))
        redis_url = stack.enter_context(EmbeddedRedis(directory, persist=False)).url
        env = {"RULEHOUSE_STREAM_KEEPALIVE_SECONDS": str(args.keepalive),
               # one client address opens them all here: lift the per-client limit
               "RULEHOUSE_STREAMS_PER_CLIENT": str(args.streams + 100)}
        process, base = bench_api.start_service(redis_url, 2, None, root=args.root.resolve(), env=env)
        stack.callback(process.wait, 30)  # open streams may hold it for its graceful_timeout
        stack.callback(process.terminate)
        print(f"machine: {os.cpu_count()} cores; service from {args.root.resolve()}; Redis {redis_url}")
        print(f"{args.streams} streams over {args.games} games, {args.slow} slow-header clients, "
              f"{args.seconds:.0f} s measured, keep-alive every {args.keepalive:.0f} s")
        for run in range(1, args.runs + 1):
            games = []  # new ones each run: the movers start every game from its first move
            for number in range(run * args.games, (run + 1) * args.games):
                created = post_json(base, "/v1/games", {"ruleset": RULESET, "seed": number,
                                                        "seats": [{"name": f"p{i}"} for i in range(PLAYERS)]})
                created["seed"] = number
                games.append(created)
            print(f"run {run}: load average {os.getloadavg()[0]:.2f}")
            measure(base, games, args, process)


if __name__ == "__main__":
    main()
