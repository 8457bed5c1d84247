"""An experiment's admission under its app's quotas: its whole budget, at once.

An experiment counts like the simulations of its variants: every variant's budget of games at its
lineup's bot cost against ``simulation_work_per_day``, and its chunks times its variants against
``queued_chunks`` (a chunk plays every variant, so it weighs as many simulation chunks); and it is one
of the app's ``MAX_EXPERIMENTS_IN_FLIGHT``. Counting the budget when the experiment is admitted is what
keeps a precision experiment within the quota however its rounds go. An experiment with ``drama`` counts
``DRAMA_WORK_FACTOR`` times that work (``quotas.simulation_cost``): the model calls of its win chances.
``admit`` is the one place that asks the quotas: its holds are taken together (``api.apps.quotas``), so
requests released at once never pass them.
"""

from __future__ import annotations

from flask import g

from api.apps import quotas


def budget_as_simulation(spec: dict) -> dict:
    """The one simulation that weighs what the experiment may play: every variant's seats in one
    lineup (the cost is games x the bots' cost per move, summed), its chunks once per variant."""
    variants = spec["variants"]
    return {"ruleset": spec["ruleset"], "bots": [bot for v in variants for bot in v["bots"]],
            "games": spec["budget"], "chunks": spec["budget_chunks"] * len(variants), "drama": spec.get("drama", False)}


def admit(spec: dict, exp_id: str) -> None:
    """Before an experiment is queued (403 ``quota_*`` problems past a quota, nothing counted)."""
    app = g.get("app")
    if app is None:
        return
    weighed = budget_as_simulation(spec)
    quotas.admit(app, *quotas.asks_for(app, "exps", exp_id, weighed["chunks"]),
                 work=("simulation_work_per_day", quotas.simulation_cost(weighed)))
