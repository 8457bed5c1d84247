"""The RQ function of an experiment's chunk (queue ``simulations``), queued by its dotted name
(``api.experiments.store.RUN_CHUNK``); the experiment's life is ``api/experiments/lifecycle.py``."""

from __future__ import annotations

from rq import get_current_job

from api.experiments import lifecycle


def run_chunk(exp_id: str, index: int) -> int:
    """Play one chunk of every variant it names and record it once; the games recorded."""
    return lifecycle.run_chunk(get_current_job().connection, exp_id, index)
