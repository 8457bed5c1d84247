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

from rulehouse_sdk._generated import EventEntry, Operation, Operations
from rulehouse_sdk.errors import (
    ConnectionFailed,
    RulehouseError,
    SimulationFailed,
    StaleVersion,
    WaitTimeout,
    from_problem,
)

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
    """

    def __init__(self, base_url: str = DEFAULT_BASE_URL, token: str | None = None, *,
                 timeout: float | tuple[float, float] = (5.0, 30.0), retries: int = 3, backoff: float = 0.25,
                 max_wait: float = 30.0, session: requests.Session | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        self.max_wait = max_wait
        self._owns_session = session is None
        self.session = session or requests.Session()

    def with_token(self, token: str | None) -> Client:
        """The same service (and connection pool) seen through another token."""
        other = Client(self.base_url, token, timeout=self.timeout, retries=self.retries, backoff=self.backoff,
                       max_wait=self.max_wait, session=self.session)
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
                            progress: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
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

    # -- playing a seat -----------------------------------------------------------

    def my_turns(self, game_id: str) -> Iterator[Turn]:
        """Each decision of this token's seat as it comes up, until the game is over.

        Follows the game's live stream and reads the seat's decisions whenever the game
        moved; yields each new decision once (a ``Turn``: the decision as the server shows
        it, plus ``game_id`` and the ``version`` it was read at). Answer it with ``act``.
        A stream that reaches its time limit is resumed where it stopped.
        """
        answered: set[str] = set()
        after: str | None = None
        checked = -1
        while True:
            for line in self.stream_events(game_id, after=after):
                kind = line.get("kind")
                if kind == "end":
                    if line.get("reason") != "time_limit":
                        return
                    break
                if kind == "event":
                    after = line["cursor"]
                elif kind == "state":
                    after = after or line["cursor"]
                version = line.get("version", checked)
                if version == checked and kind != "keepalive":
                    continue
                # Each yield lets the caller act, which moves the game: look again after it.
                while True:
                    found = self.get_decisions(game_id)
                    checked = max(checked, found["version"])
                    fresh = [d for d in found["decisions"] if d["id"] not in answered]
                    if not fresh:
                        break
                    answered.add(fresh[0]["id"])
                    yield Turn(fresh[0], game_id=game_id, version=found["version"])

    def act(self, turn: Turn, action: dict[str, Any], *, strict: bool = False) -> dict[str, Any]:
        """Send ``action`` (exactly as given) for ``turn``'s decision.

        The precondition is the decision (``If-Match: "d:<id>"``): accepted while that
        decision is still pending, however many other seats moved meanwhile. ``strict``
        sends the version the turn was read at instead (412 once anything moved).
        """
        if_match = f'"{turn.version}"' if strict else decision_tag(turn)
        return self.submit_action(turn.game_id, action, if_match=if_match)

    def play(self, game_id: str, choose: Callable[[Turn], dict[str, Any]]) -> dict[str, Any]:
        """Play this token's seat to the end: ``choose(turn)`` picks each action. Returns the final game.

        A decision that changed before its answer arrived (e.g. its deadline played the
        default) is skipped: the next one comes along.
        """
        for turn in self.my_turns(game_id):
            try:
                self.act(turn, choose(turn))
            except StaleVersion:
                continue
        return self.get_game(game_id)

    # -- transport ----------------------------------------------------------------

    def _call(self, operation: Operation, *, path: dict[str, Any] | None, query: dict[str, Any] | None,
              headers: dict[str, Any] | None, body: Any) -> Any:
        response = self._send(operation, path, query, headers, body, stream=False)
        if response.status_code == 204 or not response.content:
            return None
        return response.json()

    def _stream(self, operation: Operation, *, path: dict[str, Any] | None, query: dict[str, Any] | None,
                headers: dict[str, Any] | None, body: Any) -> Iterator[dict[str, Any]]:
        # The request is sent now, so a missing game or a bad token raises here, not on first iteration.
        response = self._send(operation, path, query, headers, body, stream=True)
        return _ndjson_lines(response)

    def _send(self, operation: Operation, path: dict[str, Any] | None, query: dict[str, Any] | None,
              headers: dict[str, Any] | None, body: Any, *, stream: bool) -> requests.Response:
        url = self.base_url + operation.path.format(**{k: quote(str(v), safe="") for k, v in (path or {}).items()})
        params = {name: value for name, value in (query or {}).items() if value is not None}
        sent_headers = {"User-Agent": USER_AGENT, "Accept": "application/json, application/problem+json"}
        if operation.streamed:
            sent_headers["Accept"] = "application/x-ndjson, application/problem+json"
        if self.token:
            sent_headers["Authorization"] = f"Bearer {self.token}"
        for name, value in (headers or {}).items():
            if value is not None:
                sent_headers[name] = f'"{value}"' if name == "If-Match" and isinstance(value, int) else str(value)
        if operation.idempotency_key and "Idempotency-Key" not in sent_headers:
            sent_headers["Idempotency-Key"] = str(uuid.uuid4())
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


class Turn(dict):
    """A pending decision of the caller's seat (the server's decision body), with where it was read."""

    def __init__(self, decision: dict[str, Any], *, game_id: str, version: int) -> None:
        super().__init__(decision)
        self.game_id = game_id
        self.version = version

    @property
    def id(self) -> str:
        return self["id"]


def decision_tag(decision: dict[str, Any]) -> str:
    """The ``If-Match`` value that answers ``decision``: ``"d:<id>"``."""
    return f'"d:{decision["id"]}"'


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


def _ndjson_lines(response: requests.Response) -> Iterator[dict[str, Any]]:
    with response:
        for line in response.iter_lines():
            if line:
                yield json.loads(line)
