"""What the command line's commands share (``rulehouse`` and its ``experiment`` and ``tournament``
commands): the Redis to use, the service's JSON over HTTP, a run queued and waited for, its result
shown."""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

from api.ground import config
from api.runs.store import RunStore, connect
from engine.core.errors import InvalidOptions


def parse_options(text: str | None) -> dict:
    if not text:
        return {}
    try:
        options = json.loads(text)
    except json.JSONDecodeError as error:
        raise SystemExit(f"--options is not JSON: {error}") from None
    if not isinstance(options, dict):
        raise SystemExit("--options must be a JSON object")
    return options


def rulehouse_home() -> Path:
    """Where ``serve`` keeps the embedded Redis server's files and its URL (``redis.url``)."""
    return Path(config.setting("HOME"))


def resolve_redis_url(explicit: str | None = None) -> str:
    """``--redis-url``, else ``REDIS_URL``, else the embedded server a local ``rulehouse serve`` started."""
    if explicit:
        return explicit
    if config.names_redis():
        return config.settings()["REDIS_URL"]
    url_file = rulehouse_home() / "redis.url"
    if url_file.exists():
        return url_file.read_text().strip()
    raise SystemExit(
        "no Redis: set REDIS_URL (or --redis-url), or start `rulehouse serve` in this directory first"
    )


def refusal_message(error: InvalidOptions | RequestRefused) -> str:
    """The one stderr line of a run refused by the checks here or by the service: what and which field."""
    if isinstance(error, InvalidOptions):
        return f"error: {error.message} {error.fields or ''}".rstrip()
    return f"error: {error}"


class Unreachable(Exception):
    """The Redis server or the service does not answer (the message says which, and why)."""


class RequestRefused(Exception):
    """The service answered the request with a problem (its ``detail`` and field ``errors``)."""

    def __init__(self, problem: dict) -> None:
        fields = {error.get("pointer"): error.get("detail") for error in problem.get("errors") or []}
        super().__init__(f"{problem.get('detail') or problem.get('title')} {fields or ''}".rstrip())


def http_json(base_url: str, method: str, path: str, body: dict | None = None, *, timeout: float = 30.0,
              api_key: str | None = None) -> dict:
    """One JSON request to the service at ``base_url``: its answer; ``RequestRefused`` for a problem,
    ``Unreachable`` when nothing answers."""
    headers = {"Content-Type": "application/json", "Accept": "application/json, application/problem+json"}
    if api_key:
        headers["X-Api-Key"] = api_key
    request = urllib.request.Request(base_url.rstrip("/") + path, method=method, headers=headers,
                                     data=None if body is None else json.dumps(body).encode())
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as error:
        try:
            problem = json.loads(error.read())
        except ValueError:
            problem = {"title": f"HTTP {error.code} {error.reason}"}
        raise RequestRefused(problem if isinstance(problem, dict) else {"title": str(problem)}) from None
    except (urllib.error.URLError, OSError, ValueError) as error:
        reason = getattr(error, "reason", error)
        raise Unreachable(f"cannot reach the service at {base_url}: {reason}") from None


class HttpSimulations:
    """Simulations of a running service, through ``/v1/simulations`` (the service's own workers play them)."""

    def __init__(self, base_url: str, timeout: float = 30.0) -> None:
        self.url = base_url.rstrip("/")
        self.timeout = timeout

    def _request(self, method: str, path: str, body: dict | None = None) -> dict:
        return http_json(self.url, method, path, body, timeout=self.timeout)

    def submit(self, body: dict) -> str:
        return self._request("POST", "/v1/simulations", body)["id"]

    def status(self, sim_id: str) -> dict:
        return self._request("GET", f"/v1/simulations/{sim_id}")

    def cancel(self, sim_id: str) -> None:
        self._request("DELETE", f"/v1/simulations/{sim_id}")


class RedisRuns:
    """Simulations or experiments (``lifecycle``: the dotted name of the room's lifecycle module) queued
    straight into a Redis server that workers listen on; ``warn_idle``: say so when no worker listens."""

    def __init__(self, redis_url: str, lifecycle: str, *, warn_idle: bool = False) -> None:
        self.url = redis_url
        self.redis = connect(redis_url)
        self.store = RunStore(self.redis)
        self.runs = importlib.import_module(lifecycle)
        self.warn_idle = warn_idle

    def submit(self, body: dict) -> str:
        run_id = self.runs.submit(self.redis, body)
        if self.warn_idle and not self.store.workers_listening():
            print(f"warning: no worker listens on {self.runs.QUEUE!r}; start `rulehouse worker`", file=sys.stderr)
        return run_id

    def status(self, run_id: str) -> dict:
        return self.runs.status(self.redis, run_id)

    def cancel(self, run_id: str) -> None:
        self.runs.cancel(self.redis, run_id)


def plot_unavailable(args: argparse.Namespace) -> bool:
    """``--plot`` asked without matplotlib (said on stderr)."""
    if args.plot and importlib.util.find_spec("matplotlib") is None:
        print("rulehouse: --plot needs matplotlib: pip install 'rulehouse[plot]'", file=sys.stderr)
        return True
    return False


def show_result(args: argparse.Namespace, result: dict, format_table: Callable[[dict], str], plot: str) -> None:
    """Print a run's ``result`` (``--json``: one JSON object, else ``format_table``'s table) and, with
    ``--plot``, draw it with ``plot`` (a function's dotted name: matplotlib loads only then)."""
    print(json.dumps(result) if args.json else format_table(result))
    if args.plot:
        module, _, name = plot.rpartition(".")
        getattr(importlib.import_module(module), name)(result, args.plot)
        print(f"plot written to {args.plot}", file=sys.stderr)


def wait_until_ended(runs, run_id: str, kind: str, draw: Callable[[dict], None] | None, *,
                     poll_seconds: float) -> dict:
    """Poll ``runs.status(run_id)`` (a simulation's or an experiment's) until it is neither queued nor
    running and give its last state; ``draw(state)`` shows each state on one stderr line. Ctrl+C
    cancels the run (``runs.cancel``) and exits saying so."""
    try:
        while True:
            state = runs.status(run_id)
            if draw is not None:
                draw(state)
            if state["status"] not in ("queued", "running"):
                return state
            time.sleep(poll_seconds)
    except KeyboardInterrupt:
        runs.cancel(run_id)
        raise SystemExit(f"\n{kind} {run_id} cancelled") from None
    finally:
        if draw is not None:
            sys.stderr.write("\n")  # end the progress line before anything else is written
            sys.stderr.flush()
