"""The accounting of work: the one place through which every kind of work an app has the service
do is admitted against its quotas and charged (simulations, searching bot seats, hints; whatever
comes next calls the same functions). No Flask here but ``quota_of`` (it reads the app's settings).

Work is counted per app and UTC day in the units of its quota, ``app:{<id>}:<counter>:<yyyymmdd>``
on the control Redis (``WORK_COUNTERS``), and the work a seat of a game asks for also under
the seat's own bound of the day (``search_work_per_seat_per_day``: one player cannot spend the
app's day). Four ways in:

- ``admit``: work whose cost is known before it runs (a simulation: its games times its bots'
  cost per move). Counted when it fits; else 403 and nothing counted (``give_back`` takes it
  back when the work is not done after all).
- ``reserve`` then ``settle``: work whose cost is known only once it ran (a hint's search). The
  request reserves the most it can cost (403 when that does not fit); the worker that did the
  work settles the charge at what it used, and the rest is given back. A charge is settled
  once (the second settle finds nothing); one never settled (its job lost for good) stays at
  its reservation, the most it could have cost.
- ``count``: work that is never refused (the move of a searching bot seat in a running game: a
  game is never stopped halfway).
- ``check_room``: before a commitment to future work (a searching bot takes a seat): 403 once
  the day's work is spent.

A computation many may ask for at once (a game's analysis, a seat's hint) is one job and one charge,
both named by the computation (``analysis-v<format>-<game>``, ``hint-<game>-<seat>-<version>``): ``claim`` (SET
NX, for ``CLAIM_SECONDS``) picks the one ask that reserves the charge and queues the job, every other
ask waits for the answer; whichever job computes it settles the charge (once), and a job found lost is
queued again only by the ask that claims it next, under the same charge.

Its keys are ``Accounting``'s, a small store on the control Redis built once per game store
(``GameStore.beside``): a worker's job reaches it as ``store.beside(Accounting)``, a request as
``current()``. A tournament's round (api/competition/round_room.py) starts in whichever process ended
the round before, a worker's too: ``quota_of`` reads this process's settings outside a Flask app.
"""

from __future__ import annotations

import time

import redis
from flask import current_app, has_app_context

from api.apps.app_store import App
from api.ground import config as service_config
from api.http.helpers import store
from api.http.problems import ApiProblem

QUOTAS = ("live_games", "simulation_work_per_day", "queued_chunks", "search_work_per_day",
          "search_work_per_seat_per_day", "rated_players")
#: the daily counters of work, by quota
WORK_COUNTERS = {"simulation_work_per_day": "simwork", "search_work_per_day": "searchwork"}
#: A seat's own bound of a day, and the day's quota of the app it is counted within.
SEAT_QUOTAS = {"search_work_per_seat_per_day": "search_work_per_day"}
#: Counters and charges are kept two days (yesterday's charges may still be settled today).
KEEP_SECONDS = 2 * 24 * 3600
#: A computation's claim lasts this long: time for its ask to reserve the charge and queue the job, before
#: which no other ask takes the job for lost.
CLAIM_SECONDS = 10.0


def quota_of(app: App, name: str) -> int:
    """``app``'s quota ``name``: a publishable key's are ``PUBLISHABLE_QUOTAS`` (the app's own overrides
    are its secret keys'), a secret key's the app's override, else ``QUOTAS``."""
    config = current_app.config if has_app_context() else service_config.current()
    if app.publishable:
        return int(config["PUBLISHABLE_QUOTAS"][name])
    if name in app.quotas:
        return int(app.quotas[name])
    return int(config["QUOTAS"][name])


def over_quota(name: str, used: int, asked: int, allowed: int) -> ApiProblem:
    return ApiProblem("quota-exceeded", f"this app's {name} quota is {allowed}; it uses {used} and asked for {asked}",
                      reason=f"quota_{name}", quota=name, allowed=allowed, used=used)


def _day() -> str:
    return time.strftime("%Y%m%d", time.gmtime())


def work_key(app_id: str, quota: str, day: str | None = None) -> str:
    """The day's (default today's, UTC) counter of ``app_id``'s work under ``quota`` (a key of ``WORK_COUNTERS``)."""
    return f"app:{{{app_id}}}:{WORK_COUNTERS[quota]}:{day or _day()}"


def seat_work_key(app_id: str, quota: str, game_id: str, seat: int, day: str | None = None) -> str:
    """The day's counter of one seat of one game under the app's ``quota``."""
    return f"{work_key(app_id, quota, day)}:seat:{game_id}:{seat}"


def charge_key(charge_id: str) -> str:
    return f"charge:{{{charge_id}}}"


def current() -> Accounting:
    """The request's process's accounting (its game store's)."""
    return store().beside(Accounting)


class Accounting:
    """The day's work counters, the charges and the computations' claims, on the control Redis."""

    def __init__(self, client: redis.Redis) -> None:
        self.redis = client

    def work_today(self, app_id: str, quota: str) -> int:
        return int(self.redis.get(work_key(app_id, quota)) or 0)

    def add_work(self, app_id: str, quota: str, cost: int) -> int:
        """Count ``cost`` more of today's work under ``quota``; the day's total."""
        return self._add(work_key(app_id, quota), cost)[0]

    def _add(self, *counters_and: str | int) -> list[int]:
        """``INCRBY`` each counter by the last argument (keeping them ``KEEP_SECONDS``); their new totals."""
        *counters, cost = counters_and
        pipe = self.redis.pipeline(transaction=True)
        for counter in counters:
            pipe.incrby(counter, cost)
            pipe.expire(counter, KEEP_SECONDS)
        return pipe.execute()[::2]

    def _take(self, app: App, quota: str, cost: int, game_id: str | None, seat: int | None,
              seat_quota: str) -> tuple[str, ...]:
        """Count ``cost`` under ``quota`` today (and under the seat's ``seat_quota`` when a seat is named) if
        it fits; else the quota problem, nothing counted. The counters counted."""
        day = _day()
        counters: tuple[str, ...] = (work_key(app.id, quota, day),)
        names = (quota,)
        if game_id is not None and seat is not None:
            counters += (seat_work_key(app.id, quota, game_id, seat, day),)
            names += (seat_quota,)
        totals = self._add(*counters, cost)
        for name, total in zip(names, totals, strict=True):
            allowed = quota_of(app, name)
            if total > allowed:
                self._add(*counters, -cost)
                raise over_quota(name, total - cost, cost, allowed)
        return counters

    def admit(self, app: App, quota: str, cost: int, *, game_id: str | None = None, seat: int | None = None,
              seat_quota: str = "search_work_per_seat_per_day") -> None:
        """Count ``cost`` of today's work under ``quota`` (and of the seat's own bound of the day, when a seat
        of a game asks) if it fits; else the quota problem, and nothing counted."""
        if cost > 0:
            self._take(app, quota, cost, game_id, seat, seat_quota)

    def give_back(self, app_id: str, quota: str, cost: int) -> None:
        """Take back ``cost`` that ``admit`` counted today for work that was not done after all."""
        self.add_work(app_id, quota, -cost)

    def reserve(self, app: App, quota: str, bound: int, charge_id: str, *, game_id: str | None = None,
                seat: int | None = None, seat_quota: str = "search_work_per_seat_per_day") -> bool:
        """Reserve ``bound`` of today's work under ``quota`` for the work ``charge_id`` (to be ``settle``d), and
        of the seat's own bound of the day (``seat_quota``, when a seat asks); the quota problem (nothing
        reserved) when either would be passed. False when nothing needed reserving (a bound of 0, or the
        charge reserved already: one charge per computation)."""
        if bound <= 0 or self.redis.exists(charge_key(charge_id)):
            return False
        counters = self._take(app, quota, bound, game_id, seat, seat_quota)
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(charge_key(charge_id), mapping={"counters": "\n".join(counters), "reserved": bound})
        pipe.expire(charge_key(charge_id), KEEP_SECONDS)
        pipe.execute()
        return True

    def settle(self, charge_id: str, used: int) -> int | None:
        """Charge the reserved work ``charge_id`` what it ``used`` (at most its reservation), giving the rest
        back; what was charged, or None when there was nothing to settle (settled already, or never
        reserved)."""
        key = charge_key(charge_id)
        charge = {_text(name): _text(value) for name, value in self.redis.hgetall(key).items()}
        if not charge or not self.redis.delete(key):  # only the first settle deletes it
            return None
        reserved = int(charge["reserved"])
        counters = [counter for counter in charge["counters"].split("\n") if counter]
        charged = max(0, min(int(used), reserved))
        if charged != reserved:
            self._add(*counters, charged - reserved)
        return charged

    def count(self, app_id: str | None, quota: str, cost: int) -> None:
        """Count work the service did for ``app_id`` that is never refused (nothing for a game without an
        app)."""
        if app_id is not None and cost > 0:
            self.add_work(app_id, quota, cost)

    def check_room(self, app: App, quota: str) -> None:
        """403 once ``app``'s work of today under ``quota`` is spent."""
        allowed = quota_of(app, quota)
        used = self.work_today(app.id, quota)
        if used >= allowed:
            raise over_quota(quota, used, 0, allowed)

    def claim(self, computation_id: str) -> bool:
        """Claim the computation for this ask (it reserves the charge and queues the job); False while
        another ask holds it."""
        return bool(self.redis.set(claim_key(computation_id), "1", nx=True, px=int(CLAIM_SECONDS * 1000)))

    def unclaim(self, computation_id: str) -> None:
        """Give the claim up (the ask was refused): the next ask may claim it."""
        self.redis.delete(claim_key(computation_id))

    def forget_game(self, app_id: str | None, game_id: str, seats: int) -> None:
        """A deleted game: its seats' counters of today and yesterday go (what they counted stays in the
        app's day)."""
        if app_id is None:
            return
        today = time.time()
        days = {time.strftime("%Y%m%d", time.gmtime(at)) for at in (today, today - 24 * 3600)}
        self.redis.delete(*(seat_work_key(app_id, quota, game_id, seat, day) for quota in SEAT_QUOTAS.values()
                            for seat in range(seats) for day in days))


def _text(value: str | bytes) -> str:
    return value.decode() if isinstance(value, bytes) else value


def claim_key(computation_id: str) -> str:
    return f"computation:{{{computation_id}}}"
