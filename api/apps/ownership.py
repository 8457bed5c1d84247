"""What the blueprints call: admit a new game or simulation under the caller's quotas, record
that its app owns it, and check that only the owner (or an admin) manages it."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from flask import current_app, g

from api.apps import accounting, quotas
from api.apps.access import current_app_id, keys, owns
from api.http.problems import ApiProblem
from api.play.bot_queueing import bot_searches

__all__ = ["admit_hint", "admit_search_seats", "admit_simulation", "claim", "claim_computation", "claim_search",
           "current_app_id", "forgo_search", "game_retention", "holding", "refund_hint", "release",
           "require_creator", "require_creator_app", "require_owner", "retention", "simulation_ttl",
           "unclaim_computation"]

#: What an app may set with ``rulehouse apps update --retention NAME=SECONDS``, and its bounds.
RETENTION_BOUNDS = {"game_ttl": (60, 90 * 24 * 3600), "finished_game_ttl": (60, 90 * 24 * 3600),
                    "simulation_ttl": (60, 90 * 24 * 3600)}


@contextlib.contextmanager
def holding(kind: str, resource_id: str, weight: int = 1, rated: list[str] | tuple[str, ...] = ()) -> Iterator[None]:
    """Around the making of a game (``kind`` ``games``) or tournament (``tournaments``, ``weight`` its tables):
    what it holds of the caller's quotas is taken first, all at once (403 ``quota-exceeded`` past them), and
    given back if the making fails; ``rated``: the players of a rated one (its ``rated_players``)."""
    if g.get("app") is None:
        yield
        return
    with quotas.holding(g.app, *quotas.asks_for(g.app, kind, resource_id, weight, rated)):
        yield


def admit_simulation(spec: dict, sim_id: str) -> None:
    if g.get("app") is not None:
        quotas.admit_simulation(g.app, spec, sim_id)


def _paying_app(owner: str | None):
    """The app whose search quota a game's searches count against: the game's owner (None for a game
    made before apps, or of an app that is gone: not metered)."""
    return None if owner is None else keys().app(owner)


def admit_search_seats(ruleset, bots: list[str | None], owner: str | None) -> None:
    """Before searching bots take seats of a game of ``owner`` (creation, a start that fills open
    seats, a seat handed to a bot): 403 when the owner's search work of today is spent."""
    if any(bot_searches(ruleset.id, bot) for bot in bots) and (app := _paying_app(owner)) is not None:
        accounting.current().check_room(app, "search_work_per_day")


def admit_hint(owner: str | None, cost: int, *, game_id: str | None = None, seat: int | None = None) -> bool:
    """Count search work of a known ``cost`` that a seat asks for (computed in the request) against the
    game owner's day, and the seat's own bound of the day when ``game_id`` and ``seat`` are given;
    403 past either. True when something was counted (``refund_hint`` takes it back)."""
    app = _paying_app(owner)
    if app is None:
        return False
    accounting.current().admit(app, "search_work_per_day", cost, game_id=game_id, seat=seat)
    return True


def refund_hint(owner: str, cost: int) -> None:
    """Take back what ``admit_hint`` counted for work another request had asked already."""
    accounting.current().give_back(owner, "search_work_per_day", cost)


def claim_search(payer: str | None, bound: int, computation_id: str, *, game_id: str | None = None,
                 seat: int | None = None) -> bool | None:
    """Claim a computation of search work (an analysis, a hint: ``api.apps.accounting``, one job and one
    charge) and reserve its ``bound`` against ``payer``'s day (and the seat's own, when ``seat`` asks):
    None when another ask holds the computation (nothing reserved: wait for its answer), 403 past a
    quota (the claim given up), else whether something was reserved. The job settles the charge at the
    work it did; ``forgo_search`` gives claim and charge back when no job is queued after all."""
    if not accounting.current().claim(computation_id):
        return None
    app = _paying_app(payer)
    try:
        return app is not None and accounting.current().reserve(app, "search_work_per_day", bound, computation_id,
                                                      game_id=game_id, seat=seat)
    except ApiProblem:
        accounting.current().unclaim(computation_id)
        raise


def forgo_search(computation_id: str, *, computing: bool = False) -> None:
    """The claimed computation queues no job: its game moved on or is gone, or (a claim that outlived its
    time) it was asked meanwhile. Its charge is given back whole, unless a job is ``computing`` it, which
    settles it."""
    if not computing:
        accounting.current().settle(computation_id, 0)
    accounting.current().unclaim(computation_id)


def claim_computation(computation_id: str) -> bool:
    """Claim a computation without reserving (``api.apps.accounting``): one computed in the request, or one
    whose job was lost, to queue it again under the charge already reserved. False while another ask holds it."""
    return accounting.current().claim(computation_id)


def unclaim_computation(computation_id: str) -> None:
    accounting.current().unclaim(computation_id)


def claim(kind: str, resource_id: str) -> None:
    """The calling app now owns game (``kind`` ``games``), simulation (``sims``) or experiment (``exps``)
    ``resource_id``: listed among its own, and what it holds of the app's quotas no longer pending."""
    config = current_app.config
    keep = max(int(config["GAME_TTL_SECONDS"]), int(config.get("SIMULATION_TTL", 0) or 0), 7 * 24 * 3600)
    keys().own(current_app_id(), kind, resource_id, keep)
    quotas.confirm(current_app_id(), kind, resource_id)


def require_owner(owner: str | None, what: str, *, hide: bool = False) -> None:
    """403 (or 404 with ``hide``, so that ids of other apps' resources tell nothing) unless the
    calling app owns it or is an admin."""
    if owns(owner):
        return
    if hide:
        raise ApiProblem("not-found", f"no such {what} (or it belongs to another app)")
    raise ApiProblem("forbidden", f"this {what} belongs to another app", reason="not_owner")


def require_creator_app(owner: str | None) -> None:
    """A creator token manages its game (deletes it, starts it, hands a seat to a bot, forks it while it
    runs) only through the app that created the game, or an admin key: a creator token that reached
    another app is no key to the game's management (403 ``not_owner``). Seat tokens play from any app."""
    require_owner(owner, "game")


def require_creator(role: str | None, owner: str | None, what: str) -> None:
    """What only the creator token does to a game (``what``: delete it, turn its chat on or off): 403 for any
    other token, and for the creator token through another app than the game's (``not_owner``)."""
    if role != "creator":
        raise ApiProblem("forbidden", f"only the creator token may {what}")
    require_creator_app(owner)


def release(owner: str | None, kind: str, resource_id: str) -> None:
    """``resource_id`` is gone (a game deleted): off its app's listings, what it held given back at once."""
    if owner:
        keys().disown(owner, kind, resource_id)
        quotas.release(owner, kind, resource_id)


def retention(app=None) -> dict:
    """Seconds the app's games (unfinished, finished) and simulations are kept: its own settings
    within ``RETENTION_BOUNDS``, else the service's."""
    app = app or g.get("app")
    config = current_app.config
    defaults = {"game_ttl": config["GAME_TTL_SECONDS"], "finished_game_ttl": config["FINISHED_GAME_TTL_SECONDS"],
                "simulation_ttl": config.get("SIMULATION_TTL") or 7 * 24 * 3600}
    own = app.retention if app is not None else {}
    kept = {}
    for name, default in defaults.items():
        low, high = RETENTION_BOUNDS[name]
        kept[name] = min(max(int(own[name]), low), high) if name in own else int(default)
    return kept


def game_retention() -> dict | None:
    """The store's per-game TTLs for the calling app, or None when it keeps the service's."""
    app = g.get("app")
    if app is None or not ({"game_ttl", "finished_game_ttl"} & set(app.retention)):
        return None
    kept = retention(app)
    return {"ttl": kept["game_ttl"], "finished_ttl": kept["finished_game_ttl"]}


def simulation_ttl(default: int) -> int:
    app = g.get("app")
    return retention(app)["simulation_ttl"] if app is not None and "simulation_ttl" in app.retention else default
