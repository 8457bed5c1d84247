"""Per-app rate limits (flask-limiter on the service's Redis) and quotas.

Rate limits count requests in four classes: ``moves`` (acting for a seat), ``writes``
(creating, starting, deleting, cancelling), ``reads`` (every GET, the lobby's too) and
``streams``. The buckets are kept apart so that no caller can use up another's:

- an app's secret keys count in the app's bucket, at the app's figures (its own overrides,
  ``rulehouse apps update --limit``, else ``RATE_LIMITS``);
- its publishable keys (written into every page, so anyone's) count per client address
  (``api.http.client_address``: IPv6 by /64, ``X-Forwarded-For`` only from trusted proxies) in
  buckets of their own, always at ``PUBLISHABLE_RATE_LIMITS``: the app's overrides are its
  secret keys', and nothing sent with the public key touches the secret key's bucket;
- the ``local`` app of development mode counts per client address, and is not limited
  unless ``LOCAL_RATE_LIMITS`` says otherwise.

Over a limit: 429 problem+json with ``Retry-After``.

Quotas bound what an app holds rather than how fast it asks: ``api.apps.quotas`` admits what an
app holds (live games, queued chunks, experiments in flight), ``api.apps.accounting`` the work it
has done per day (simulations, searches).
"""

from __future__ import annotations

import math
import time

from flask import Flask, Response, current_app, g, request
from flask_limiter import ApplicationLimit, Limiter
from flask_limiter.errors import RateLimitExceeded
from limits import parse

from api.apps.access import PLAY, SAFE_METHODS, is_metered, requirement
from api.apps.app_store import LOCAL_APP_ID, App
from api.http.client_address import client_address, trusted_networks
from api.http.problems import ApiProblem

CLASSES = ("moves", "writes", "reads", "streams")
#: where the app factory keeps the limiter
LIMITER = "rulehouse.limiter"
STREAM_ENDPOINTS = {"games.Stream", "chat.ChatStream"}


def rate_class() -> str:
    endpoint = request.endpoint or ""
    if endpoint in STREAM_ENDPOINTS:
        return "streams"
    if request.method in SAFE_METHODS:  # the lobby too, though its blueprint's writes are moves
        return "reads"
    return "moves" if requirement(endpoint, request.method) == PLAY else "writes"


def limit_of(app: App, cls: str) -> str | None:
    """The rate limit (e.g. ``"600/minute"``) of ``app`` for requests of class ``cls``; None: unlimited."""
    config = current_app.config
    if app.publishable:  # per client address, never the app's own (secret-key) figures
        return config["PUBLISHABLE_RATE_LIMITS"].get(cls)
    if cls in app.limits:
        return app.limits[cls]
    if app.id == LOCAL_APP_ID:
        return config["LOCAL_RATE_LIMITS"].get(cls)
    return config["RATE_LIMITS"].get(cls)


def _limited(cls: str) -> bool:
    app = g.get("app")
    return app is not None and is_metered() and rate_class() == cls and limit_of(app, cls) is not None


def bucket() -> str:
    """Whose requests this one counts with: the app (secret keys), or one client address of the
    app's publishable keys, or of the local app."""
    app = g.get("app")
    if app is None or app.id == LOCAL_APP_ID:
        return f"{LOCAL_APP_ID}:{client_address()}"
    if app.publishable:
        return f"{app.id}:public:{client_address()}"
    return app.id


def _limit_provider(cls: str):
    def provide() -> str:
        # flask-limiter asks before it asks exempt_when: an unlimited request gets a bound it never meets.
        app = g.get("app")
        return (limit_of(app, cls) if app is not None else None) or "1000000/second"
    return provide


def init_limiter(app: Flask) -> Limiter:
    trusted_networks(app.config.get("TRUSTED_PROXIES") or "")  # a bad setting stops the start, naming it
    parse(app.config["SPECTATOR_ASKS_LIMIT"])  # likewise
    limiter = Limiter(
        key_func=bucket,
        application_limits=[
            ApplicationLimit(limit_provider=_limit_provider(cls), scope=f"apps-{cls}",
                             exempt_when=lambda cls=cls: not _limited(cls))
            for cls in CLASSES
        ],
        storage_uri=app.config["REDIS_URL"],
        strategy="fixed-window",
        key_prefix="rl",
        # flask-limiter's own headers would set Retry-After on every answer, raised to the end of the
        # request's window: a 202's or another 429's own wait (a chat's, an analysis') would read up to a
        # minute. ``_rate_headers`` writes the X-RateLimit-* headers, and only ``_too_many`` a Retry-After.
        headers_enabled=False,
    )
    limiter.init_app(app)
    app.extensions[LIMITER] = limiter
    app.after_request(lambda response: _rate_headers(limiter, response))
    app.register_error_handler(RateLimitExceeded, lambda error: _too_many(limiter, error))
    return limiter


def _rate_headers(limiter: Limiter, response: Response) -> Response:
    """``X-RateLimit-Limit``, ``-Remaining`` and ``-Reset`` of the limit this request counted in."""
    counted = limiter.current_limit
    if counted is not None:
        response.headers["X-RateLimit-Limit"] = str(counted.limit.amount)
        response.headers["X-RateLimit-Remaining"] = str(counted.remaining)
        response.headers["X-RateLimit-Reset"] = str(counted.reset_at)
    return response


def seconds_to_reset(limiter: Limiter) -> int:
    """Whole seconds until the window of the limit this request passed ends (at least 1)."""
    counted = limiter.current_limit
    return max(1, math.ceil(counted.window[0] - time.time())) if counted is not None else 1


def limit_spectator_asks(what: str) -> None:
    """A spectator's ask of ``what`` (a live game's win chances) counts against the asker, whoever owns the game:
    in its own bucket (``bucket``: its app's secret keys together, each client address of a publishable key),
    at ``SPECTATOR_ASKS_LIMIT``; 429 past it. So no app, and no page with another app's publishable key, turns
    its asks into the game's app's spending faster than that (each version is computed once anyway)."""
    limiter: Limiter = current_app.extensions[LIMITER]
    limit = parse(current_app.config["SPECTATOR_ASKS_LIMIT"])
    counted = ("spectator-asks", what, bucket())
    if limiter.limiter.hit(limit, *counted):
        return
    retry_after = max(1, math.ceil(limiter.limiter.get_window_stats(limit, *counted)[0] - time.time()))
    raise ApiProblem("too-many-requests", f"a spectator asks {what} at most {limit} (counted for this app key, or "
                     f"this client of a publishable key): retry in {retry_after} s", reason="rate_limited",
                     limit_class="spectator_asks", headers={"Retry-After": str(retry_after)})


def _too_many(limiter: Limiter, error: RateLimitExceeded):
    retry_after = seconds_to_reset(limiter)
    cls = rate_class()
    app = g.get("app")
    whose = "this client's rate limit of the publishable key" if app is not None and app.publishable \
        else "this app's rate limit"
    return ApiProblem("too-many-requests", f"over {whose} for {cls} ({error.description}): retry in {retry_after} s",
                      reason="rate_limited", limit_class=cls,
                      headers={"Retry-After": str(retry_after)}).response()
