"""What the blueprints call: admit a new game or simulation under the caller's quotas, record
that its app owns it, and check that only the owner (or an admin) manages it."""

from __future__ import annotations

from flask import current_app, g

from api.apps import limits
from api.apps.access import current_app_id, keys, owns
from api.problems import ApiProblem

__all__ = ["admit_game", "admit_simulation", "claim", "current_app_id", "release", "require_owner"]


def admit_game() -> None:
    if g.get("app") is not None:
        limits.check_live_games(g.app)


def admit_simulation(spec: dict) -> None:
    if g.get("app") is not None:
        limits.admit_simulation(g.app, spec)


def claim(kind: str, resource_id: str) -> None:
    """The calling app now owns game (``kind`` ``games``) or simulation (``sims``) ``resource_id``."""
    config = current_app.config
    keep = max(int(config["GAME_TTL_SECONDS"]), int(config.get("SIMULATION_TTL", 0) or 0), 7 * 24 * 3600)
    keys().own(current_app_id(), kind, resource_id, keep)


def require_owner(owner: str | None, what: str, *, hide: bool = False) -> None:
    """403 (or 404 with ``hide``, so that ids of other apps' resources tell nothing) unless the
    calling app owns it or is an admin."""
    if owns(owner):
        return
    if hide:
        raise ApiProblem("not-found", f"no such {what} (or it belongs to another app)")
    raise ApiProblem("forbidden", f"this {what} belongs to another app", reason="not_owner")


def release(owner: str | None, kind: str, resource_id: str) -> None:
    if owner:
        keys().disown(owner, kind, resource_id)
        keys().disown(owner, f"live-{kind}", resource_id)
