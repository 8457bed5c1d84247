"""What the blocking and the asyncio clients share, so each keeps only its I/O: building a request,
the retry policy, errors from problem documents, resuming a stream, and waiting for a simulation."""

from __future__ import annotations

import random
import time
import uuid
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Any
from urllib.parse import quote

from rulehouse_sdk._generated import Operation, Simulation, StreamLine
from rulehouse_sdk.errors import RulehouseError, SimulationFailed, WaitTimeout, from_problem

DEFAULT_BASE_URL = "http://127.0.0.1:8000"
#: statuses that say "not now, try again": retried when the request is safe to repeat
RETRY_STATUSES = frozenset({429, 503})
#: methods the HTTP spec makes idempotent; a POST is retried only when it carries an Idempotency-Key
IDEMPOTENT_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})
SIMULATION_DONE = frozenset({"finished", "failed", "cancelled"})

try:
    from importlib.metadata import version as _package_version

    USER_AGENT = f"rulehouse-sdk/{_package_version('rulehouse-sdk')}"
except Exception:  # not installed as a distribution (e.g. run from a checkout)
    USER_AGENT = "rulehouse-sdk"


@dataclass(slots=True)
class Request:
    """One operation call, ready for any HTTP library."""

    method: str
    url: str
    params: dict[str, Any]
    headers: dict[str, str]
    json: Any
    #: safe to send again after a connection error, 429 or 503
    retry_safe: bool


def build_request(operation: Operation, base_url: str, token: str | None, path: dict[str, Any] | None,
                  query: dict[str, Any] | None, headers: dict[str, Any] | None, body: Any, *,
                  api_key: str | None = None) -> Request:
    empty = [name for name, value in (path or {}).items() if value is None or str(value) == ""]
    if empty:
        raise ValueError(f"{operation.name}: {', '.join(empty)} must not be empty")
    url = base_url + operation.path.format(**{k: quote(str(v), safe="") for k, v in (path or {}).items()})
    params = {name: value for name, value in (query or {}).items() if value is not None}
    sent = {"User-Agent": USER_AGENT, "Accept": "application/json, text/markdown, application/problem+json"}
    if operation.streamed:
        sent["Accept"] = "application/x-ndjson, application/problem+json"
    if token:
        sent["Authorization"] = f"Bearer {token}"
    if api_key:
        sent["X-Api-Key"] = api_key
    for name, value in (headers or {}).items():
        if value is not None:
            sent[name] = f'"{value}"' if name == "If-Match" and isinstance(value, int) else str(value)
    if operation.idempotency_key and "Idempotency-Key" not in sent:
        sent["Idempotency-Key"] = str(uuid.uuid4())
    retry_safe = operation.method in IDEMPOTENT_METHODS or "Idempotency-Key" in sent
    return Request(operation.method, url, params, sent, body, retry_safe)


@dataclass(slots=True)
class RetryPolicy:
    retries: int = 3
    backoff: float = 0.25
    max_wait: float = 30.0

    def after_connection_error(self, request: Request, attempt: int) -> float | None:
        """Seconds to wait before sending again, or None to give up."""
        if not request.retry_safe or attempt >= self.retries:
            return None
        return self._backoff(attempt)

    def after_answer(self, request: Request, status: int, retry_after: str | None, attempt: int) -> float | None:
        """Seconds to wait before retrying this (unsuccessful) answer, or None to give up on it."""
        if not request.retry_safe or status not in RETRY_STATUSES or attempt >= self.retries:
            return None
        seconds = retry_after_seconds(retry_after)
        if seconds is None:
            return self._backoff(attempt)
        return seconds if seconds <= self.max_wait else None

    def _backoff(self, attempt: int) -> float:
        return min(self.max_wait, self.backoff * 2**attempt) * random.uniform(0.5, 1.0)


def retry_after_seconds(header: str | None) -> float | None:
    """``Retry-After`` as seconds from now: either delta-seconds or an HTTP date."""
    if not header:
        return None
    header = header.strip()
    if header.isdigit():
        return float(header)
    try:
        when = parsedate_to_datetime(header)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def answer_error(status: int, reason: str | None, read_json, response: Any) -> RulehouseError:
    """The exception for an unsuccessful answer; ``read_json()`` parses its body (ValueError if it is not JSON)."""
    try:
        problem = read_json()
    except ValueError:
        problem = {}
    if not isinstance(problem, dict):
        problem = {}
    problem.setdefault("title", reason or f"HTTP {status}")
    return from_problem(status, problem, response)


def decoded_body(status: int, content_type: str, text, read_json) -> Any:
    """An operation's result: None for no body, the text of a text/* body, else the parsed JSON."""
    if status == 204:
        return None
    if content_type.startswith("text/"):
        return text()
    return read_json()


class StreamResume:
    """Follows a live stream's lines so that a connection cut at the server's time limit can be
    resumed after the last cursor, the caller seeing one stream: one ``state`` line (a chat's stream
    repeats its ``settings`` line, which may have changed meanwhile), every event or message once, no
    ``time_limit`` line."""

    def __init__(self, after: str | None) -> None:
        self.cursor = after
        self.resumed = False

    def accept(self, line: StreamLine) -> bool | None:
        """True: hand the line to the caller; False: leave it out; None: reconnect now."""
        kind = line.get("kind")
        if kind == "end" and line.get("reason") == "time_limit" and self.cursor is not None:
            self.resumed = True
            return None
        if kind == "state":
            if self.resumed:
                return False
            self.cursor = self.cursor or line.get("cursor")
        elif "cursor" in line:  # an event of a game's stream, a message of a chat's
            self.cursor = line["cursor"]
        return True

    def query(self, query: dict[str, Any]) -> dict[str, Any]:
        return {**query, "after": self.cursor}


class SimulationWait:
    """The rules of ``wait_for_simulation``, whichever client polls."""

    def __init__(self, simulation_id: str, poll_interval: float, timeout: float | None) -> None:
        self.simulation_id, self.poll_interval, self.timeout = simulation_id, poll_interval, timeout
        self.deadline = None if timeout is None else time.monotonic() + timeout

    def done(self, simulation: Simulation) -> bool:
        """Whether to stop polling; raises when it failed or when the next poll would be too late."""
        if simulation["status"] == "failed":
            raise SimulationFailed(f"simulation {self.simulation_id} failed", detail=simulation.get("error"),
                                   problem=dict(simulation))
        if simulation["status"] in SIMULATION_DONE:
            return True
        if self.deadline is not None and time.monotonic() + self.poll_interval > self.deadline:
            raise WaitTimeout(f"simulation {self.simulation_id} still {simulation['status']} after {self.timeout} s",
                              problem=dict(simulation))
        return False
