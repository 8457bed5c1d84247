"""Per request: its id (``X-Request-Id``), its latency and status in the metrics, one JSON log line.

A caller (or the load balancer) may name the request with ``X-Request-Id``: 1 to 128
characters of ``A-Z a-z 0-9 . _ : -``; anything else is answered 400. Without one the
service makes one up. The id is echoed in the response header of the same name, in every
problem+json body (``request_id``) and in every log line written while the request runs.
"""

from __future__ import annotations

import json
import logging
import re
import sys
import time
import uuid

from flask import Flask, Response, current_app, g, has_request_context, request

from api.ground import metrics
from api.http.problems import ApiProblem

HEADER = "X-Request-Id"
MAX_LENGTH = 128
_VALID = re.compile(rf"[A-Za-z0-9._:-]{{1,{MAX_LENGTH}}}")

access_log = logging.getLogger("rulehouse.http")


def current_request_id() -> str | None:
    return g.get("request_id") if has_request_context() else None


def _begin() -> None:
    g.request_started = time.perf_counter()
    given = request.headers.get(HEADER)
    g.request_id = uuid.uuid4().hex
    if given is not None:
        if not _VALID.fullmatch(given):
            raise ApiProblem("bad-request", f"{HEADER} must be 1 to {MAX_LENGTH} characters of A-Z a-z 0-9 . _ : -",
                             reason="request_id_invalid")
        g.request_id = given


#: the methods the metrics name; any other (a client may send any token) is counted as "other",
#: so that no client can add label sets, each kept in every process for ever
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


def _method() -> str:
    return request.method if request.method in METHODS else "other"


def _route() -> str:
    # The rule (``/v1/games/<game_id>``), never the path: one label per route, whatever the ids.
    return request.url_rule.rule if request.url_rule is not None else "unmatched"


def _private_timing() -> bool:
    """A route whose very use is a secret of its game for now (a seat asking for a hint: the table
    learns of it one version later, ``hint_counts``): no metric may move when it is called."""
    view = current_app.view_functions.get(request.endpoint) if request.endpoint else None
    return bool(getattr(getattr(view, "view_class", view), "private_timing", False))


def _finish(response: Response) -> Response:
    request_id = g.get("request_id")
    if request_id:
        response.headers[HEADER] = request_id
    started = g.get("request_started")
    if started is None:
        return response
    seconds = time.perf_counter() - started
    route = _route()
    if not _private_timing():
        metrics.REQUEST_SECONDS.labels(_method(), route, str(response.status_code)).observe(seconds)
    metrics.report_caches()
    if response.is_streamed and response.status_code == 200:
        metrics.STREAM_CONNECTIONS.inc()
        response.call_on_close(metrics.STREAM_CONNECTIONS.dec)
    app = g.get("app")
    access_log.info("request", extra={"fields": {
        "method": request.method, "route": route, "status": response.status_code,
        "duration_ms": round(seconds * 1000, 2), "app": getattr(app, "id", None),
    }})
    return response


def init_app(app: Flask) -> None:
    app.before_request(_begin)
    app.after_request(_finish)
    if app.config.get("LOG_FORMAT") == "json":
        configure_json_logging(app.config.get("LOG_LEVEL", "INFO"))


class JsonLinesFormatter(logging.Formatter):
    """One JSON object per line: ts, level, logger, msg, request_id (in a request), the record's ``fields``."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        request_id = getattr(record, "request_id", None) or current_request_id()
        if request_id:
            entry["request_id"] = request_id
        entry.update(getattr(record, "fields", None) or {})
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)


def configure_json_logging(level: str = "INFO") -> None:
    """Every log record of the process as JSON lines on stderr (idempotent)."""
    root = logging.getLogger()
    if any(isinstance(handler.formatter, JsonLinesFormatter) for handler in root.handlers):
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonLinesFormatter())
    root.handlers[:] = [handler]
    root.setLevel(level)
