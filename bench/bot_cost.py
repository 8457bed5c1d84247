"""Redis commands per bot action, counted by Redis itself (``INFO commandstats``).

    .venv/bin/python bench/bot_cost.py                                  # this checkout
    .venv/bin/python bench/bot_cost.py --compare /work/wt/i29b-base     # another checkout first, then this one

Each measured checkout gets a Redis of its own (an embedded ``redis-server``, or ``--redis-url``: a
server nobody else uses, since the statistics are the whole server's), ``--workers`` real
``rulehouse worker`` processes of that checkout, and two workloads, one after the other:

- ``all-bot``: ``--games`` games whose every seat is a quick bot, all created at once;
- ``person``: ``--person-games`` games of one person (seat 0) among bots. The person is
  scripted here, through the checkout's own app in this process (the HTTP API without a
  socket): it listens to the games' wake-ups (one ``PSUBSCRIBE``), and on each wake-up of its
  game reads ``GET /decisions`` and, when seat 0 is pending, posts one of the offered actions
  with ``If-Match``. Its reads and moves are counted too: the figure is everything the
  table costs, divided by the bots' actions only.

A workload's window runs from ``CONFIG RESETSTAT`` before the first game is created until every
game is finished and the bot sweep has let go of them all (``bots:games`` empty). The bench's
own look at the games (one ``HGET`` per unfinished game and a ``ZCARD`` every half second) is
counted here and taken off, and so are the workers' idle polling (their blocking dequeues,
sweeps and heartbeats), measured over an idle window of the same length right after. ``INFO``
and ``CONFIG`` (the bench's) are never counted. Commands inside Lua scripts count as Redis
counts them: one for the ``EVALSHA`` and one for each ``redis.call``.

Prints, per checkout and workload, the bot actions, the commands per bot action, the
breakdown by command (and by key family where the command says: queue ``rq:*`` or games),
and with ``--compare`` the ratios of the two.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: Commands only the bench sends (``CONFIG RESETSTAT``): never part of a figure. Its closing ``INFO`` is
#: counted with its own commands.
BENCH_COMMANDS = {"config"}


# -- the measuring child (runs with PYTHONPATH = the measured checkout) --------------------------


def command_stats(client) -> Counter:
    """``cmdstat_<name>`` calls, by lower-case command name (subcommands joined with ``|``)."""
    stats = client.info("commandstats")
    return Counter({name.removeprefix("cmdstat_").lower(): int(value["calls"]) for name, value in stats.items()})


def start_workers(root: Path, redis_url: str, count: int) -> list[subprocess.Popen]:
    import redis
    from rq import Worker

    env = {**os.environ, "PYTHONPATH": str(root)}
    env.pop("RULEHOUSE_TEST_PAUSE", None)
    # The command line's module, wherever the measured checkout keeps it (issue 27 moved it to api.service.cli,
    # issue 40 back to api.cli, a package).
    cli = "api.service.cli" if (root / "api" / "service" / "cli.py").exists() else "api.cli"
    processes = [subprocess.Popen([sys.executable, "-m", cli, "worker", "--redis-url", redis_url],
                                  cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                 for _ in range(count)]
    client = redis.Redis.from_url(redis_url)
    deadline = time.monotonic() + 60
    while Worker.count(connection=client) < count:
        if time.monotonic() > deadline or any(p.poll() is not None for p in processes):
            for process in processes:
                process.kill()
            raise RuntimeError("the workers did not start")
        time.sleep(0.1)
    return processes


class Tables:
    """The games of one workload and the scripted person of those that have one."""

    def __init__(self, app, ruleset_id: str, players: int, bots: list[str], seed: int) -> None:
        from engine.core.registry import get_ruleset

        self.client = app.test_client()
        self.store = app.extensions["rulehouse.store"]
        self.ruleset = get_ruleset(ruleset_id)
        self.players = players
        self.bots = bots
        self.rng = random.Random(seed)
        self.seed = seed
        self.games: dict[str, str | None] = {}  # id -> the person's token (None: all bots)
        self.person_actions = 0
        self.person_requests = 0

    def create(self, number: int, person: bool) -> str:
        seats = [{"name": f"bot{seat}", "bot": self.bots[seat % len(self.bots)]} for seat in range(self.players)]
        if person:
            seats[0] = {"name": "person"}
        reply = self.client.post("/v1/games", json={"ruleset": self.ruleset.id, "seats": seats,
                                                     "seed": self.seed * 1000 + number})
        if reply.status_code != 201:
            raise RuntimeError(f"create failed: {reply.status_code} {reply.get_data(as_text=True)}")
        body = reply.get_json()
        self.games[body["id"]] = body["seats"][0]["token"] if person else None
        return body["id"]

    def look(self, game_id: str) -> None:
        """The person's turn, if it is one: read the decisions and answer the first."""
        from engine.core.decisions import Decision

        token = self.games[game_id]
        headers = {"Authorization": f"Bearer {token}"}
        self.person_requests += 1
        listed = self.client.get(f"/v1/games/{game_id}/decisions", headers=headers).get_json()
        if not listed.get("decisions"):
            return
        bot = self.ruleset.bot("random")
        action = bot.act(None, Decision.from_dict(listed["decisions"][0]), self.rng)
        self.person_requests += 1
        reply = self.client.post(f"/v1/games/{game_id}/actions", json=action,
                                 headers={**headers, "If-Match": f'"{listed["version"]}"'})
        if reply.status_code == 200:
            self.person_actions += 1
        elif reply.status_code not in (409, 412):
            raise RuntimeError(f"the person's move failed: {reply.status_code} {reply.get_data(as_text=True)}")


def run_workload(app, control, args, person: bool) -> dict:
    """One workload's window: its counts, the bench's own commands, the window's length."""
    import redis  # noqa: F401  (the checkout's environment)

    own: Counter = Counter()
    tables = Tables(app, args.ruleset, args.players, args.bots.split(","), args.seed + (1 if person else 0))
    pubsub = control.pubsub(ignore_subscribe_messages=True)
    if person:
        pubsub.psubscribe("game:*:wake")
    monitor = Monitor(args.url) if args.monitor else None
    control.config_resetstat()
    started = time.monotonic()
    count = args.person_games if person else args.games
    for number in range(count):
        tables.create(number, person)
    unfinished = set(tables.games)
    looked = {game_id: 0.0 for game_id in tables.games if tables.games[game_id]}
    next_look = 0.0
    deadline = time.monotonic() + args.timeout
    while True:
        if person:
            woken: set[str] = set()
            message = pubsub.get_message(timeout=0.05)
            while message is not None:
                channel = message["channel"]
                channel = channel.decode() if isinstance(channel, bytes) else channel
                woken.add(channel.split("{", 1)[1].split("}", 1)[0])
                message = pubsub.get_message(timeout=0.0)
            now = time.monotonic()
            # A game's first look, and one after 2 s without a wake-up (as a client's reconnect would).
            stalled = {game_id for game_id, at in looked.items() if now - at > 2.0}
            for game_id in sorted((woken | stalled) & unfinished & set(looked)):
                looked[game_id] = now
                tables.look(game_id)
        else:
            time.sleep(0.05)
        if time.monotonic() >= next_look:
            next_look = time.monotonic() + 0.5
            ids = sorted(unfinished)
            pipe = control.pipeline(transaction=False)
            for game_id in ids:
                pipe.hget(f"game:{{{game_id}}}", "status")
            pipe.zcard("bots:games")
            *statuses, swept = pipe.execute()
            own["hget"] += len(ids)
            own["zcard"] += 1
            for game_id, status in zip(ids, statuses, strict=True):
                if status == "finished":
                    unfinished.discard(game_id)
            if not unfinished and swept == 0:
                break
        if time.monotonic() > deadline:
            raise RuntimeError(f"{len(unfinished)} games unfinished after {args.timeout} s")
    seconds = time.monotonic() - started
    stats = command_stats(control)
    own["info"] += 1
    monitored, persons = monitor.close(own_ports(args.url)) if monitor else (None, None)
    pubsub.close()
    if persons is not None:
        persons -= own["hget"]  # the bench's own looks at the games' status
    versions = sum(tables.store.load(game_id).version for game_id in tables.games)
    return {"stats": dict(stats), "own": dict(own), "seconds": seconds, "actions": versions,
            "bot_actions": versions - tables.person_actions, "person_actions": tables.person_actions,
            "person_requests": tables.person_requests, "games": len(tables.games),
            "monitor": monitored, "persons_own": persons if person else None}


def key_family(key: str) -> str:
    """A key with its ids replaced by ``*``: ``rq:job:*``, ``game:{*}:events``, ``worker-alive:*``."""
    if "{" in key and "}" in key:
        return key.split("{", 1)[0] + "{*}" + key.split("}", 1)[1]
    parts = key.split(":")
    if parts[0] == "rq" and len(parts) > 2 and parts[1] in ("job", "results", "worker", "execution", "executions"):
        return ":".join(parts[:2]) + ":*"
    if parts[0] in ("worker-alive", "worker-born"):
        return parts[0] + ":*"
    return key


#: What the person's (and a creator's) own requests touch, told apart from what their bots' moves cost:
#: the game's keys but the bot job's, and the duplicate-round guard's look (api/competition/closed_round.py).
def persons_own(family: str) -> bool:
    return (family.startswith("game:{*}") and family != "game:{*}:bot") or family == "closed:{*}"


class Monitor:
    """``MONITOR`` in a thread: calls by (command, key family), and by client port, to see where the commands
    go and which of them this process's own requests sent (never for the totals: ``INFO commandstats``).
    A script's commands are the client's whose ``EVALSHA`` came just before them."""

    def __init__(self, url: str) -> None:
        import threading

        import redis

        self.counts: Counter = Counter()
        self.by_port: dict[str, Counter] = {}
        self.monitor = redis.Redis.from_url(url, decode_responses=True).monitor()
        self.monitor.__enter__()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        script_port = ""
        while not self.stop.is_set():
            try:
                line = self.monitor.next_command()
            except Exception:
                return
            words = line["command"].split(" ")
            name = words[0].lower()
            if name in BENCH_COMMANDS:
                continue
            scripted = line.get("client_type") == "lua"
            port = script_port if scripted else str(line.get("client_port"))
            if name in ("evalsha", "eval"):
                script_port = port
            key = words[1] if len(words) > 1 and name not in ("evalsha", "eval") else (
                words[3] if len(words) > 3 else "")
            what = f"{name} {key_family(key)}"
            self.counts[f"{what} ({'lua' if scripted else 'client'})"] += 1
            self.by_port.setdefault(port, Counter())[what] += 1

    def close(self, own_ports: set[str]) -> tuple[dict, int]:
        """The counts, and the commands of this process's own requests (``persons_own``) from ``own_ports``."""
        self.stop.set()
        mine = sum(calls for port in own_ports for what, calls in self.by_port.get(port, Counter()).items()
                   if persons_own(what.split(" ", 1)[1] if " " in what else ""))
        return dict(self.counts), mine


def own_ports(redis_url: str) -> set[str]:
    """The local ports of this process's connections to the Redis at ``redis_url``."""
    import psutil
    from redis.connection import parse_url

    port = int(parse_url(redis_url).get("port", 6379))
    return {str(c.laddr.port) for c in psutil.Process().net_connections(kind="tcp") if c.raddr and c.raddr.port == port}


def idle_window(control, seconds: float) -> Counter:
    control.config_resetstat()
    time.sleep(seconds)
    stats = command_stats(control)
    stats["info"] -= 1  # the bench's
    return stats


def measure(args) -> dict:
    root = Path(args.root).resolve()
    sys.path.insert(0, str(root))
    import redis

    from api.app import create_app

    try:
        from api.embedded_redis import EmbeddedRedis
    except ImportError:  # the layout of issue 27
        from api.service.embedded_redis import EmbeddedRedis

    server = None
    with tempfile.TemporaryDirectory(prefix="bot-cost-") as home:
        if args.redis_url:
            url = args.redis_url
        else:
            server = EmbeddedRedis(Path(home) / "redis", persist=False).start()
            url = server.url
        args.url = url
        control = redis.Redis.from_url(url, decode_responses=True)
        control.flushdb()
        workers: list[subprocess.Popen] = []
        try:
            workers = start_workers(root, url, args.workers)
            os.environ["REDIS_URL"] = url
            app = create_app({"REDIS_URL": url, "BOT_QUEUE": "bots"})
            app.testing = True
            time.sleep(1.0)  # the workers' first sweeps
            out = {"root": str(root), "commit": _commit(root), "workloads": {}}
            for name, person in (("all-bot", False), ("person", True)):
                if (args.person_games if person else args.games) == 0:
                    continue
                played = run_workload(app, control, args, person)
                played["idle"] = dict(idle_window(control, played["seconds"]))
                out["workloads"][name] = played
            return out
        finally:
            for process in workers:
                process.terminate()
            for process in workers:
                try:
                    process.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    process.kill()
            if server is not None:
                server.stop()


def _commit(root: Path) -> str:
    try:
        return subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "?"


# -- the parent: runs one child per checkout and prints -----------------------------------------


def net_commands(workload: dict) -> Counter:
    """The workload's commands by name, less the bench's own and the workers' idle polling."""
    net = Counter(workload["stats"])
    net.subtract(workload["own"])
    net.subtract(workload["idle"])
    for name in BENCH_COMMANDS:
        net.pop(name, None)
    return Counter({name: calls for name, calls in net.items() if calls > 0 or name in workload["stats"]})


def figure(workload: dict) -> dict:
    net = net_commands(workload)
    total = sum(net.values())
    bots = max(1, workload["bot_actions"])
    persons = workload.get("persons_own")
    return {"total": total, "per_bot_action": total / bots, "per_action": total / max(1, workload["actions"]),
            "bots_per_bot_action": None if persons is None else (total - persons) / bots,
            "by_command": {name: calls / bots for name, calls in net.most_common()},
            "idle_per_second": sum(v for k, v in workload["idle"].items() if k not in BENCH_COMMANDS)
            / workload["seconds"]}


def report(results: list[dict], top: int) -> None:
    for result in results:
        print(f"\n== {result['root']} ({result['commit']})")
        for name, workload in result["workloads"].items():
            got = figure(workload)
            print(f"  {name}: {workload['games']} games, {workload['bot_actions']} bot actions"
                  f" ({workload['person_actions']} the person's, {workload['person_requests']} person requests),"
                  f" {workload['seconds']:.1f} s, idle polling {got['idle_per_second']:.1f} commands/s subtracted")
            print(f"    commands per bot action: {got['per_bot_action']:.1f}"
                  f" (per action of any seat: {got['per_action']:.1f})")
            if got["bots_per_bot_action"] is not None:
                print(f"    without the person's own reads and moves (MONITOR): {got['bots_per_bot_action']:.1f}"
                      f" per bot action")
            shown = list(got["by_command"].items())[:top]
            print("    by command: " + ", ".join(f"{cmd} {value:.2f}" for cmd, value in shown))
            if workload.get("monitor"):
                bots = max(1, workload["bot_actions"])
                print("    MONITOR (with the bench's own and the idle polling; per bot action):")
                for line, calls in Counter(workload["monitor"]).most_common(top * 3):
                    print(f"      {calls / bots:6.2f}  {line}")
    if len(results) == 2:
        print("\n== ratio (compared / this)")
        before, after = results
        for name in after["workloads"]:
            if name in before["workloads"]:
                b, a = figure(before["workloads"][name]), figure(after["workloads"][name])
                print(f"  {name}: {b['per_bot_action']:.1f} -> {a['per_bot_action']:.1f} commands per bot action,"
                      f" {b['per_bot_action'] / a['per_bot_action']:.2f}x fewer")
                if b["bots_per_bot_action"] is not None and a["bots_per_bot_action"] is not None:
                    before, after = b["bots_per_bot_action"], a["bots_per_bot_action"]
                    print(f"  {name}, the person's own left out: {before:.1f} -> {after:.1f}, {before / after:.2f}x")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="all-bot games (0: none)")
    parser.add_argument("--person-games", type=int, default=10, help="games of one person among bots (0: none)")
    parser.add_argument("--ruleset", default="whipcash")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", default="random,heuristic", help="the bot seats' bots, in turn")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds a workload may take")
    parser.add_argument("--redis-url", help="a Redis nobody else uses (default: an embedded one per checkout)")
    parser.add_argument("--compare", metavar="CHECKOUT", help="measure this checkout first (e.g. a worktree of main)")
    parser.add_argument("--top", type=int, default=14, help="commands shown in each breakdown")
    parser.add_argument("--monitor", action="store_true",
                        help="also count the commands by key family with MONITOR (slower; for analysis)")
    parser.add_argument("--json", action="store_true", help="print the raw counts as JSON too")
    parser.add_argument("--root", help=argparse.SUPPRESS)
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    return parser


def main() -> None:
    args = build_parser().parse_args()
    if args.measure:
        print(json.dumps(measure(args)))
        return
    results = []
    for root in ([args.compare] if args.compare else []) + [str(ROOT)]:
        env = {**os.environ, "PYTHONPATH": str(Path(root).resolve())}
        child = [a for a in sys.argv[1:] if a != "--json"]
        if args.compare:
            at = child.index("--compare")
            del child[at:at + 2]
        done = subprocess.run([sys.executable, str(Path(__file__).resolve()), *child, "--measure", "--root", root],
                              env=env, capture_output=True, text=True, cwd=root)
        if done.returncode != 0:
            sys.exit(f"measuring {root} failed:\n{done.stderr[-3000:]}")
        results.append(json.loads(done.stdout.strip().splitlines()[-1]))
    report(results, args.top)
    if args.json:
        print(json.dumps(results))


if __name__ == "__main__":
    main()
