"""What happens to a simulation, experiment or tournament, told to its app's webhooks (API and workers
alike). A game's own webhooks (``decision.waiting``, ``game.finished``) are sent by api/play/after.py."""

from __future__ import annotations

import logging

from flask import current_app, has_app_context

from api.apps.webhooks import EXTENSION_NAME, Webhooks, worker_webhooks

log = logging.getLogger("rulehouse.webhooks")


def hooks() -> Webhooks:
    if has_app_context():
        return current_app.extensions[EXTENSION_NAME]
    return worker_webhooks()


def simulation_finished(app_id: str | None, sim_id: str, status: str) -> None:
    if not app_id:
        return
    try:
        hooks().emit(app_id, "simulation.finished", {"simulation": sim_id, "status": status})
    except Exception:
        log.exception("webhook for simulation %s failed", sim_id)


def experiment_finished(app_id: str | None, exp_id: str, status: str) -> None:
    if not app_id:
        return
    try:
        hooks().emit(app_id, "experiment.finished", {"experiment": exp_id, "status": status})
    except Exception:
        log.exception("webhook for experiment %s failed", exp_id)
