"""Soak: many live games against `rulehouse serve` for minutes, then a replay of every game.

    .venv/bin/python bench/soak.py                        # 200 live games, 120 s (the default)
    .venv/bin/python bench/soak.py --games 1000 --seconds 600
    .venv/bin/python bench/soak.py --cluster              # games on a private 3-master Redis Cluster

Starts `rulehouse serve` (embedded Redis with its append-only file, bot workers) in a
temporary home, keeps ``--games`` games live across the four rulesets (seat 0 a scripted
human, the other seats `random` bots played by the workers; a finished game is replaced
by a new one), and drives the human seats from ``--clients`` processes: each looks at its
games in turn, asks `GET /decisions` and, when the human is pending, sends one of the
offered actions with `If-Match`. A 412 or 409 (a bot moved first) is normal play; an error
is any 5xx, any other 4xx, or a failed connection.

Prints actions/s (human and bot), p50/p99 of the human POSTs, errors, Redis memory per game,
Redis commands per action, the API's CPU per action, and the processes' RSS over time.
Afterwards it stops the clients, lets the bots settle, and replays every game's action log
from Redis: the replay must give the stored state, the log's length the stored version, and
every action a client saw accepted must be in the log once, at its version.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil
import redis
import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from api.play.store import GameStore, game_client  # noqa: E402
from engine.core.registry import get_ruleset  # noqa: E402

RULESETS = ("cash-n-guns", "hitchiker", "monopoly-cars2", "whipcash")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else float("nan")


def new_game(session: requests.Session, base: str, number: int) -> dict:
    ruleset = get_ruleset(RULESETS[number % len(RULESETS)])
    seats = [{"name": "human"}] + [{"name": f"bot{i}", "bot": "random"} for i in range(1, ruleset.min_players)]
    reply = session.post(f"{base}/v1/games", json={"ruleset": ruleset.id, "seats": seats, "seed": number},
                         timeout=30)
    reply.raise_for_status()
    body = reply.json()
    return {"id": body["id"], "ruleset": ruleset.id, "token": body["seats"][0]["token"]}


def client_process(base: str, number: int, games: int, stop_at, results, made_count=None) -> None:
    """Keeps ``games`` games live, playing their human seat; reports what it saw. ``stop_at``: a time,
    or an event (bench/memory.py stops its clients once the caches have filled and then some);
    ``made_count``: a shared counter of the games created so far, across the clients."""
    session = requests.Session()
    rng = random.Random(number)
    made = 0
    live = []
    latencies: list[float] = []
    accepted: list[tuple[str, int, dict]] = []
    created: list[dict] = []
    errors: dict[str, int] = {}
    conflicts = 0
    calls = 0

    def error(kind: str) -> None:
        errors[kind] = errors.get(kind, 0) + 1

    while len(live) < games:
        live.append(new_game(session, base, number * 1_000_000 + made))
        made += 1
    created += live
    while _running(stop_at):
        for slot, game in enumerate(live):
            if not _running(stop_at):
                break
            headers = {"Authorization": f"Bearer {game['token']}"}
            calls += 1
            try:
                listed = session.get(f"{base}/v1/games/{game['id']}/decisions", headers=headers, timeout=30)
                if listed.status_code != 200:
                    error(f"GET {listed.status_code}")
                    continue
                seen = listed.json()
                if not seen["decisions"]:
                    if seen.get("status") == "finished" or _finished(session, base, game):
                        live[slot] = new_game(session, base, number * 1_000_000 + made)
                        made += 1
                        if made_count is not None:
                            with made_count.get_lock():
                                made_count.value += 1
                        created.append(live[slot])
                    continue
                action = rng.choice(seen["decisions"][0]["options"])
                began = time.perf_counter()
                calls += 1
                reply = session.post(f"{base}/v1/games/{game['id']}/actions", json=action,
                                     headers={**headers, "If-Match": f'"{seen["version"]}"'}, timeout=30)
                latencies.append(time.perf_counter() - began)
            except requests.RequestException as failure:
                error(type(failure).__name__)
                continue
            if reply.status_code == 200:
                accepted.append((game["id"], reply.json()["version"], action))
            elif reply.status_code in (409, 412):
                conflicts += 1
            else:
                error(f"POST {reply.status_code}")
    results.put({"latencies": latencies, "accepted": accepted, "created": created, "errors": errors,
                 "conflicts": conflicts, "calls": calls + len(created)})


def _running(stop_at) -> bool:
    return not stop_at.is_set() if hasattr(stop_at, "is_set") else time.time() < stop_at


def _finished(session: requests.Session, base: str, game: dict) -> bool:
    reply = session.get(f"{base}/v1/games/{game['id']}", timeout=30)
    return reply.status_code == 200 and reply.json()["status"] == "finished"


class Service:
    """`rulehouse serve` in a temporary home; games optionally on a local cluster. ``root``: the
    checkout to serve (bench/memory.py soaks an older one beside this one); ``extra_env``: its settings."""

    def __init__(self, args, root: Path = ROOT, extra_env: dict | None = None) -> None:
        self.home = Path(tempfile.mkdtemp(prefix="rulehouse-soak-"))
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.cluster = None
        env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
        env.update(RULEHOUSE_HOME=str(self.home), PYTHONPATH=str(root), RULEHOUSE_LOG_LEVEL="WARNING",
                   RULEHOUSE_LOG_FORMAT="json")
        env.update(extra_env or {})
        if args.cluster:
            from tests.redis_cluster import LocalCluster

            self.cluster = LocalCluster(self.home / "cluster").start()
            env["RULEHOUSE_GAME_REDIS_URL"] = self.cluster.url
        self.process = subprocess.Popen(
            [sys.executable, "-m", "api.cli", "serve", "--port", str(self.port), "--workers", str(args.workers),
             "--bot-workers", str(args.bot_workers), "--web-workers", str(args.web_workers),
             "--threads", str(args.threads)],
            cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=self._log_file())
        deadline = time.monotonic() + 90
        while True:
            try:
                if requests.get(f"{self.base}/v1/ready", timeout=2).status_code == 200:
                    break
            except requests.RequestException:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"serve did not start; see {self.home / 'serve.log'}")
            time.sleep(0.3)
        self.redis_url = (self.home / "redis.url").read_text().strip()
        settings = {"REDIS_URL": self.redis_url, "GAME_TTL_SECONDS": 3600, "FINISHED_GAME_TTL_SECONDS": 3600,
                    "IDEMPOTENCY_TTL_SECONDS": 3600, "BOT_QUEUE": None,
                    "GAME_REDIS_URL": self.cluster.url if self.cluster else None, "GAME_REDIS_CLUSTER": "auto"}
        self.store = GameStore.from_settings(settings)
        self.control = redis.Redis.from_url(self.redis_url)
        self.games_redis = game_client(settings) or self.control

    def _log_file(self):
        return (self.home / "serve.log").open("w")

    def processes(self) -> dict[str, list[psutil.Process]]:
        kinds: dict[str, list[psutil.Process]] = {"api": [], "workers": [], "redis": []}
        for child in psutil.Process(self.process.pid).children(recursive=True):
            try:
                line = " ".join(child.cmdline())
            except psutil.Error:
                continue
            kind = "api" if "gunicorn" in line else "redis" if "redis-server" in line else \
                "workers" if " worker" in line else None
            if kind:
                kinds[kind].append(child)
        return kinds

    def rss_mb(self) -> dict[str, float]:
        total = {}
        for kind, found in self.processes().items():
            size = 0
            for process in found:
                with contextlib.suppress(psutil.Error):
                    size += process.memory_info().rss
            total[kind] = round(size / 2**20, 1)
        return total

    def cpu_seconds(self, kind: str) -> float:
        """CPU time used so far by the ``api`` processes or the ``redis`` servers (cluster nodes too)."""
        found = self.processes()[kind]
        if kind == "redis" and self.cluster is not None:
            found += [psutil.Process(node.pid) for node in self.cluster.processes]
        seconds = 0.0
        for process in found:
            try:
                times = process.cpu_times()
                seconds += times.user + times.system
            except psutil.Error:
                pass
        return seconds

    def redis_commands(self) -> tuple[int, int]:
        """Commands processed so far: (by the queue Redis, by the games' cluster; 0 without one)."""
        counts = []
        for client in (self.control, self.games_redis if self.cluster is not None else None):
            if client is None:
                counts.append(0)
                continue
            info = client.info("stats")
            if "total_commands_processed" in info:
                counts.append(int(info["total_commands_processed"]))
            else:  # a cluster client answers per node
                counts.append(sum(int(node["total_commands_processed"]) for node in info.values()))
        return counts[0], counts[1]

    def used_memory(self) -> int:
        info = self.games_redis.info("memory")
        if "used_memory" in info:
            return int(info["used_memory"])
        return sum(int(node["used_memory"]) for node in info.values())

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
        if self.cluster is not None:
            self.cluster.stop()


def total_actions(service: Service, game_ids: list[str]) -> int:
    return sum(service.store.status(game_id)[1] for game_id in game_ids if service.store.status(game_id))


def bytes_per_game(service: Service, created: list[dict]) -> dict[str, float]:
    """MEMORY USAGE of each game's hash and event stream, averaged by ruleset."""
    sizes: dict[str, list[int]] = {}
    for game in created:
        used = sum(service.games_redis.memory_usage(key, samples=0) or 0
                   for key in (f"game:{{{game['id']}}}", f"game:{{{game['id']}}}:events"))
        sizes.setdefault(game["ruleset"], []).append(used)
    return {ruleset: sum(found) / len(found) for ruleset, found in sorted(sizes.items())}


def check_games(service: Service, created: list[dict], accepted: list[tuple[str, int, dict]]) -> dict:
    """Replays every game's action log; the lost, doubled and mismatched games."""
    by_game: dict[str, dict[int, dict]] = {}
    for game_id, version, action in accepted:
        by_game.setdefault(game_id, {})[version] = action
    lost = doubled = mismatched = 0
    for game in created:
        record = service.store.load(game["id"])
        log = service.store.action_log(game["id"])
        ruleset = get_ruleset(game["ruleset"])
        state = ruleset.new_game(ruleset.min_players, {}, record.seed)
        for seat, action in log:
            ruleset.apply(state, seat, action)
        if record.version != len(log) or json.loads(record.state) != ruleset.to_dict(state):
            mismatched += 1
        mine = by_game.get(game["id"], {})
        for version, action in mine.items():
            # The log keeps the action as the engine parsed it: the seat and type identify it.
            if version > len(log) or log[version - 1][0] != 0 or log[version - 1][1].get("type") != action.get("type"):
                lost += 1
        human_entries = sum(1 for seat, _ in log if seat == 0)
        doubled += max(0, human_entries - len(mine))
    return {"games": len(created), "lost": lost, "doubled": doubled, "mismatched": mismatched}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="live games at any time")
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--clients", type=int, default=4, help="client processes sharing the games")
    parser.add_argument("--web-workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--workers", type=int, default=0, help="workers on every queue")
    parser.add_argument("--bot-workers", type=int, default=2, help="workers on the bots queue")
    parser.add_argument("--sample-every", type=float, default=15.0, help="seconds between RSS samples")
    parser.add_argument("--cluster", action="store_true", help="games on a private local 3-master Redis Cluster")
    args = parser.parse_args()

    service = Service(args)
    try:
        memory_before = service.used_memory()
        commands_before = service.redis_commands()
        cpu_before = service.cpu_seconds("api")
        redis_cpu_before = service.cpu_seconds("redis")
        began = time.time()
        stop_at = began + args.seconds
        results = multiprocessing.Queue()
        share = [args.games // args.clients + (i < args.games % args.clients) for i in range(args.clients)]
        clients = [multiprocessing.Process(target=client_process, args=(service.base, n, share[n], stop_at, results))
                   for n in range(args.clients)]
        for client in clients:
            client.start()
        samples = []
        while time.time() < stop_at:
            samples.append((round(time.time() - began), service.rss_mb()))
            time.sleep(min(args.sample_every, max(0.1, stop_at - time.time())))
        reports = [results.get(timeout=120) for _ in clients]
        elapsed = time.time() - began
        for client in clients:
            client.join(timeout=30)
        cpu = service.cpu_seconds("api") - cpu_before
        redis_cpu = service.cpu_seconds("redis") - redis_cpu_before
        samples.append((round(time.time() - began), service.rss_mb()))
        # Let queued bot moves settle before the replay.
        settle = time.monotonic() + 30
        while service.control.llen("rq:queue:bots") and time.monotonic() < settle:
            time.sleep(0.5)
        time.sleep(1)
        created = [game for report in reports for game in report["created"]]
        accepted = [entry for report in reports for entry in report["accepted"]]
        latencies = [value for report in reports for value in report["latencies"]]
        errors: dict[str, int] = {}
        for report in reports:
            for kind, count in report["errors"].items():
                errors[kind] = errors.get(kind, 0) + count
        actions = total_actions(service, [game["id"] for game in created])
        commands = [after - before for after, before in zip(service.redis_commands(), commands_before, strict=True)]
        memory = service.used_memory() - memory_before
        checked = check_games(service, created, accepted)
        sizes = bytes_per_game(service, created)
        versions = {game["id"]: service.store.status(game["id"])[1] for game in created}
    finally:
        service.stop()

    where = "a 3-master cluster" if args.cluster else "one Redis"
    print(f"layout: serve --web-workers {args.web_workers} --threads {args.threads} --bot-workers "
          f"{args.bot_workers} --workers {args.workers}; games on {where}")
    print(f"{args.games} live games, {len(created)} played, {elapsed:.0f} s, {args.clients} client processes")
    print(f"actions: {actions} ({actions / elapsed:.1f}/s), of which human POSTs accepted {len(accepted)} "
          f"({len(accepted) / elapsed:.1f}/s), conflicts (412/409) {sum(r['conflicts'] for r in reports)}")
    print(f"human POST latency: p50 {percentile(latencies, 0.5) * 1000:.1f} ms, "
          f"p99 {percentile(latencies, 0.99) * 1000:.1f} ms, max {max(latencies, default=0) * 1000:.1f} ms")
    print(f"errors: {sum(errors.values())} {errors or ''}")
    print(f"Redis memory per game played: {memory / max(1, len(created)):.0f} bytes "
          f"({memory / 2**20:.1f} MiB for {len(created)} games)")
    for ruleset, size in sizes.items():
        mean_version = sum(versions[g["id"]] for g in created if g["ruleset"] == ruleset) / \
            max(1, sum(1 for g in created if g["ruleset"] == ruleset))
        print(f"  {ruleset}: {size:.0f} bytes per game (MEMORY USAGE of hash + events, mean version "
              f"{mean_version:.0f})")
    print(f"Redis commands per action (all traffic: reads, bot jobs, queues): {sum(commands) / max(1, actions):.1f}")
    if args.cluster:
        print(f"  of which on the games' cluster (game keys only): {commands[1] / max(1, actions):.1f}, "
              f"on the queue Redis: {commands[0] / max(1, actions):.1f}")
    calls = sum(report["calls"] for report in reports)
    print(f"API CPU: {cpu:.1f} s for {calls} requests (creates, GET decisions, POST actions): "
          f"{cpu / max(1, calls) * 1000:.2f} ms per request, {calls / max(cpu, 1e-9):.0f} requests per API CPU "
          f"second")
    print(f"Redis CPU: {redis_cpu:.1f} s, {redis_cpu / max(1, actions) * 1000:.2f} ms per action (all its traffic), "
          f"{actions / max(redis_cpu, 1e-9):.0f} actions per Redis CPU second")
    print("RSS MiB over time (s: api / workers / redis):")
    for at, rss in samples:
        print(f"  {at:>5}: {rss['api']:>7} / {rss['workers']:>7} / {rss['redis']:>7}")
    print(f"replay: {checked['games']} games, {checked['mismatched']} mismatched, {checked['lost']} lost, "
          f"{checked['doubled']} doubled")
    if errors or checked["mismatched"] or checked["lost"] or checked["doubled"]:
        sys.exit(1)


if __name__ == "__main__":
    main()
