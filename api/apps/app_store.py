"""Apps and their keys in Redis; no Flask here (the CLI uses it too).

Key layout:

- ``apps``                 set of app ids
- ``app:{<id>}``           hash: name, scopes (JSON list), created, limits / quotas /
                           retention (JSON objects overriding the service defaults)
- ``app:{<id>}:keys``      hash: key id -> JSON {kind, digest, origins, created}
- ``appkey:<sha256>``      hash: app, key_id, kind, origins (JSON): the lookup by key;
                           only the SHA-256 of a key is ever stored
- ``app:{<id>}:games`` / ``app:{<id>}:sims`` / ``app:{<id>}:exps``  sorted sets of the app's games,
                           simulations and experiments (score: creation time), for listings; entries
                           of expired ones are dropped as they are read
- what the app holds against its count-limited quotas: ``api.apps.holds``

A secret key looks like ``rh_sk_<key id>_<secret>``; a publishable (browser-safe) key
``rh_pk_<key id>_<secret>``. The key id is shown by ``rulehouse apps list`` and names the
key to revoke; the secret part is shown once, when the key is made.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from dataclasses import dataclass, field

import redis

from api.apps.holds import Holds

#: What a secret key may be scoped to. ``admin`` may read, cancel and delete any app's games
#: and simulations; the others name the resources an app creates and owns.
SCOPES = ("games", "simulations", "webhooks", "admin")
DEFAULT_SCOPES = ("games", "simulations", "webhooks")
SECRET = "secret"
PUBLISHABLE = "publishable"
_PREFIX = {SECRET: "rh_sk_", PUBLISHABLE: "rh_pk_"}
#: The app every request without a key belongs to while keys are not required (``make run``).
LOCAL_APP_ID = "local"


def key_digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def app_key(app_id: str) -> str:
    return f"app:{{{app_id}}}"


def app_keys_key(app_id: str) -> str:
    return f"app:{{{app_id}}}:keys"


def owned_key(app_id: str, kind: str) -> str:
    """The sorted set of an app's ``games`` or ``sims``."""
    return f"app:{{{app_id}}}:{kind}"


def lookup_key(digest: str) -> str:
    return f"appkey:{digest}"


@dataclass(frozen=True, slots=True)
class App:
    """Who is calling: an app, through one of its keys."""

    id: str
    name: str
    scopes: tuple[str, ...]
    key_kind: str = SECRET
    #: origins a publishable key may be used from (scheme://host[:port]); empty for secret keys
    origins: tuple[str, ...] = ()
    limits: dict = field(default_factory=dict)
    quotas: dict = field(default_factory=dict)
    retention: dict = field(default_factory=dict)

    @property
    def publishable(self) -> bool:
        return self.key_kind == PUBLISHABLE


def local_app() -> App:
    return App(LOCAL_APP_ID, "local development (no key)", DEFAULT_SCOPES)


class UnknownApp(LookupError):
    pass


class AppKeys:
    def __init__(self, client: redis.Redis) -> None:
        self.redis = client  # decode_responses=True

    def holds(self, app_id: str) -> Holds:
        """The app's hold sets (``api.apps.holds``), on the same Redis."""
        return Holds(self.redis, app_id)

    # -- administration (the CLI) ----------------------------------------------

    def create_app(self, name: str, scopes: tuple[str, ...] = DEFAULT_SCOPES, *, limits: dict | None = None,
                   quotas: dict | None = None, retention: dict | None = None) -> tuple[str, str]:
        """A new app with one secret key: (app id, key). The key is not stored, only its digest."""
        unknown = sorted(set(scopes) - set(SCOPES))
        if unknown:
            raise ValueError(f"unknown scope {unknown[0]!r}; scopes are {', '.join(SCOPES)}")
        app_id = "app_" + secrets.token_hex(6)
        pipe = self.redis.pipeline(transaction=True)
        pipe.sadd("apps", app_id)
        pipe.hset(app_key(app_id), mapping={
            "name": name, "scopes": json.dumps(list(scopes)), "created": repr(time.time()),
            "limits": json.dumps(limits or {}), "quotas": json.dumps(quotas or {}),
            "retention": json.dumps(retention or {}),
        })
        pipe.execute()
        return app_id, self.create_key(app_id, SECRET)

    def create_key(self, app_id: str, kind: str, origins: tuple[str, ...] = ()) -> str:
        if not self.redis.exists(app_key(app_id)):
            raise UnknownApp(app_id)
        if kind == PUBLISHABLE and not origins:
            raise ValueError("a publishable key needs at least one allowed origin")
        key_id = secrets.token_hex(4)
        key = f"{_PREFIX[kind]}{key_id}_{secrets.token_urlsafe(24)}"
        digest = key_digest(key)
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(lookup_key(digest), mapping={
            "app": app_id, "key_id": key_id, "kind": kind, "origins": json.dumps(list(origins)),
        })
        pipe.hset(app_keys_key(app_id), key_id, json.dumps({
            "kind": kind, "digest": digest, "origins": list(origins), "created": time.time(),
        }))
        pipe.execute()
        return key

    def update_app(self, app_id: str, **settings: dict) -> None:
        """Merge ``limits``, ``quotas`` or ``retention`` into the app's overrides."""
        if not self.redis.exists(app_key(app_id)):
            raise UnknownApp(app_id)
        for name, values in settings.items():
            current = json.loads(self.redis.hget(app_key(app_id), name) or "{}")
            current.update(values)
            self.redis.hset(app_key(app_id), name, json.dumps(current))

    def revoke(self, key_id: str) -> str:
        """Revoke a key by its id; returns its app id. ``UnknownApp`` if no app has it."""
        for app_id in self.redis.smembers("apps"):
            raw = self.redis.hget(app_keys_key(app_id), key_id)
            if raw:
                pipe = self.redis.pipeline(transaction=True)
                pipe.delete(lookup_key(json.loads(raw)["digest"]))
                pipe.hdel(app_keys_key(app_id), key_id)
                pipe.execute()
                return app_id
        raise UnknownApp(key_id)

    def list_apps(self) -> list[dict]:
        apps = []
        for app_id in sorted(self.redis.smembers("apps")):
            data = self.redis.hgetall(app_key(app_id))
            keys = {key_id: json.loads(raw) for key_id, raw in self.redis.hgetall(app_keys_key(app_id)).items()}
            apps.append({
                "id": app_id, "name": data.get("name", ""), "scopes": json.loads(data.get("scopes", "[]")),
                "limits": json.loads(data.get("limits", "{}")), "quotas": json.loads(data.get("quotas", "{}")),
                "retention": json.loads(data.get("retention", "{}")),
                "keys": [{"id": key_id, "kind": info["kind"], "origins": info["origins"]}
                         for key_id, info in sorted(keys.items())],
            })
        return apps

    # -- requests ----------------------------------------------------------------

    def authenticate(self, key: str) -> App | None:
        """The app a key belongs to, or None for an unknown or revoked key."""
        found = self.redis.hgetall(lookup_key(key_digest(key)))
        if not found:
            return None
        data = self.redis.hgetall(app_key(found["app"]))
        if not data:
            return None
        return App(
            id=found["app"], name=data.get("name", ""), scopes=tuple(json.loads(data.get("scopes", "[]"))),
            key_kind=found["kind"], origins=tuple(json.loads(found.get("origins", "[]"))),
            limits=json.loads(data.get("limits", "{}")), quotas=json.loads(data.get("quotas", "{}")),
            retention=json.loads(data.get("retention", "{}")),
        )

    def app(self, app_id: str) -> App | None:
        """The app ``app_id`` as its secret keys see it (its quotas, e.g. for a game it owns), or None."""
        if app_id == LOCAL_APP_ID:
            return local_app()
        data = self.redis.hgetall(app_key(app_id))
        if not data:
            return None
        return App(id=app_id, name=data.get("name", ""), scopes=tuple(json.loads(data.get("scopes", "[]"))),
                   limits=json.loads(data.get("limits", "{}")), quotas=json.loads(data.get("quotas", "{}")),
                   retention=json.loads(data.get("retention", "{}")))

    def own(self, app_id: str, kind: str, resource_id: str, ttl: int) -> None:
        """List ``resource_id`` among the app's ``games``, ``sims`` or ``exps``."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.zadd(owned_key(app_id, kind), {resource_id: time.time()})
        pipe.expire(owned_key(app_id, kind), ttl)
        pipe.execute()

    def owned(self, app_id: str, kind: str, limit: int = 1000, before: float | None = None) -> list[tuple[str, float]]:
        """The app's newest ``games``, ``sims`` or ``exps`` (id, created), newest first."""
        high = "+inf" if before is None else f"({before}"
        return self.redis.zrevrangebyscore(owned_key(app_id, kind), high, "-inf", start=0, num=limit,
                                           withscores=True)

    def disown(self, app_id: str, kind: str, *resource_ids: str) -> None:
        if resource_ids:
            self.redis.zrem(owned_key(app_id, kind), *resource_ids)
