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

Quotas bound what an app holds rather than how fast it asks: live (unfinished) games and
queued simulation and experiment chunks, here; the work it has done per day (simulations, searches) is
admitted and charged by ``api.apps.accounting``, which also reads every quota (``quota_of``:
a publishable key's are ``PUBLISHABLE_QUOTAS`` whatever the app's overrides, which are its
secret keys'). Over a quota: 403 problem+json, ``reason`` naming the quota.
"""

from __future__ import annotations

import json

from flask import Flask, current_app, g, request
from flask_limiter import ApplicationLimit, Limiter
from flask_limiter.errors import RateLimitExceeded

from api.apps import accounting
from api.apps.access import PLAY, SAFE_METHODS, is_metered, keys, requirement
from api.apps.accounting import over_quota, quota_of
from api.apps.keys import LOCAL_APP_ID, App
from api.http.client_address import client_address, trusted_networks
from api.http.problems import ApiProblem
from api.play.store import OVER
from api.service.jobs.experiments import ACTIVE as EXPERIMENT_ACTIVE
from api.service.jobs.experiments import meta_key as experiment_meta_key
from api.service.jobs.simulations import ACTIVE, meta_key
from engine.core.registry import get_ruleset

CLASSES = ("moves", "writes", "reads", "streams")
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
        headers_enabled=True,
        retry_after="delta-seconds",
    )
    limiter.init_app(app)
    app.register_error_handler(RateLimitExceeded, _too_many)
    return limiter


def _too_many(error: RateLimitExceeded):
    # The window's length bounds the wait; flask-limiter's own headers then give the exact reset.
    retry_after = error.limit.limit.get_expiry()
    cls = rate_class()
    app = g.get("app")
    whose = "this client's rate limit of the publishable key" if app is not None and app.publishable \
        else "this app's rate limit"
    return ApiProblem("too-many-requests", f"over {whose} for {cls} ({error.description})",
                      reason="rate_limited", limit_class=cls,
                      headers={"Retry-After": str(retry_after)}).response()


# -- quotas ---------------------------------------------------------------------


def check_live_games(app: App) -> None:
    """Before a game is created: the app's unfinished games must stay within its quota."""
    allowed = quota_of(app, "live_games")
    used = live_games(app.id, allowed + 1)
    if used + 1 > allowed:
        raise over_quota("live_games", used, 1, allowed)


def live_games(app_id: str, at_most: int) -> int:
    """The app's games that still exist and are not finished (looks at its newest ``at_most``);
    games that have ended or expired leave the app's set on the way."""
    store = keys()
    games = [game_id for game_id, _ in store.owned(app_id, "live-games", limit=at_most)]
    if not games:
        return 0
    # The games' own Redis (a cluster, maybe): the app's set of games lives apart from them.
    statuses = current_app.extensions["rulehouse.store"].statuses(games)
    ended = [game_id for game_id, status in zip(games, statuses, strict=True) if status in (None, *OVER)]
    store.disown(app_id, "live-games", *ended)
    return len(games) - len(ended)


def simulation_cost(spec: dict) -> int:
    """A simulation's work in bot cost: its games times the cost per move of each seat's bot."""
    ruleset = get_ruleset(spec["ruleset"])
    classes = ruleset.bot_classes()
    per_game = sum(classes[name].cost_per_move for name in spec["bots"])
    return spec["games"] * per_game


def admit_simulation(app: App, spec: dict) -> None:
    """Before a simulation is queued: its chunks and its work must fit the app's quotas.

    The day's work is counted as it is admitted, so a refused simulation costs nothing.
    """
    allowed_chunks = quota_of(app, "queued_chunks")
    queued = queued_chunks(app.id)
    if queued + spec["chunks"] > allowed_chunks:
        raise over_quota("queued_chunks", queued, spec["chunks"], allowed_chunks)
    accounting.admit(app, "simulation_work_per_day", simulation_cost(spec))


def queued_chunks(app_id: str) -> int:
    """The chunks the app's queued or running simulations and experiments may still play (an
    experiment's once per variant): what the ``queued_chunks`` quota bounds, whichever of them is
    admitted next."""
    return simulation_chunks(app_id) + experiments_in_flight(app_id)[1]


def simulation_chunks(app_id: str) -> int:
    """Chunks of the app's simulations that are queued or running and not yet done."""
    store = keys()
    sims = [sim_id for sim_id, _ in store.owned(app_id, "live-sims")]
    if not sims:
        return 0
    pipe = store.redis.pipeline(transaction=False)
    for sim_id in sims:
        pipe.hmget(meta_key(sim_id), ["status", "spec", "chunks_done"])
    waiting, ended = 0, []
    for sim_id, (status, spec, done) in zip(sims, pipe.execute(), strict=True):
        if status in ACTIVE:
            waiting += json.loads(spec)["chunks"] - int(done or 0)
        else:
            ended.append(sim_id)
    store.disown(app_id, "live-sims", *ended)
    return waiting


#: the app's set of experiments queued or running (api/experiments)
LIVE_EXPERIMENTS = "live-exps"


def experiments_in_flight(app_id: str) -> tuple[int, int]:
    """The app's experiments queued or running, and the chunks they may still play (each counted
    once per variant, as admitted); the ended ones leave the app's set on the way."""
    store = keys()
    owned = [exp_id for exp_id, _ in store.owned(app_id, LIVE_EXPERIMENTS)]
    if not owned:
        return 0, 0
    pipe = store.redis.pipeline(transaction=False)
    for exp_id in owned:
        pipe.hmget(experiment_meta_key(exp_id), ["status", "spec", "chunks_done"])
    running, waiting, ended = 0, 0, []
    for exp_id, (status, raw_spec, done) in zip(owned, pipe.execute(), strict=True):
        if status not in EXPERIMENT_ACTIVE:
            ended.append(exp_id)
            continue
        spec = json.loads(raw_spec)
        running += 1
        waiting += max(0, spec["budget_chunks"] - int(done or 0)) * len(spec["variants"])
    store.disown(app_id, LIVE_EXPERIMENTS, *ended)
    return running, waiting
