"""The live NDJSON stream of one game, as far as one caller may see it."""

from __future__ import annotations

import json
import logging
import random
import time
from collections.abc import Callable, Iterator

import redis
from flask import Response, current_app, request, stream_with_context

from api.moves import load_state
from api.problems import ApiProblem
from api.store import FINISHED, GameStore, StoredEvent
from api.streams.hub import StreamHub, Waiter
from engine.core.registry import get_ruleset

log = logging.getLogger("rulehouse.streams")

#: Events read per round trip while catching up.
PAGE = 100
#: A quiet stream still reads its game after this many keep-alives (the wake-ups are the rule).
LOOK_EVERY = 4


def hub() -> StreamHub:
    """This app's hub (one per process), made on first use so that each gunicorn worker gets its own."""
    found = current_app.extensions.get("rulehouse.streams")
    if found is None:
        store: GameStore = current_app.extensions["rulehouse.store"]
        # Wake-ups are published by the games' Redis (a cluster broadcasts them to every node); the
        # per-client stream slots are global keys, on the control Redis.
        wakes = current_app.config.get("GAME_REDIS_URL") or current_app.config["REDIS_URL"]
        found = current_app.extensions["rulehouse.streams"] = StreamHub(wakes, store.control)
    return found


def stream_response(game_id: str, first: dict, cursor: str,
                    entries: Callable[[list[StoredEvent]], list[dict]]) -> Response:
    """The streaming answer: ``first`` (the state line), then ``entries`` of the events after ``cursor``.

    429 when the caller's address already holds ``STREAMS_PER_CLIENT`` open streams.
    """
    config = current_app.config
    streams = hub()
    limit = int(config["STREAMS_PER_CLIENT"])
    slot = streams.acquire_slot(request.remote_addr or "unknown", limit)
    if slot is None:
        raise ApiProblem("too-many-streams", f"this client already holds {limit} open streams; close one first",
                         headers={"Retry-After": "15"})
    lines = stream_lines(current_app.extensions["rulehouse.store"], streams, Waiter(game_id), first, cursor,
                         entries, float(config["STREAM_KEEPALIVE_SECONDS"]), float(config["STREAM_MAX_SECONDS"]))
    response = Response(stream_with_context(_releasing(lines, streams, slot)), mimetype="application/x-ndjson")
    # Also when the body is never iterated (the client left before the first line).
    response.call_on_close(lambda: streams.release_slot(slot))
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response


def _releasing(lines: Iterator[str], streams: StreamHub, slot: tuple[str, str]) -> Iterator[str]:
    """``lines``, then the stream's client slot freed: a server that reads a stream to its end frees it
    even if it never closes the response."""
    try:
        yield from lines
    finally:
        streams.release_slot(slot)


def _line(body: dict) -> str:
    return json.dumps(body) + "\n"


def _end(reason: str, version: int, result: dict | None = None) -> str:
    return _line({"kind": "end", "reason": reason, "version": version, "result": result})


def _final_result(game_store: GameStore, game_id: str) -> dict | None:
    record = game_store.load(game_id)
    if record is None:
        return None
    ruleset = get_ruleset(record.ruleset)
    result = ruleset.result(load_state(ruleset, record))
    return None if result is None else result.to_dict()


def stream_lines(game_store: GameStore, streams: StreamHub, waiter: Waiter, first: dict, cursor: str,
                 entries: Callable[[list[StoredEvent]], list[dict]], keepalive: float, max_seconds: float,
                 ) -> Iterator[str]:
    """The lines of one stream: the state, the events as they come, keep-alives in silences, and one end line."""
    yield _line(first)
    deadline = time.monotonic() + max_seconds
    version = first["version"]
    game_id = waiter.game_id
    streams.register(waiter)
    quiet = 0  # keep-alives since the last look at the game
    try:
        while True:
            try:
                events, last, status = game_store.events_and_status(game_id, cursor, PAGE)
                if last is None and status is not None and status[0] == FINISHED:
                    yield _end("finished", status[1], _final_result(game_store, game_id))
                    return
            except redis.RedisError as error:
                log.warning("stream of game %s ends: Redis unavailable (%s)", game_id, error)
                yield _end("unavailable", version)
                return
            if last is not None:
                cursor = last
                for entry in entries(events):
                    version = entry["version"]
                    yield _line({"kind": "event", **entry})
                continue
            if status is None:
                yield _end("gone", version)
                return
            left = deadline - time.monotonic()
            if left <= 0:
                yield _end("time_limit", version)
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
