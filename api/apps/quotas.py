"""The count-limited quotas of an app (docs/apps.md, "Quotas"): what each counts, admitted atomically
through ``api.apps.holds`` and reconciled with what really exists.

- ``live_games`` (hold set ``live-games``): each game the app creates (weighing 1), each running
  tournament, ``tournament:<id>`` (weighing its tables);
- ``queued_chunks`` (``queued-chunks``): ``sim:<id>``, ``exp:<id>`` (weighing the chunks not yet played;
  an experiment's once per variant);
- ``experiments_in_flight`` (``live-exps``): each queued or running experiment (1);
- ``rated_players`` (``rated-players``, kept for good): each player of the app's rated games and rated
  tournaments, by its player id, while it has a game or a rating (``api.competition.rated_players``): a
  rated game's or tournament's players are taken with its other holds, in the same script, a player held
  already adding nothing.

A holder is taken before its thing is made and given back when it ends: a deleted game at once; a
game that finished or expired, a tournament, simulation or experiment that ended, and chunks played,
when the set is next reconciled (``reconcile``: when a take would be refused, and when ``held`` is read
for ``GET /v1/apps/me``). A take that would pass its bound reconciles and tries once more, so what is
refused is refused by what really exists, and what is admitted never passes the bound, however many
requests come at once. Over a quota: 403 ``quota-exceeded``, nothing made, nothing counted.

The daily work of a simulation or experiment (``api.apps.accounting``) is admitted after its holds;
when the work is refused, the holds are given back.

What exists is the rooms' to say, and they sit above the apps: the app factory hands their answers down
as a ``Census`` (``api/app.py``): by hold set and holder prefix, the ``Life`` of each thing (ended, or
going on with what it weighs now), the rated players' own release, and the bounds that are the
service's, not an app's. So the apps room imports none of the rooms that hold its quotas.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Protocol

from flask import current_app

from api.apps import accounting
from api.apps.access import keys
from api.apps.accounting import over_quota, quota_of
from api.apps.app_store import App
from api.apps.holds import RATED_PLAYERS, Ask, Holds
from api.play.game_record import OVER
from api.play.store import GameStore
from api.runs.store import ACTIVE, RunStore
from engine.core.registry import get_ruleset
from engine.experiments.drama import DRAMA_WORK_FACTOR

LIVE_GAMES, QUEUED_CHUNKS, LIVE_EXPERIMENTS = "live-games", "queued-chunks", "live-exps"
#: The quota each hold set counts against (its name in 403 problems and ``GET /v1/apps/me``).
QUOTA_OF_SET = {LIVE_GAMES: "live_games", QUEUED_CHUNKS: "queued_chunks", LIVE_EXPERIMENTS: "experiments_in_flight",
                RATED_PLAYERS: "rated_players"}


@dataclass(frozen=True, slots=True)
class Life:
    """What a holder's thing is now, as its room says: ``ended`` (a game over, a run no longer active), and
    while it goes on what it ``weighs`` (a run's chunks not yet played; None: its weight stays)."""
    ended: bool
    weighs: int | None = None


#: A room's answer for some of its things, by id: each one's ``Life``, or None (gone, or not made yet).
Lives = Callable[[list[str]], list[Life | None]]


class RatedPlayers(Protocol):
    """The rated players' hold set, released by what the competition room keeps of them
    (``api.competition.rated_players``)."""

    def give_back(self, app_id: str, players: list[str]) -> None: ...

    def reconcile(self, app_id: str, pending_seconds: float) -> None: ...


@dataclass(frozen=True)
class Census:
    """What the rooms above tell the quotas (built by the app factory): ``lives`` by (hold set, holder prefix:
    ``tournament``, ``sim``, ``exp``, or "" for a plain id), the ``rated_players``' release, and the
    ``bounds`` of hold sets that are the service's rather than an app's quota."""
    lives: dict[tuple[str, str], Lives]
    rated_players: RatedPlayers
    bounds: dict[str, int]


CENSUS_EXTENSION = "rulehouse.quota_census"


def _census() -> Census:
    return current_app.extensions[CENSUS_EXTENSION]


def game_lives(store: GameStore) -> Lives:
    """Games: over once finished or aborted."""
    return lambda ids: [None if status is None else Life(status in OVER) for status in store.statuses(ids)]


def run_lives(store: RunStore, chunks_left: Callable[[dict, int], int] | None = None) -> Lives:
    """Runs of ``store``'s kind: ended once no longer active; while active, ``chunks_left`` (of its spec and its
    chunks done) is what it weighs."""
    def life(status: str | None, spec: str | None, done: str | None) -> Life | None:
        if status is None:
            return None
        if status not in ACTIVE:
            return Life(ended=True)
        return Life(ended=False, weighs=None if chunks_left is None else chunks_left(json.loads(spec), int(done or 0)))

    return lambda ids: [life(*state) for state in store.states(ids)]
#: What a thing of each kind holds: (hold set, holder) for its id. The first counts the thing's weight
#: (a tournament's tables, a simulation's or experiment's chunks), the others one each.
HELD_AS = {
    "games": lambda rid: [(LIVE_GAMES, rid)],
    "tournaments": lambda rid: [(LIVE_GAMES, f"tournament:{rid}")],
    "sims": lambda rid: [(QUEUED_CHUNKS, f"sim:{rid}")],
    "exps": lambda rid: [(QUEUED_CHUNKS, f"exp:{rid}"), (LIVE_EXPERIMENTS, rid)],
}
#: A holder whose thing has not appeared this long after it was taken was never made (its request died).
PENDING_SECONDS = 60.0


def holds(app_id: str) -> Holds:
    return keys().holds(app_id)


def asks_for(app: App, kind: str, resource_id: str, weight: int = 1, rated: list[str] | tuple[str, ...] = ()
             ) -> list[Ask]:
    """The holds a new thing of ``kind`` takes under ``app``'s quotas; ``weight``: what it counts in the first
    (a tournament's tables, a simulation's chunks); ``rated``: the players of a rated game or tournament."""
    asks = [Ask(hold_set, holder, _allowed(app, hold_set), 1 if n else weight)
            for n, (hold_set, holder) in enumerate(HELD_AS[kind](resource_id))]
    allowed = _allowed(app, RATED_PLAYERS)
    # Kept for good (ttl 0): the ratings they count are.
    return asks + [Ask(RATED_PLAYERS, player, allowed, ttl=0) for player in dict.fromkeys(rated)]


def _allowed(app: App, hold_set: str) -> int:
    bounds = _census().bounds  # the experiments in flight
    return bounds[hold_set] if hold_set in bounds else quota_of(app, QUOTA_OF_SET[hold_set])


def admit(app: App, *asks: Ask, work: tuple[str, int] | None = None) -> None:
    """Take ``asks`` for ``app`` (all or none), then count ``work`` (a quota of the day and its cost) if given;
    403 ``quota-exceeded`` past any of them, with nothing held or counted."""
    held = holds(app.id)
    refused = held.take(*asks)
    if refused is not None:
        for hold_set in {ask.hold_set for ask in asks}:
            reconcile(app.id, hold_set)
        refused = held.take(*asks)
    if refused is not None:
        ask = refused.ask
        raise over_quota(QUOTA_OF_SET.get(ask.hold_set, ask.hold_set), refused.held, refused.asked, ask.allowed)
    if work is not None:
        try:
            accounting.current().admit(app, *work)
        except Exception:
            _give_back(held, asks)
            raise


@contextmanager
def holding(app: App, *asks: Ask) -> Iterator[None]:
    """``admit`` the asks; the block makes their thing (confirmed when it returns, given back if it raises)."""
    admit(app, *asks)
    held = holds(app.id)
    try:
        yield
    except BaseException:
        _give_back(held, asks)
        raise
    for ask in asks:
        held.confirm(ask.hold_set, ask.holder)


def _give_back(held: Holds, asks: tuple[Ask, ...]) -> None:
    for ask in asks:
        if ask.hold_set != RATED_PLAYERS:
            held.release(ask.hold_set, ask.holder)
    # A player may have been held before this request (another game of it): only one left with nothing goes.
    _census().rated_players.give_back(held.app_id, [ask.holder for ask in asks if ask.hold_set == RATED_PLAYERS])


def confirm(app_id: str, kind: str, resource_id: str) -> None:
    """The thing ``resource_id`` of ``kind`` exists now (its holders are no longer pending)."""
    held = holds(app_id)
    for hold_set, holder in HELD_AS[kind](resource_id):
        held.confirm(hold_set, holder)


def release(app_id: str, kind: str, resource_id: str) -> None:
    """The thing ended (a game deleted): give back what it held, at once."""
    held = holds(app_id)
    for hold_set, holder in HELD_AS[kind](resource_id):
        held.release(hold_set, holder)


def used(app_id: str, quota: str) -> int:
    """What the app holds of ``quota`` now (reconciled first)."""
    hold_set = next(name for name, counted in QUOTA_OF_SET.items() if counted == quota)
    reconcile(app_id, hold_set)
    return holds(app_id).held(hold_set)


# -- reconciliation: what really exists ---------------------------------------------------------------


def reconcile(app_id: str, hold_set: str) -> None:
    """Give back what the set's holders no longer hold: things that ended or are gone, chunks played; of the
    rated players, those whose game never appeared (the others leave when their last game or list does)."""
    census = _census()
    if hold_set == RATED_PLAYERS:
        census.rated_players.reconcile(app_id, PENDING_SECONDS)
        return
    held = holds(app_id)
    entries = held.holders(hold_set)
    by_kind: dict[str, list[tuple[str, float | None]]] = {}
    for holder, pending in entries:
        by_kind.setdefault(holder.partition(":")[0] if ":" in holder else "", []).append((holder, pending))
    ended = []
    for kind, group in by_kind.items():
        lives = census.lives[(hold_set, kind)]([holder.rpartition(":")[2] for holder, _ in group])
        for (holder, pending), life in zip(group, lives, strict=True):
            if life is None:
                if _never_made_or_gone(pending):
                    ended.append(holder)
            elif life.ended:
                ended.append(holder)
            elif life.weighs is not None:
                held.reweigh(hold_set, holder, life.weighs)
    if ended:
        held.release(hold_set, *ended)


def _never_made_or_gone(pending_since: float | None) -> bool:
    """A holder whose thing is missing: gone once confirmed; never made once pending too long."""
    return pending_since is None or time.time() - pending_since > PENDING_SECONDS


# -- simulations ------------------------------------------------------------------------------------


def simulation_cost(spec: dict) -> int:
    """A simulation's work in bot cost: its games times the cost per move of each seat's bot; with
    ``drama``, ``DRAMA_WORK_FACTOR`` times that (the model calls of its win chances)."""
    classes = get_ruleset(spec["ruleset"]).bot_classes()
    work = spec["games"] * sum(classes[name].cost_per_move for name in spec["bots"])
    return work * DRAMA_WORK_FACTOR if spec.get("drama") else work


def admit_simulation(app: App, spec: dict, sim_id: str) -> None:
    """Before a simulation is queued: its chunks against ``queued_chunks`` (with every queued chunk of the
    app's simulations and experiments), then its work against the day's."""
    admit(app, *asks_for(app, "sims", sim_id, spec["chunks"]),
          work=("simulation_work_per_day", simulation_cost(spec)))
