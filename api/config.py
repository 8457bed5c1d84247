"""Service settings: defaults, overridden by the environment, overridden by ``create_app(config)``."""

from __future__ import annotations

import os

DEFAULTS: dict = {
    "REDIS_URL": "redis://127.0.0.1:6379/0",
    #: an unfinished game expires this long after its last move
    "GAME_TTL_SECONDS": 7 * 24 * 3600,
    #: a finished game (and its event log) is kept this long after its last move
    "FINISHED_GAME_TTL_SECONDS": 24 * 3600,
    "IDEMPOTENCY_TTL_SECONDS": 24 * 3600,
    #: largest request body accepted (Flask answers 413 above it)
    "MAX_CONTENT_LENGTH": 64 * 1024,
    #: the live stream writes a keep-alive line after this much silence
    "STREAM_KEEPALIVE_SECONDS": 15.0,
    #: the live stream closes after this long; clients resume from their last cursor
    "STREAM_MAX_SECONDS": 600.0,
    #: RQ queue that plays bot seats; None disables bot jobs (bot seats then wait forever)
    "BOT_QUEUE": "bots",
    #: expose GET /v1/_bench/ping (one Redis read) for bench/api.py
    "BENCH_ENDPOINTS": False,
    #: browser origins (comma-separated, e.g. ``https://app.example``; ``*`` for any) allowed to call the API
    #: from their pages (CORS); none by default
    "CORS_ALLOWED_ORIGINS": "",
    #: an app key the web table's pages send as ``X-Api-Key`` (a browser-safe, publishable key:
    #: it is written into every page); empty: the pages send none, as a local client
    "WEB_API_KEY": "",
}

_INT_KEYS = {"GAME_TTL_SECONDS", "FINISHED_GAME_TTL_SECONDS", "IDEMPOTENCY_TTL_SECONDS", "MAX_CONTENT_LENGTH"}
_FLOAT_KEYS = {"STREAM_KEEPALIVE_SECONDS", "STREAM_MAX_SECONDS"}
_BOOL_KEYS = {"BENCH_ENDPOINTS"}


def from_environment(environ: dict | None = None) -> dict:
    """The settings given as ``RULEHOUSE_<NAME>`` (and plain ``REDIS_URL``) environment variables."""
    environ = os.environ if environ is None else environ
    found: dict = {}
    if environ.get("REDIS_URL"):
        found["REDIS_URL"] = environ["REDIS_URL"]
    for key in DEFAULTS:
        text = environ.get(f"RULEHOUSE_{key}")
        if text is None:
            continue
        if key in _INT_KEYS:
            found[key] = int(text)
        elif key in _FLOAT_KEYS:
            found[key] = float(text)
        elif key in _BOOL_KEYS:
            found[key] = text.lower() in ("1", "true", "yes", "on")
        else:
            found[key] = text or None
    return found


def settings(overrides: dict | None = None) -> dict:
    return {**DEFAULTS, **from_environment(), **(overrides or {})}
