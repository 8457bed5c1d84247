"""The client: one object per service (and token), methods named after the API's operations."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import Any

import requests

from rulehouse_sdk._generated import EventEntry, Operation, Operations, Simulation, StreamLine
from rulehouse_sdk._transport import (
    DEFAULT_BASE_URL,
    RetryPolicy,
    SimulationWait,
    StreamResume,
    answer_error,
    build_request,
    decoded_body,
)
from rulehouse_sdk.errors import ConnectionFailed, StaleVersion


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
                 api_key: str | None = None,
                 timeout: float | tuple[float, float] = (5.0, 30.0), retries: int = 3, backoff: float = 0.25,
                 max_wait: float = 30.0, session: requests.Session | None = None, resume_streams: bool = True) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token
        #: the app key, sent as ``X-Api-Key`` with every request (the token still picks the seat)
        self.api_key = api_key
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        self.max_wait = max_wait
        self.resume_streams = resume_streams
        self._owns_session = session is None
        self.session = session or requests.Session()

    def with_token(self, token: str | None) -> Client:
        """The same service (and connection pool) seen through another token."""
        other = Client(self.base_url, token, api_key=self.api_key, timeout=self.timeout, retries=self.retries,
                       backoff=self.backoff, max_wait=self.max_wait, session=self.session,
                       resume_streams=self.resume_streams)
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

    def fork_game(self, game_id: str, version: int | None = None, *, seats: list[dict[str, Any]] | None = None,
                  decision_timeout: int | None = None) -> dict[str, Any]:
        """A new game starting at ``game_id``'s position at ``version`` (default: its current one).

        Anyone may fork a finished game; a running one only through its creator token (this
        client's), and then what the creator could not see is re-dealt and the dice re-seeded.
        ``seats`` gives new names or bots (default: the game's own). See docs/records.md.
        """
        return self.create_game(fork={"game": game_id, "version": version}, seats=seats,
                                decision_timeout=decision_timeout)

    def wait_for_simulation(self, simulation_id: str, *, poll_interval: float = 0.5, timeout: float | None = None,
                            progress: Callable[[Simulation], None] | None = None) -> Simulation:
        """Poll until the simulation is finished (or cancelled) and return it.

        ``progress`` is called with the simulation after each poll. Raises ``SimulationFailed``
        when it failed and ``WaitTimeout`` when ``timeout`` seconds pass first.
        """
        wait = SimulationWait(simulation_id, poll_interval, timeout)
        while True:
            simulation = self.get_simulation(simulation_id)
            if progress is not None:
                progress(simulation)
            if wait.done(simulation):
                return simulation
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
        if not response.content:
            return None
        return decoded_body(response.status_code, response.headers.get("Content-Type", ""), lambda: response.text,
                            response.json)

    def _stream(self, operation: Operation, *, path: dict[str, Any] | None, query: dict[str, Any] | None,
                headers: dict[str, Any] | None, body: Any) -> Iterator[StreamLine]:
        # The request is sent now, so a missing game or a bad token raises here, not on first iteration.
        lines = _ndjson_lines(self._send(operation, path, query, headers, body, stream=True))
        if not self.resume_streams or query is None or "after" not in query:
            return lines
        return self._resumed(lines, operation, path, query, headers)

    def _resumed(self, lines: Iterator[StreamLine], operation: Operation, path: dict[str, Any] | None,
                 query: dict[str, Any], headers: dict[str, Any] | None) -> Iterator[StreamLine]:
        """The stream's lines across reconnections (see ``StreamResume``)."""
        resume = StreamResume(query.get("after"))
        while True:
            for line in lines:
                accepted = resume.accept(line)
                if accepted is None:
                    break
                if accepted:
                    yield line
            else:
                return
            lines = _ndjson_lines(self._send(operation, path, resume.query(query), headers, None, stream=True))

    def _send(self, operation: Operation, path: dict[str, Any] | None, query: dict[str, Any] | None,
              headers: dict[str, Any] | None, body: Any, *, stream: bool) -> requests.Response:
        request = build_request(operation, self.base_url, self.token, path, query, headers, body,
                                api_key=self.api_key)
        policy = RetryPolicy(self.retries, self.backoff, self.max_wait)
        attempt = 0
        while True:
            try:
                response = self.session.request(request.method, request.url, params=request.params,
                                                headers=request.headers, json=request.json, timeout=self.timeout,
                                                stream=stream)
            except (requests.ConnectionError, requests.Timeout) as error:
                delay = policy.after_connection_error(request, attempt)
                if delay is None:
                    raise ConnectionFailed(f"{request.method} {request.url}: {error}") from error
            else:
                if response.status_code in operation.success:
                    return response
                delay = policy.after_answer(request, response.status_code, response.headers.get("Retry-After"),
                                            attempt)
                if delay is None:
                    raise answer_error(response.status_code, response.reason, response.json, response)
                response.close()
            attempt += 1
            time.sleep(delay)


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


def _ndjson_lines(response: requests.Response) -> Iterator[StreamLine]:
    with response:
        for line in response.iter_lines():
            if line:
                yield json.loads(line)
