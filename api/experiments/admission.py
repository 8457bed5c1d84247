"""An experiment's admission under its app's quotas: its whole budget, at once.

An experiment counts like the simulations of its variants: every variant's budget of games at its
lineup's bot cost against ``simulation_work_per_day``, and its chunks times its variants against
``queued_chunks`` (a chunk plays every variant, so it weighs as many simulation chunks). Counting the
budget when the experiment is admitted is what keeps a precision experiment within the quota however
its rounds go. ``admit`` is the one place that asks the quotas.
"""

from __future__ import annotations

from flask import g

from api.apps import limits
from api.apps.limits import experiments_in_flight
from api.experiments.spec import MAX_EXPERIMENTS_IN_FLIGHT
from api.http.problems import ApiProblem


def budget_as_simulation(spec: dict) -> dict:
    """The one simulation that weighs what the experiment may play: every variant's seats in one
    lineup (the cost is games x the bots' cost per move, summed), its chunks once per variant."""
    variants = spec["variants"]
    return {"ruleset": spec["ruleset"], "bots": [bot for v in variants for bot in v["bots"]],
            "games": spec["budget"], "chunks": spec["budget_chunks"] * len(variants)}


def admit(spec: dict) -> None:
    """Before an experiment is queued (403 ``quota_*`` problems past a quota)."""
    app = g.get("app")
    if app is None:
        return
    running, _ = experiments_in_flight(app.id)
    if running >= MAX_EXPERIMENTS_IN_FLIGHT:
        raise ApiProblem("quota-exceeded", f"this app has {running} experiments queued or running, the most at once",
                         reason="quota_experiments_in_flight", quota="experiments_in_flight",
                         allowed=MAX_EXPERIMENTS_IN_FLIGHT, used=running)
    # Its chunks against what the app's simulations and other experiments may still play
    # (``limits.queued_chunks``, the count a simulation's admission uses too), its work against the day's.
    limits.admit_simulation(app, budget_as_simulation(spec))
