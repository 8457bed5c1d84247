"""Live NDJSON streams of one game: its events as far as one caller may see them (``stream_response``),
and any other source a room follows the same way (``live_response``, e.g. the table chat of api/chat)."""

from __future__ import annotations

import json
import logging
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Protocol

import redis
from flask import Response, current_app, stream_with_context

from api.ground.concurrency import connections_per_process
from api.ground.metrics import track_cache
from api.http.client_address import client_address
from api.http.problems import ApiProblem
from api.play.game_record import FINISHED, OVER, StoredEvent
from api.play.moves import load_state
from api.play.store import GameStore
from api.streams.hub import StreamHub, Waiter
from engine.core.registry import get_ruleset

log = logging.getLogger("rulehouse.streams")

#: Events read per round trip while catching up.
PAGE = 100
#: A quiet stream still reads its game after this many keep-alives (the wake-ups are the rule).
LOOK_EVERY = 4


def ndjson_answer(description: str, line_component: str) -> dict:
    """The spec's 200 answer of a stream whose lines are of the component ``line_component``."""
    # x-itemSchema (OpenAPI 3.2's itemSchema, for a 3.0 document): the schema of each line
    return {"description": description,
            "content": {"application/x-ndjson": {"schema": {"type": "string"},
                                                 "x-itemSchema": {"$ref": f"#/components/schemas/{line_component}"}}}}


def hub() -> StreamHub:
    """This app's hub (one per process), made on first use so that each gunicorn worker gets its own."""
    found = current_app.extensions.get("rulehouse.streams")
    if found is None:
        store: GameStore = current_app.extensions["rulehouse.store"]
        # Wake-ups are published by the games' Redis (a cluster broadcasts them to every node); the
        # per-client stream slots are global keys, on the control Redis.
        wakes = current_app.config.get("GAME_REDIS_URL") or current_app.config["REDIS_URL"]
        found = current_app.extensions["rulehouse.streams"] = StreamHub(wakes, store.control)
        # Each open stream holds one of the process's connections: they bound its waiters.
        bound = connections_per_process(current_app.config)
        track_cache("stream_hub.waiters", lambda: (found.open_streams(), bound))
    return found


@dataclass(slots=True)
class Found:
    """What a stream's look at its source found: the lines to send now, whether it read anything (then it
    looks again at once), and the end line when the stream is over."""

    lines: list[str]
    read: bool = False
    end: str | None = None


class Source(Protocol):
    """What a live stream follows: ``look`` reads what is new since the last look; ``end`` is the last line
    of a stream that stops for a reason of its own (``time_limit``, ``unavailable``)."""

    def look(self) -> Found: ...

    def end(self, reason: str) -> str: ...


def live_response(game_id: str, first: list[str], source: Source) -> Response:
    """The streaming answer: the ``first`` lines, then what ``source`` finds each time the game's wake-up
    channel speaks, keep-alives in silences, and one end line.

    429 when the caller's address already holds ``STREAMS_PER_CLIENT`` open streams.
    """
    config = current_app.config
    streams = hub()
    limit = int(config["STREAMS_PER_CLIENT"])
    slot = streams.acquire_slot(client_address(), limit)
    if slot is None:
        raise ApiProblem("too-many-streams", f"this client already holds {limit} open streams; close one first",
                         headers={"Retry-After": "15"})
    lines = follow(streams, Waiter(game_id), first, source, float(config["STREAM_KEEPALIVE_SECONDS"]),
                   float(config["STREAM_MAX_SECONDS"]))
    response = Response(stream_with_context(_releasing(lines, streams, slot)), mimetype="application/x-ndjson")
    # Also when the body is never iterated (the client left before the first line).
    response.call_on_close(lambda: streams.release_slot(slot))
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response


def stream_response(game_id: str, first: dict, cursor: str,
                    entries: Callable[[list[StoredEvent]], list[dict]]) -> Response:
    """The game's stream: ``first`` (the state line), then ``entries`` of the events after ``cursor``."""
    source = GameEvents(current_app.extensions["rulehouse.store"], game_id, cursor, first["version"], entries)
    return live_response(game_id, [line(first)], source)


def _releasing(lines: Iterator[str], streams: StreamHub, slot: tuple[str, str]) -> Iterator[str]:
    """``lines``, then the stream's client slot freed: a server that reads a stream to its end frees it
    even if it never closes the response."""
    try:
        yield from lines
    finally:
        streams.release_slot(slot)


def line(body: dict) -> str:
    return json.dumps(body) + "\n"


def _end(reason: str, version: int, result: dict | None = None) -> str:
    return line({"kind": "end", "reason": reason, "version": version, "result": result})


def _final_result(game_store: GameStore, game_id: str) -> dict | None:
    record = game_store.load(game_id)
    if record is None:
        return None
    ruleset = get_ruleset(record.ruleset)
    result = ruleset.result(load_state(ruleset, record))
    return None if result is None else result.to_dict()


class GameEvents:
    """A game's events after a cursor, as ``entries`` lets the caller see them; over when the game is."""

    def __init__(self, game_store: GameStore, game_id: str, cursor: str, version: int,
                 entries: Callable[[list[StoredEvent]], list[dict]]) -> None:
        self.store, self.game_id, self.entries = game_store, game_id, entries
        self.cursor, self.version = cursor, version

    def look(self) -> Found:
        events, last, status = self.store.events_and_status(self.game_id, self.cursor, PAGE)
        if last is None and status is not None and status[0] in OVER:
            result = _final_result(self.store, self.game_id) if status[0] == FINISHED else None
            return Found([], end=_end(status[0], status[1], result))
        if last is not None:
            self.cursor = last
            shown = self.entries(events)
            if shown:
                self.version = shown[-1]["version"]
            return Found([line({"kind": "event", **entry}) for entry in shown], read=True)
        return Found([], end=_end("gone", self.version) if status is None else None)

    def end(self, reason: str) -> str:
        return _end(reason, self.version)


def follow(streams: StreamHub, waiter: Waiter, first: list[str], source: Source, keepalive: float,
           max_seconds: float) -> Iterator[str]:
    """The lines of one stream: ``first``, what the source finds as it comes, keep-alives in silences, and
    one end line."""
    yield from first
    deadline = time.monotonic() + max_seconds
    streams.register(waiter)
    quiet = 0  # keep-alives since the last look
    try:
        while True:
            try:
                found = source.look()
            except redis.RedisError as error:
                log.warning("stream of game %s ends: Redis unavailable (%s)", waiter.game_id, error)
                yield source.end("unavailable")
                return
            yield from found.lines
            if found.end is not None:
                yield found.end
                return
            if found.read:
                continue
            left = deadline - time.monotonic()
            if left <= 0:
                yield source.end("time_limit")
                return
            # Every change of the game wakes its streams (and a lost subscriber wakes them all), so a silence
            # costs no Redis read; once in a while one looks anyway. The jitter keeps streams opened together
            # from keeping alive together.
            while not waiter.wait(min(left, keepalive * random.uniform(0.9, 1.0))):
                yield '{"kind":"keepalive"}\n'
                left = deadline - time.monotonic()
                quiet += 1
                if left <= 0 or quiet % LOOK_EVERY == 0:
                    break
    finally:
        streams.unregister(waiter)
