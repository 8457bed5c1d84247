"""The RQ function of a simulation's chunk (queue ``simulations``), queued by its dotted name
(``api.simulations.store.RUN_CHUNK``); the simulation's life is ``api/simulations/lifecycle.py``."""

from __future__ import annotations

from rq import get_current_job

from api.simulations import lifecycle


def run_chunk(sim_id: str, index: int) -> int:
    """Play one chunk and record its tally once; the games recorded."""
    return lifecycle.run_chunk(get_current_job().connection, sim_id, index)
