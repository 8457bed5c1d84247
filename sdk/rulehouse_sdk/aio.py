"""The asyncio client: the operations of ``Client`` as coroutines, on httpx.

    pip install "rulehouse-sdk[async]"

    from rulehouse_sdk.aio import AsyncClient
    async with AsyncClient("http://127.0.0.1:8000") as service:
        game = await service.create_game("monopoly-cars2", [{"name": "Ann"}, {"name": "Ben"}], seed=7)
        async for line in await service.stream_events(game["id"]):
            ...

Its operation layer is generated from the same spec as ``Client``'s; the rules of requests,
retries, errors, stream resumption and simulation waits are ``Client``'s own (``_transport``),
so only the I/O is written here.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx

from rulehouse_sdk._generated import AsyncOperations, EventEntry, Operation, Simulation, StreamLine
from rulehouse_sdk._transport import (
    DEFAULT_BASE_URL,
    RetryPolicy,
    SimulationWait,
    StreamResume,
    answer_error,
    build_request,
    decoded_body,
)
from rulehouse_sdk.errors import ConnectionFailed


class AsyncClient(AsyncOperations):
    """A Rulehouse service seen through one bearer token, for asyncio; see ``Client`` for the options.

    ``timeout`` is httpx's (default: 5 s to connect, 30 s for the rest); ``client`` your own
    ``httpx.AsyncClient`` (closed by you, not by ``aclose``).
    """

    def __init__(self, base_url: str = DEFAULT_BASE_URL, token: str | None = None, *, api_key: str | None = None,
                 timeout: float | httpx.Timeout | None = None, retries: int = 3, backoff: float = 0.25,
                 max_wait: float = 30.0, client: httpx.AsyncClient | None = None, resume_streams: bool = True) -> None:
        self.base_url = base_url.rstrip("/")
        #: the app key, sent as ``X-Api-Key`` with every request
        self.api_key = api_key
        self.token = token
        self.timeout = timeout if timeout is not None else httpx.Timeout(30.0, connect=5.0)
        self.policy = RetryPolicy(retries, backoff, max_wait)
        self.resume_streams = resume_streams
        self._owns_client = client is None
        self.client = client or httpx.AsyncClient()

    def with_token(self, token: str | None) -> AsyncClient:
        """The same service (and connection pool) seen through another token."""
        other = AsyncClient(self.base_url, token, api_key=self.api_key, timeout=self.timeout,
                            retries=self.policy.retries, backoff=self.policy.backoff,
                            max_wait=self.policy.max_wait, client=self.client, resume_streams=self.resume_streams)
        other._owns_client = False
        return other

    async def aclose(self) -> None:
        if self._owns_client:
            await self.client.aclose()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    def __repr__(self) -> str:
        return f"AsyncClient({self.base_url!r}, token={'…' if self.token else None})"

    # -- helpers beyond the operations ------------------------------------------------

    async def iter_events(self, game_id: str, *, after: str = "0", page_size: int = 100) -> AsyncIterator[EventEntry]:
        """Every event the token may see after ``after``, page by page, oldest first; stops at the last one."""
        while True:
            page = await self.list_events(game_id, after=after, limit=page_size)
            for entry in page["events"]:
                yield entry
            if page["next"] == after:
                return
            after = page["next"]

    async def wait_for_simulation(self, simulation_id: str, *, poll_interval: float = 0.5,
                                  timeout: float | None = None,
                                  progress: Callable[[Simulation], None] | None = None) -> Simulation:
        """Poll until the simulation is finished (or cancelled) and return it (as ``Client.wait_for_simulation``)."""
        wait = SimulationWait(simulation_id, poll_interval, timeout)
        while True:
            simulation = await self.get_simulation(simulation_id)
            if progress is not None:
                progress(simulation)
            if wait.done(simulation):
                return simulation
            await asyncio.sleep(poll_interval)

    # -- transport ----------------------------------------------------------------

    async def _call(self, operation: Operation, *, path: dict[str, Any] | None, query: dict[str, Any] | None,
                    headers: dict[str, Any] | None, body: Any) -> Any:
        response = await self._send(operation, path, query, headers, body, stream=False)
        if not response.content:
            return None
        return decoded_body(response.status_code, response.headers.get("Content-Type", ""), lambda: response.text,
                            response.json)

    async def _stream(self, operation: Operation, *, path: dict[str, Any] | None, query: dict[str, Any] | None,
                      headers: dict[str, Any] | None, body: Any) -> AsyncIterator[StreamLine]:
        lines = _ndjson_lines(await self._send(operation, path, query, headers, body, stream=True))
        if not self.resume_streams or query is None or "after" not in query:
            return lines
        return self._resumed(lines, operation, path, query, headers)

    async def _resumed(self, lines: AsyncIterator[StreamLine], operation: Operation, path: dict[str, Any] | None,
                       query: dict[str, Any], headers: dict[str, Any] | None) -> AsyncIterator[StreamLine]:
        resume = StreamResume(query.get("after"))
        while True:
            async for line in lines:
                accepted = resume.accept(line)
                if accepted is None:
                    break
                if accepted:
                    yield line
            else:
                return
            await lines.aclose()
            response = await self._send(operation, path, resume.query(query), headers, None, stream=True)
            lines = _ndjson_lines(response)

    async def _send(self, operation: Operation, path: dict[str, Any] | None, query: dict[str, Any] | None,
                    headers: dict[str, Any] | None, body: Any, *, stream: bool) -> httpx.Response:
        request = build_request(operation, self.base_url, self.token, path, query, headers, body,
                                api_key=self.api_key)
        attempt = 0
        while True:
            sent = self.client.build_request(request.method, request.url, params=request.params,
                                             headers=request.headers, json=request.json, timeout=self.timeout)
            try:
                response = await self.client.send(sent, stream=stream)
            except httpx.TransportError as error:
                delay = self.policy.after_connection_error(request, attempt)
                if delay is None:
                    raise ConnectionFailed(f"{request.method} {request.url}: {error}") from error
            else:
                if response.status_code in operation.success:
                    return response
                await response.aread()
                await response.aclose()
                delay = self.policy.after_answer(request, response.status_code, response.headers.get("Retry-After"),
                                                 attempt)
                if delay is None:
                    raise answer_error(response.status_code, response.reason_phrase, response.json, response)
            attempt += 1
            await asyncio.sleep(delay)


async def _ndjson_lines(response: httpx.Response) -> AsyncIterator[StreamLine]:
    try:
        async for line in response.aiter_lines():
            if line:
                yield json.loads(line)
    finally:
        await response.aclose()
