"""Webhooks: an app's URLs told what happened, signed, retried, deduplicated; no Flask here.

Key layout (all expire; a delivery is kept ``DELIVERY_TTL`` seconds):

- ``app:{<app>}:webhooks``    set of the app's webhook ids
- ``webhook:{<id>}``          hash: app, url, events (JSON list), secret, created
- ``webhook:{<id>}:deliveries`` list of its newest delivery ids (newest first, capped)
- ``delivery:{<id>}``         hash: webhook, type, body, status (pending, delivered,
                              failed), attempts, last_status, last_error, created, delivered

A delivery is one RQ job on the queue ``webhooks`` whose job id is the delivery id, so it
is queued once; RQ retries a failed attempt after the configured intervals (the worker
runs RQ's scheduler), and an attempt finds the delivery already ``delivered`` and does
nothing. The body is the public event only: ids, versions, seats, never a seat's view.

Each request carries ``Rulehouse-Delivery: <id>`` and ``Rulehouse-Signature:
t=<unix time>,v1=<hex HMAC-SHA256 of "<t>.<body>" keyed by the webhook's secret>``, as
Stripe signs its webhooks; receivers check the HMAC and that ``t`` is recent.
"""

from __future__ import annotations

import hashlib
import hmac
import http.client
import json
import logging
import secrets
import time
from datetime import UTC, datetime

import redis
from rq import Queue, Retry

from api.apps.webhook_addresses import CheckedUrl, UnsafeUrl, check_url, pinned_connection
from api.config import settings as service_settings

EVENTS = ("decision.waiting", "deadline.near", "game.finished", "simulation.finished", "experiment.finished")
QUEUE = "webhooks"
#: where the app factory keeps its ``Webhooks``
EXTENSION_NAME = "rulehouse.webhooks"
MAX_WEBHOOKS_PER_APP = 20
DELIVERIES_KEPT = 50
DELIVERY_TTL = 7 * 24 * 3600
#: How long the set of an app's webhooks is trusted in one process before it is read again.
CACHE_SECONDS = 1.0

log = logging.getLogger("rulehouse.webhooks")


def webhook_key(webhook_id: str) -> str:
    return f"webhook:{{{webhook_id}}}"


def deliveries_key(webhook_id: str) -> str:
    return f"webhook:{{{webhook_id}}}:deliveries"


def delivery_key(delivery_id: str) -> str:
    return f"delivery:{{{delivery_id}}}"


def app_webhooks_key(app_id: str) -> str:
    return f"app:{{{app_id}}}:webhooks"


def sign(secret: str, timestamp: int, body: bytes) -> str:
    return hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()


def signature_header(secret: str, timestamp: int, body: bytes) -> str:
    return f"t={timestamp},v1={sign(secret, timestamp, body)}"


class Webhooks:
    def __init__(self, client: redis.Redis, queue_connection: redis.Redis, config: dict | None = None) -> None:
        self.redis = client  # decode_responses=True
        self.queue = Queue(QUEUE, connection=queue_connection)
        self.config = config or service_settings()
        self._cache: dict[str, tuple[float, list[dict]]] = {}

    @classmethod
    def from_settings(cls, config: dict) -> Webhooks:
        url = config["REDIS_URL"]
        return cls(redis.Redis.from_url(url, decode_responses=True), redis.Redis.from_url(url), config)

    # -- registration ---------------------------------------------------------------

    def register(self, app_id: str, url: str, events: list[str]) -> dict:
        check_url(url, self.config["WEBHOOK_ALLOW_PRIVATE"])
        if self.redis.scard(app_webhooks_key(app_id)) >= MAX_WEBHOOKS_PER_APP:
            raise ValueError(f"an app may have at most {MAX_WEBHOOKS_PER_APP} webhooks")
        webhook_id = "wh_" + secrets.token_hex(8)
        secret = "whsec_" + secrets.token_urlsafe(24)
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(webhook_key(webhook_id), mapping={
            "app": app_id, "url": url, "events": json.dumps(sorted(set(events))), "secret": secret,
            "created": repr(time.time()),
        })
        pipe.sadd(app_webhooks_key(app_id), webhook_id)
        pipe.execute()
        return {**self.get(app_id, webhook_id), "secret": secret}

    def get(self, app_id: str, webhook_id: str) -> dict | None:
        data = self.redis.hgetall(webhook_key(webhook_id))
        if not data or data["app"] != app_id:
            return None
        return {"id": webhook_id, "url": data["url"], "events": json.loads(data["events"]),
                "created": _iso(float(data["created"]))}

    def list(self, app_id: str) -> list[dict]:
        found = (self.get(app_id, webhook_id) for webhook_id in sorted(self.redis.smembers(app_webhooks_key(app_id))))
        return [webhook for webhook in found if webhook is not None]

    def delete(self, app_id: str, webhook_id: str) -> bool:
        if self.get(app_id, webhook_id) is None:
            return False
        pipe = self.redis.pipeline(transaction=True)
        pipe.delete(webhook_key(webhook_id), deliveries_key(webhook_id))
        pipe.srem(app_webhooks_key(app_id), webhook_id)
        pipe.execute()
        return True

    def deliveries(self, webhook_id: str) -> list[dict]:
        ids = self.redis.lrange(deliveries_key(webhook_id), 0, DELIVERIES_KEPT - 1)
        pipe = self.redis.pipeline(transaction=False)
        for delivery_id in ids:
            pipe.hgetall(delivery_key(delivery_id))
        return [_delivery_summary(delivery_id, data) for delivery_id, data in zip(ids, pipe.execute(), strict=True)
                if data]

    # -- emitting -------------------------------------------------------------------

    def subscribed(self, app_id: str, event_type: str) -> list[dict]:
        """The app's webhooks that want ``event_type`` (read at most once a second per process)."""
        cached = self._cache.get(app_id)
        if cached is None or time.monotonic() - cached[0] > CACHE_SECONDS:
            hooks = []
            for webhook_id in self.redis.smembers(app_webhooks_key(app_id)):
                data = self.redis.hmget(webhook_key(webhook_id), ["url", "events"])
                if data[0] is not None:
                    hooks.append({"id": webhook_id, "events": json.loads(data[1])})
            cached = (time.monotonic(), hooks)
            self._cache[app_id] = cached
        return [hook for hook in cached[1] if event_type in hook["events"]]

    def emit(self, app_id: str | None, event_type: str, data: dict) -> list[str]:
        """Queue one delivery of ``event_type`` to each of the app's webhooks that wants it."""
        if not app_id:
            return []
        hooks = self.subscribed(app_id, event_type)
        delivery_ids = []
        for hook in hooks:
            delivery_id = "dlv_" + secrets.token_hex(10)
            body = json.dumps({"id": delivery_id, "type": event_type, "created": _iso(time.time()), "data": data},
                              separators=(",", ":"))
            pipe = self.redis.pipeline(transaction=True)
            pipe.hset(delivery_key(delivery_id), mapping={
                "webhook": hook["id"], "type": event_type, "body": body, "status": "pending", "attempts": "0",
                "created": repr(time.time()),
            })
            pipe.expire(delivery_key(delivery_id), DELIVERY_TTL)
            pipe.lpush(deliveries_key(hook["id"]), delivery_id)
            pipe.ltrim(deliveries_key(hook["id"]), 0, DELIVERIES_KEPT - 1)
            pipe.execute()
            intervals = [int(s) for s in str(self.config["WEBHOOK_RETRY_INTERVALS"]).split(",") if s.strip()]
            self.queue.enqueue("api.apps.webhooks.deliver", delivery_id, job_id=delivery_id, result_ttl=60,
                               failure_ttl=DELIVERY_TTL, retry=Retry(max=len(intervals), interval=intervals),
                               job_timeout=int(self.config["WEBHOOK_TIMEOUT_SECONDS"]) * 3 + 10)
            delivery_ids.append(delivery_id)
        return delivery_ids

    # -- delivering (the worker) ------------------------------------------------------

    def attempt(self, delivery_id: str) -> str:
        """One attempt at a delivery; raises on failure so that RQ retries it."""
        key = delivery_key(delivery_id)
        delivery = self.redis.hgetall(key)
        if not delivery or delivery["status"] == "delivered":
            return "nothing to do"
        hook = self.redis.hgetall(webhook_key(delivery["webhook"]))
        if not hook:
            self.redis.hset(key, mapping={"status": "failed", "last_error": "the webhook was deleted"})
            return "webhook deleted"
        attempts = self.redis.hincrby(key, "attempts", 1)
        try:
            checked = check_url(hook["url"], self.config["WEBHOOK_ALLOW_PRIVATE"])
            status = _post(checked, delivery["body"].encode(), hook["secret"], delivery_id,
                           float(self.config["WEBHOOK_TIMEOUT_SECONDS"]))
        except (OSError, UnsafeUrl, http.client.HTTPException) as error:
            self._failed(key, attempts, None, f"{type(error).__name__}: {error}")
            raise DeliveryFailed(f"{delivery_id}: {error}") from None
        if not 200 <= status < 300:
            self._failed(key, attempts, status, f"the receiver answered {status}")
            raise DeliveryFailed(f"{delivery_id}: HTTP {status}")
        self.redis.hset(key, mapping={"status": "delivered", "last_status": str(status), "last_error": "",
                                      "delivered": repr(time.time())})
        return "delivered"

    def _failed(self, key: str, attempts: int, status: int | None, error: str) -> None:
        intervals = [s for s in str(self.config["WEBHOOK_RETRY_INTERVALS"]).split(",") if s.strip()]
        final = attempts > len(intervals)
        self.redis.hset(key, mapping={"status": "failed" if final else "pending", "last_error": error[:500],
                                      "last_status": "" if status is None else str(status)})


class DeliveryFailed(Exception):
    pass


def _post(url: CheckedUrl, body: bytes, secret: str, delivery_id: str, timeout: float) -> int:
    """POST to the addresses checked, without following redirects (a redirect could lead
    anywhere); the response status."""
    connection = pinned_connection(url, timeout)
    path = url.target
    try:
        connection.request("POST", path, body=body, headers={
            "Content-Type": "application/json", "User-Agent": "Rulehouse-Webhooks/1",
            "Rulehouse-Delivery": delivery_id, "Rulehouse-Signature": signature_header(secret, int(time.time()), body),
        })
        response = connection.getresponse()
        response.read(64 * 1024)
        return response.status
    finally:
        connection.close()


def _delivery_summary(delivery_id: str, data: dict) -> dict:
    return {
        "id": delivery_id, "type": data.get("type"), "status": data.get("status"),
        "attempts": int(data.get("attempts", 0)), "last_status": int(data["last_status"]) if data.get("last_status")
        else None, "last_error": data.get("last_error") or None, "created": _iso(float(data["created"])),
        "delivered": _iso(float(data["delivered"])) if data.get("delivered") else None,
    }


def _iso(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, UTC).isoformat().replace("+00:00", "Z")


_worker_webhooks: Webhooks | None = None


def worker_webhooks() -> Webhooks:
    """The worker process's ``Webhooks`` (on ``REDIS_URL``, which the worker sets)."""
    global _worker_webhooks
    if _worker_webhooks is None:
        _worker_webhooks = Webhooks.from_settings(service_settings())
    return _worker_webhooks


def deliver(delivery_id: str) -> str:
    """The RQ job: one attempt at one delivery."""
    return worker_webhooks().attempt(delivery_id)
