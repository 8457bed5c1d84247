"""A tournament round's room in its app's search work of the day (docs/competition.md, "Quotas").

Searching bots take seats at every round's start, so every round is admitted as it starts, as a plain
game's searching seats are: the round reserves one move at its bound (``Bot.cost_per_move``) of each
searching bot seat of its tables against the app's ``search_work_per_day``, through the accounting's
atomic reservation (api/apps/accounting.py). A round that does not fit does not start: it waits, and the
sweep tries again until the day has room (the next UTC day, or a raised quota). The reservation is held
while the round runs and given back when it ends; the round's moves are charged as they are played, as
in any game.
"""

from __future__ import annotations

from api.apps.accounting import Accounting
from api.apps.app_store import AppKeys
from api.play.store import GameStore
from engine.core.registry import get_ruleset

QUOTA = "search_work_per_day"


def round_bound(ruleset_id: str, bots: list[str | None]) -> int:
    """One move at its bound of each searching bot among ``bots`` (a round's seats; None for a person)."""
    ruleset = get_ruleset(ruleset_id)
    seated = [ruleset.bot(bot) for bot in bots if bot is not None]
    return sum(bot.cost_per_move for bot in seated if bot.searches)


def charge_id(tournament_id: str, number: int) -> str:
    return f"round-{tournament_id}-{number}"


def reserve(store: GameStore, app_id: str, ruleset_id: str, bots: list[str | None], tournament_id: str,
            number: int) -> str | None:
    """Reserve the round's room, or raise the quota problem (``ApiProblem``, nothing reserved). The charge
    held (None: nothing to hold: no searching seat, or an app that is gone)."""
    bound = round_bound(ruleset_id, bots)
    app = store.beside(AppKeys).app(app_id)
    if bound == 0 or app is None:
        return None
    held = charge_id(tournament_id, number)
    store.beside(Accounting).reserve(app, QUOTA, bound, held, game_id=None, seat=None)
    return held


def release(store: GameStore, held: str | None) -> None:
    """Give back a round's reservation (its end, or the tournament's); nothing when given back already."""
    if held is not None:
        store.beside(Accounting).settle(held, 0)
