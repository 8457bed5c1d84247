"""The client: one object per service (and token), methods named after the API's operations."""

from __future__ import annotations

import json
import random
import time
import uuid
from collections.abc import Callable, Iterator
from email.utils import parsedate_to_datetime
from typing import Any
from urllib.parse import quote

import requests

from rulehouse_sdk._generated import EventEntry, Operation, Operations, Simulation, StreamLine
from rulehouse_sdk.errors import ConnectionFailed, RulehouseError, SimulationFailed, WaitTimeout, from_problem

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


class Client(Operations):
    """A Rulehouse service seen through one bearer token (or none: the spectator).

    ``timeout`` is requests' (connect, read) pair in seconds. Connection errors, 429 and 503
    are retried up to ``retries`` times with exponential backoff (``backoff`` seconds, doubled
    each time, with jitter), or after the server's ``Retry-After`` when it sends one and it is
    at most ``max_wait`` seconds. GET and DELETE are always safe to retry; a POST only where
    the server honours ``Idempotency-Key``, which the client then adds itself (one fresh key
    per call, the same one on each retry of that call).

    ``resume_streams``: when the server ends a live stream at its time limit, reconnect from the
    last cursor, so ``stream_events`` follows a game to its end (False: yield that ``end`` line).
    """

    def __init__(self, base_url: str = DEFAULT_BASE_URL, token: str | None = None, *,
                 timeout: float | tuple[float, float] = (5.0, 30.0), retries: int = 3, backoff: float = 0.25,
                 max_wait: float = 30.0, session: requests.Session | None = None, resume_streams: bool = True) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        self.max_wait = max_wait
        self.resume_streams = resume_streams
        self._owns_session = session is None
        self.session = session or requests.Session()

    def with_token(self, token: str | None) -> Client:
        """The same service (and connection pool) seen through another token."""
        other = Client(self.base_url, token, timeout=self.timeout, retries=self.retries, backoff=self.backoff,
                       max_wait=self.max_wait, session=self.session, resume_streams=self.resume_streams)
        other._owns_session = False
        return other

    def close(self) -> None:
        if self._owns_session:
            self.session.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Client({self.base_url!r}, token={'…' if self.token else None})"

    # -- helpers beyond the operations ------------------------------------------------

    def iter_events(self, game_id: str, *, after: str = "0", page_size: int = 100) -> Iterator[EventEntry]:
        """Every event the token may see after ``after``, page by page, oldest first; stops at the last one."""
        while True:
            page = self.list_events(game_id, after=after, limit=page_size)
            yield from page["events"]
            if page["next"] == after:
                return
            after = page["next"]

    def wait_for_simulation(self, simulation_id: str, *, poll_interval: float = 0.5, timeout: float | None = None,
                            progress: Callable[[Simulation], None] | None = None) -> Simulation:
        """Poll until the simulation is finished (or cancelled) and return it.

        ``progress`` is called with the simulation after each poll. Raises ``SimulationFailed``
        when it failed and ``WaitTimeout`` when ``timeout`` seconds pass first.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            simulation = self.get_simulation(simulation_id)
            if progress is not None:
                progress(simulation)
            if simulation["status"] == "failed":
                raise SimulationFailed(f"simulation {simulation_id} failed", detail=simulation.get("error"),
                                       problem=simulation)
            if simulation["status"] in SIMULATION_DONE:
                return simulation
            if deadline is not None and time.monotonic() + poll_interval > deadline:
                raise WaitTimeout(f"simulation {simulation_id} still {simulation['status']} after {timeout} s",
                                  problem=simulation)
            time.sleep(poll_interval)

    # -- transport ----------------------------------------------------------------

    def _call(self, operation: Operation, *, path: dict[str, Any] | None, query: dict[str, Any] | None,
              headers: dict[str, Any] | None, body: Any) -> Any:
        response = self._send(operation, path, query, headers, body, stream=False)
        if response.status_code == 204 or not response.content:
            return None
        if response.headers.get("Content-Type", "").startswith("text/"):
            return response.text
        return response.json()

    def _stream(self, operation: Operation, *, path: dict[str, Any] | None, query: dict[str, Any] | None,
                headers: dict[str, Any] | None, body: Any) -> Iterator[dict[str, Any]]:
        # The request is sent now, so a missing game or a bad token raises here, not on first iteration.
        response = self._send(operation, path, query, headers, body, stream=True)
        lines = _ndjson_lines(response)
        if not self.resume_streams or query is None or "after" not in query:
            return lines
        return self._resumed(lines, operation, path, query, headers)

    def _resumed(self, lines: Iterator[StreamLine], operation: Operation, path: dict[str, Any] | None,
                 query: dict[str, Any], headers: dict[str, Any] | None) -> Iterator[StreamLine]:
        """The stream's lines across reconnections: a ``time_limit`` end reconnects after the last cursor.

        The caller sees one stream: the reconnection's own ``state`` line and the ``time_limit``
        line are left out, and no event comes twice (the server resumes after the cursor).
        """
        cursor: str | None = query.get("after")
        resumed = False
        while True:
            for line in lines:
                kind = line.get("kind")
                if kind == "end" and line.get("reason") == "time_limit" and cursor is not None:
                    break
                if kind == "state":
                    if resumed:
                        continue
                    cursor = cursor or line.get("cursor")
                elif kind == "event":
                    cursor = line.get("cursor", cursor)
                yield line
            else:
                return
            resumed = True
            response = self._send(operation, path, {**query, "after": cursor}, headers, None, stream=True)
            lines = _ndjson_lines(response)

    def _send(self, operation: Operation, path: dict[str, Any] | None, query: dict[str, Any] | None,
              headers: dict[str, Any] | None, body: Any, *, stream: bool) -> requests.Response:
        empty = [name for name, value in (path or {}).items() if value is None or str(value) == ""]
        if empty:
            raise ValueError(f"{operation.name}: {', '.join(empty)} must not be empty")
        url = self.base_url + operation.path.format(**{k: quote(str(v), safe="") for k, v in (path or {}).items()})
        params = {name: value for name, value in (query or {}).items() if value is not None}
        sent_headers = {"User-Agent": USER_AGENT, "Accept": "application/json, text/markdown, application/problem+json"}
        if operation.streamed:
            sent_headers["Accept"] = "application/x-ndjson, application/problem+json"
        if self.token:
            sent_headers["Authorization"] = f"Bearer {self.token}"
        for name, value in (headers or {}).items():
            if value is not None:
                sent_headers[name] = f'"{value}"' if name == "If-Match" and isinstance(value, int) else str(value)
        if operation.idempotency_key and "Idempotency-Key" not in sent_headers:
            sent_headers["Idempotency-Key"] = str(uuid.uuid4())
        if isinstance(body, dict):
            body = {key: value for key, value in body.items() if value is not None}
        retry_safe = operation.method in IDEMPOTENT_METHODS or "Idempotency-Key" in sent_headers

        attempt = 0
        while True:
            try:
                response = self.session.request(operation.method, url, params=params, headers=sent_headers,
                                                json=body, timeout=self.timeout, stream=stream)
            except (requests.ConnectionError, requests.Timeout) as error:
                if not retry_safe or attempt >= self.retries:
                    raise ConnectionFailed(f"{operation.method} {url}: {error}") from error
                delay = self._backoff(attempt)
            else:
                if response.status_code in operation.success:
                    return response
                delay = self._retry_delay(response, attempt) if retry_safe else None
                if delay is None:
                    raise _error(response)
                response.close()
            attempt += 1
            time.sleep(delay)

    def _backoff(self, attempt: int) -> float:
        return min(self.max_wait, self.backoff * 2**attempt) * random.uniform(0.5, 1.0)

    def _retry_delay(self, response: requests.Response, attempt: int) -> float | None:
        """Seconds to wait before retrying this answer, or None to give up on it."""
        if response.status_code not in RETRY_STATUSES or attempt >= self.retries:
            return None
        retry_after = _retry_after_seconds(response.headers.get("Retry-After"))
        if retry_after is None:
            return self._backoff(attempt)
        return retry_after if retry_after <= self.max_wait else None


def _retry_after_seconds(header: str | None) -> float | None:
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


def _error(response: requests.Response) -> RulehouseError:
    try:
        problem = response.json()
    except ValueError:
        problem = {}
    if not isinstance(problem, dict):
        problem = {}
    problem.setdefault("title", response.reason or f"HTTP {response.status_code}")
    return from_problem(response.status_code, problem, response)


def _ndjson_lines(response: requests.Response) -> Iterator[StreamLine]:
    with response:
        for line in response.iter_lines():
            if line:
                yield json.loads(line)
