"""Webhooks: an app's URLs told what happened, signed, retried, deduplicated; no Flask here.

Key layout (all expire; a delivery is kept ``DELIVERY_TTL`` seconds):

- ``app:{<app>}:webhooks``    set of the app's webhook ids
- ``webhook:{<id>}``          hash: app, url, events (JSON list), secret, created
- ``webhook:{<id>}:deliveries`` list of its newest delivery ids (newest first, capped)
- ``delivery:{<id>}``         hash: app, webhook, type, body, status (pending, delivered,
                              failed), attempts, last_status, last_error, created, delivered
- ``app:{<app>}:deliveries:waiting``   list of the app's deliveries waiting for a slot
- ``app:{<app>}:deliveries:in-flight`` sorted set: the app's deliveries queued or being
                              attempted -> when their lease runs out
- ``webhooks:waiting-apps``   set of apps that have deliveries waiting (for the sweep)

Apps cannot hold each other up. Deliveries run only on the queue ``webhooks``, which the bot
workers do not take (``rulehouse worker --queues webhooks``, ``serve``'s delivery workers).
An attempt has one total time limit, ``WEBHOOK_TIMEOUT_SECONDS``, over connecting, sending
and reading (``webhook_addresses.Deadline``), so a receiver that trickles bytes cannot hold a
worker longer. And at most ``WEBHOOK_DELIVERIES_PER_APP`` of an app's deliveries are on the
queue or in a worker at once (its in-flight slots); the others wait in the app's own line,
in order, and go to the queue as slots free up. So one app's receivers hold at most that
many delivery workers, and every other app's deliveries go on through the others. Nothing
is dropped: a slot whose worker was killed is taken back when its lease runs out and its
delivery goes back to the front of the line (the workers' sweep pumps every app's line).

Each attempt is one RQ job (id ``<delivery id>-<attempt>-<random>``), queued only by the
pump that gave the delivery its slot, or as the retry of a failed attempt: that schedules
the next one after the configured interval (the workers' sweep queues it when due). An
attempt that finds the delivery already ``delivered`` does nothing. The body is the public
event only: ids, versions, seats, never a seat's view.

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
from datetime import timedelta

import redis
from rq import Queue

from api.apps.webhook_addresses import CheckedUrl, Deadline, UnsafeUrl, check_url, pinned_connection
from api.ground import config as service_config
from api.ground.metrics import track_cache
from api.ground.times import iso_time
from engine.core.bounded import BoundedCache

EVENTS = ("decision.waiting", "deadline.near", "game.finished", "simulation.finished", "experiment.finished",
          "rating.updated", "tournament.round_started", "tournament.finished")
QUEUE = "webhooks"  # api.ground.config.WEBHOOK_QUEUE
#: where the app factory keeps its ``Webhooks``
EXTENSION_NAME = "rulehouse.webhooks"
MAX_WEBHOOKS_PER_APP = 20
DELIVERIES_KEPT = 50
DELIVERY_TTL = 7 * 24 * 3600
#: How long the set of an app's webhooks is trusted in one process before it is read again.
CACHE_SECONDS = 1.0
#: Apps whose webhooks one process keeps (those moved least recently go first: they are the stale ones).
CACHED_APPS = 1024
#: Apps with deliveries waiting for a slot (the sweep pumps their lines).
WAITING_APPS = "webhooks:waiting-apps"
#: How long a slot is held for a delivery on the queue (not yet started); once started, its
#: lease is the attempt's limit plus ``STARTED_LEASE_MARGIN`` (RQ has killed it by then).
QUEUED_LEASE = 600
STARTED_LEASE_MARGIN = 30

#: KEYS: in-flight, waiting. ARGV: now, lease until, slots, ttl. Leases that ran out (a killed
#: worker) go back to the front of the line; then slots are filled from the line, in order.
_PUMP = """
local expired = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
for i = #expired, 1, -1 do redis.call('LPUSH', KEYS[2], expired[i]) end
if #expired > 0 then redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1]) end
local taken = {}
while redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[3]) do
  local id = redis.call('LPOP', KEYS[2])
  if not id then break end
  redis.call('ZADD', KEYS[1], ARGV[2], id)
  taken[#taken + 1] = id
end
redis.call('EXPIRE', KEYS[1], ARGV[4])
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('EXPIRE', KEYS[2], ARGV[4]) end
return taken
"""
#: KEYS: in-flight. ARGV: delivery, now, lease until, slots. Holds the delivery's slot (taken for it
#: by a pump, or free now); 0 when every slot is someone else's.
_HOLD = """
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
  return 1
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[2])
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[4]) then
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
  return 1
end
return 0
"""
#: KEYS: the app's webhooks, the new webhook. ARGV: its id, the most an app may have, then its fields and values.
#: Counted and added in one step, so registrations sent together never pass the bound; 0 when full.
_REGISTER = """
if redis.call('SCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[2], unpack(ARGV, 3))
redis.call('SADD', KEYS[1], ARGV[1])
return 1
"""

log = logging.getLogger("rulehouse.webhooks")


def webhook_key(webhook_id: str) -> str:
    return f"webhook:{{{webhook_id}}}"


def deliveries_key(webhook_id: str) -> str:
    return f"webhook:{{{webhook_id}}}:deliveries"


def delivery_key(delivery_id: str) -> str:
    return f"delivery:{{{delivery_id}}}"


def app_webhooks_key(app_id: str) -> str:
    return f"app:{{{app_id}}}:webhooks"


def waiting_key(app_id: str) -> str:
    return f"app:{{{app_id}}}:deliveries:waiting"


def in_flight_key(app_id: str) -> str:
    return f"app:{{{app_id}}}:deliveries:in-flight"


def sign(secret: str, timestamp: int, body: bytes) -> str:
    return hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()


def signature_header(secret: str, timestamp: int, body: bytes) -> str:
    return f"t={timestamp},v1={sign(secret, timestamp, body)}"


class Webhooks:
    def __init__(self, client: redis.Redis, queue_connection: redis.Redis, config: dict | None = None) -> None:
        self.redis = client  # decode_responses=True
        self.queue = Queue(QUEUE, connection=queue_connection)
        self.config = config or service_config.current()
        self._cache: BoundedCache[str, tuple[float, list[dict]]] = BoundedCache(CACHED_APPS)
        track_cache("webhooks.apps", self._cache.sizes)  # a process has one Webhooks in use: the newest
        self._pump = self.redis.register_script(_PUMP)
        self._hold = self.redis.register_script(_HOLD)
        self._register = self.redis.register_script(_REGISTER)

    @classmethod
    def from_settings(cls, config: dict) -> Webhooks:
        url = config["REDIS_URL"]
        return cls(redis.Redis.from_url(url, decode_responses=True), redis.Redis.from_url(url), config)

    @classmethod
    def on_connection(cls, connection: redis.Redis) -> Webhooks:
        """On the Redis of ``connection`` (a worker's, which does not decode responses)."""
        pool = connection.connection_pool
        decoding = redis.ConnectionPool(connection_class=pool.connection_class,
                                        **{**pool.connection_kwargs, "decode_responses": True})
        return cls(redis.Redis(connection_pool=decoding), connection)

    # -- registration ---------------------------------------------------------------

    def register(self, app_id: str, url: str, events: list[str]) -> dict:
        check_url(url, self.config["WEBHOOK_ALLOW_PRIVATE"])
        webhook_id = "wh_" + secrets.token_hex(8)
        secret = "whsec_" + secrets.token_urlsafe(24)
        fields = {"app": app_id, "url": url, "events": json.dumps(sorted(set(events))), "secret": secret,
                  "created": repr(time.time())}
        pairs = [item for pair in fields.items() for item in pair]
        if not self._register(keys=[app_webhooks_key(app_id), webhook_key(webhook_id)],
                              args=[webhook_id, MAX_WEBHOOKS_PER_APP, *pairs]):
            raise ValueError(f"an app may have at most {MAX_WEBHOOKS_PER_APP} webhooks")
        return {**self.get(app_id, webhook_id), "secret": secret}

    def get(self, app_id: str, webhook_id: str) -> dict | None:
        data = self.redis.hgetall(webhook_key(webhook_id))
        if not data or data["app"] != app_id:
            return None
        return {"id": webhook_id, "url": data["url"], "events": json.loads(data["events"]),
                "created": iso_time(float(data["created"]))}

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
            self._cache.put(app_id, cached)
        return [hook for hook in cached[1] if event_type in hook["events"]]

    def emit(self, app_id: str | None, event_type: str, data: dict) -> list[str]:
        """Line up one delivery of ``event_type`` for each of the app's webhooks that wants it; those
        that find a free slot of the app's go to the queue at once."""
        if not app_id:
            return []
        hooks = self.subscribed(app_id, event_type)
        delivery_ids = []
        for hook in hooks:
            delivery_id = "dlv_" + secrets.token_hex(10)
            body = json.dumps({"id": delivery_id, "type": event_type, "created": iso_time(time.time()), "data": data},
                              separators=(",", ":"))
            pipe = self.redis.pipeline(transaction=True)
            pipe.hset(delivery_key(delivery_id), mapping={
                "app": app_id, "webhook": hook["id"], "type": event_type, "body": body, "status": "pending",
                "attempts": "0", "created": repr(time.time()),
            })
            pipe.expire(delivery_key(delivery_id), DELIVERY_TTL)
            pipe.lpush(deliveries_key(hook["id"]), delivery_id)
            pipe.ltrim(deliveries_key(hook["id"]), 0, DELIVERIES_KEPT - 1)
            pipe.rpush(waiting_key(app_id), delivery_id)
            pipe.execute()
            delivery_ids.append(delivery_id)
        if delivery_ids:
            self.redis.sadd(WAITING_APPS, app_id)
            self.pump(app_id)
        return delivery_ids

    # -- the app's slots ----------------------------------------------------------------

    def slots(self) -> int:
        return max(1, int(self.config["WEBHOOK_DELIVERIES_PER_APP"]))

    def attempt_seconds(self) -> float:
        return float(self.config["WEBHOOK_TIMEOUT_SECONDS"])

    def pump(self, app_id: str) -> list[str]:
        """Queue the app's waiting deliveries that fit in its free slots (in the order they were
        lined up); the ids queued."""
        now = time.time()
        taken = self._pump(keys=[in_flight_key(app_id), waiting_key(app_id)],
                           args=[now, now + QUEUED_LEASE, self.slots(), DELIVERY_TTL])
        for delivery_id in taken:
            self._enqueue(app_id, delivery_id, int(self.redis.hget(delivery_key(delivery_id), "attempts") or 0) + 1)
        if not taken and not self.redis.exists(waiting_key(app_id)):
            self.redis.srem(WAITING_APPS, app_id)
        return taken

    def pump_all(self) -> int:
        """Pump every app that has deliveries waiting (the workers' sweep); how many were queued."""
        return sum(len(self.pump(app_id)) for app_id in self.redis.smembers(WAITING_APPS))

    def in_flight(self, app_id: str) -> int:
        return self.redis.zcard(in_flight_key(app_id))

    def _enqueue(self, app_id: str, delivery_id: str, attempt: int, delay: float = 0) -> None:
        # A fresh job id each time: a delivery lined up again never meets its last job's id (its
        # slot, not the job id, keeps it to one attempt at a time).
        job = {"job_id": f"{delivery_id}-{attempt}-{secrets.token_hex(3)}", "result_ttl": 60,
               "failure_ttl": DELIVERY_TTL, "job_timeout": int(self.attempt_seconds()) + 10}
        if delay > 0:
            self.queue.enqueue_in(timedelta(seconds=delay), "api.apps.webhooks.deliver", delivery_id, app_id, **job)
        else:
            self.queue.enqueue("api.apps.webhooks.deliver", delivery_id, app_id, **job)

    def _retry_intervals(self) -> list[int]:
        return [int(s) for s in str(self.config["WEBHOOK_RETRY_INTERVALS"]).split(",") if s.strip()]

    def run(self, delivery_id: str, app_id: str | None = None) -> str:
        """The job: one attempt at a delivery of ``app_id``'s, in a slot of the app's (else it waits in the
        app's line); a failed attempt schedules the next one."""
        delivery = self.redis.hgetall(delivery_key(delivery_id))
        if app_id is None and delivery:  # a job queued before jobs named their app
            app_id = delivery.get("app") or self.redis.hget(webhook_key(delivery["webhook"]), "app")
        if not delivery or delivery["status"] != "pending":  # expired, or done by another job
            if app_id:  # its slot, if it still held one, is free (else it would be held until its lease ends)
                self.redis.zrem(in_flight_key(app_id), delivery_id)
                self.pump(app_id)
            return "nothing to do"
        app_id = app_id or "-"
        now = time.time()
        held = self._hold(keys=[in_flight_key(app_id)],
                          args=[delivery_id, now, now + self.attempt_seconds() + STARTED_LEASE_MARGIN, self.slots()])
        if not held:  # every slot is another delivery's of this app: back in its line, at the front
            self.redis.lpush(waiting_key(app_id), delivery_id)
            self.redis.sadd(WAITING_APPS, app_id)
            return "waiting for a slot"
        try:
            return self.attempt(delivery_id)
        except DeliveryFailed as failed:
            attempts = int(self.redis.hget(delivery_key(delivery_id), "attempts") or 0)
            intervals = self._retry_intervals()
            if attempts <= len(intervals):
                self._enqueue(app_id, delivery_id, attempts + 1, delay=intervals[attempts - 1])
            log.info("webhook delivery %s", failed)
            return "failed"
        finally:
            self.redis.zrem(in_flight_key(app_id), delivery_id)
            self.pump(app_id)

    # -- delivering (the worker) ------------------------------------------------------

    def attempt(self, delivery_id: str) -> str:
        """One attempt at a delivery, within ``WEBHOOK_TIMEOUT_SECONDS`` in all; ``DeliveryFailed``
        on failure (the delivery records it)."""
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
            status = _post(checked, delivery["body"].encode(), hook["secret"], delivery_id, self.attempt_seconds())
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
        final = attempts > len(self._retry_intervals())
        self.redis.hset(key, mapping={"status": "failed" if final else "pending", "last_error": error[:500],
                                      "last_status": "" if status is None else str(status)})


class DeliveryFailed(Exception):
    pass


def _post(url: CheckedUrl, body: bytes, secret: str, delivery_id: str, seconds: float) -> int:
    """POST to the addresses checked, without following redirects (a redirect could lead
    anywhere), all within ``seconds``; the response status. ``TimeoutError`` past them."""
    with Deadline(seconds) as deadline:
        connection = pinned_connection(url, seconds, deadline=deadline)
        try:
            connection.request("POST", url.target, body=body, headers={
                "Content-Type": "application/json", "User-Agent": "Rulehouse-Webhooks/1",
                "Rulehouse-Delivery": delivery_id,
                "Rulehouse-Signature": signature_header(secret, int(time.time()), body),
            })
            response = connection.getresponse()
            response.read(64 * 1024)
        except (OSError, http.client.HTTPException):
            if deadline.cut or deadline.expired():
                raise TimeoutError(f"no complete answer within {seconds:g} s") from None
            raise
        finally:
            connection.close()
        if deadline.cut:  # the body was cut short: the answer did not arrive in time
            raise TimeoutError(f"no complete answer within {seconds:g} s")
        return response.status


def _delivery_summary(delivery_id: str, data: dict) -> dict:
    return {
        "id": delivery_id, "type": data.get("type"), "status": data.get("status"),
        "attempts": int(data.get("attempts", 0)), "last_status": int(data["last_status"]) if data.get("last_status")
        else None, "last_error": data.get("last_error") or None, "created": iso_time(float(data["created"])),
        "delivered": iso_time(float(data["delivered"])) if data.get("delivered") else None,
    }




_worker_webhooks: Webhooks | None = None


def worker_webhooks() -> Webhooks:
    """The worker process's ``Webhooks`` (on the Redis of the worker's settings)."""
    global _worker_webhooks
    if _worker_webhooks is None:
        _worker_webhooks = Webhooks.from_settings(service_config.current())
    return _worker_webhooks


def deliver(delivery_id: str, app_id: str | None = None) -> str:
    """The RQ job: one attempt at one delivery of ``app_id``'s, in a slot of the app's."""
    return worker_webhooks().run(delivery_id, app_id)
