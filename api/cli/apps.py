"""``rulehouse apps ...``: the administrator's commands for app keys (create, key, update, list, revoke)."""

from __future__ import annotations

import argparse
import json

import redis
from limits import parse

from api.apps.accounting import QUOTAS
from api.apps.app_store import DEFAULT_SCOPES, PUBLISHABLE, SECRET, AppKeys, UnknownApp
from api.apps.limits import CLASSES
from api.apps.ownership import RETENTION_BOUNDS
from api.cli.support import resolve_redis_url


def _pairs(items: list[str] | None, what: str, integer: bool) -> dict:
    """``["moves=100/minute", ...]`` as a dict; SystemExit with one clear line when malformed."""
    found = {}
    for item in items or []:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise SystemExit(f"--{what} takes NAME=VALUE, not {item!r}")
        if integer:
            if not value.isascii() or not value.isdigit() or len(value) > 15:
                raise SystemExit(f"--{what} {name} must be a whole number, not {value!r}")
            found[name] = int(value)
        else:
            found[name] = value
    return found


def _settings(args: argparse.Namespace) -> dict:
    settings = {
        "limits": _pairs(args.limit, "limit", integer=False),
        "quotas": _pairs(args.quota, "quota", integer=True),
        "retention": _pairs(args.retention, "retention", integer=True),
    }
    for what, known in (("limits", CLASSES), ("quotas", QUOTAS), ("retention", tuple(RETENTION_BOUNDS))):
        unknown = sorted(set(settings[what]) - set(known))
        if unknown:
            raise SystemExit(f"unknown {what} name {unknown[0]!r}; known: {', '.join(known)}")
    for cls, text in settings["limits"].items():
        try:
            parse(text)
        except ValueError:
            raise SystemExit(f"--limit {cls}: {text!r} is not a rate limit like 600/minute") from None
    for name, seconds in settings["retention"].items():
        low, high = RETENTION_BOUNDS[name]
        if not low <= seconds <= high:
            raise SystemExit(f"--retention {name} must be {low} to {high} seconds")
    return settings


def run(args: argparse.Namespace, redis_url: str) -> int:
    store = AppKeys(redis.Redis.from_url(redis_url, decode_responses=True))
    try:
        if args.apps_command == "create":
            scopes = tuple(s.strip() for s in args.scopes.split(",") if s.strip())
            app_id, key = store.create_app(args.name, scopes, **_settings(args))
            print(json.dumps({"app": app_id, "key": key}))
        elif args.apps_command == "key":
            kind = PUBLISHABLE if args.publishable else SECRET
            print(json.dumps({"app": args.app, "key": store.create_key(args.app, kind, tuple(args.origin or ()))}))
        elif args.apps_command == "update":
            store.update_app(args.app, **{name: values for name, values in _settings(args).items() if values})
        elif args.apps_command == "list":
            print(json.dumps(store.list_apps(), indent=2))
        elif args.apps_command == "revoke":
            print(json.dumps({"app": store.revoke(args.key_id), "revoked": args.key_id}))
    except UnknownApp as error:
        raise SystemExit(f"no app or key {error.args[0]!r}") from None
    except ValueError as error:
        raise SystemExit(str(error)) from None
    return 0


def add_parser(sub) -> argparse.ArgumentParser:
    apps = sub.add_parser("apps", help="manage app keys (stored hashed in the service's Redis)")
    apps.add_argument("--redis-url", help="default $REDIS_URL, else the local `rulehouse serve`'s embedded Redis")
    commands = apps.add_subparsers(dest="apps_command", required=True)
    create = commands.add_parser("create", help="a new app and its secret key (printed once)")
    create.add_argument("name")
    create.add_argument("--scopes", default=",".join(DEFAULT_SCOPES),
                        help="comma-separated: games, simulations, webhooks, admin")
    key = commands.add_parser("key", help="another key for an app: --publishable for browser pages")
    key.add_argument("app")
    key.add_argument("--publishable", action="store_true")
    key.add_argument("--origin", action="append", help="an origin a publishable key may be used from (repeat)")
    update = commands.add_parser("update", help="change an app's limits, quotas or retention")
    update.add_argument("app")
    for parser in (create, update):
        parser.add_argument("--limit", action="append", metavar="CLASS=N/PERIOD",
                            help="e.g. moves=600/minute (classes: moves, writes, reads, streams)")
        parser.add_argument("--quota", action="append", metavar="NAME=N",
                            help="live_games, simulation_work_per_day, queued_chunks, search_work_per_day, "
                                 "search_work_per_seat_per_day or rated_players")
        parser.add_argument("--retention", action="append", metavar="NAME=SECONDS",
                            help="game_ttl, finished_game_ttl or simulation_ttl")
    commands.add_parser("list", help="every app with its key ids (never the keys)")
    revoke = commands.add_parser("revoke", help="revoke a key by its id (see `apps list`)")
    revoke.add_argument("key_id")
    return apps


def cmd_apps(args: argparse.Namespace) -> int:
    return run(args, resolve_redis_url(args.redis_url))
