"""A simulation's keys (``sim:{<id>}`` and its parts, ``api.runs.keys``) behind the run store."""

from __future__ import annotations

from api.runs.store import RunNotFound, RunStore

KIND = "sim"
#: The RQ function of a chunk, queued by its dotted name (api/service/jobs/simulations.py).
RUN_CHUNK = "api.service.jobs.simulations.run_chunk"


class SimulationNotFound(RunNotFound):
    pass


class SimulationStore(RunStore):
    kind = KIND
    noun = "simulation"
    job = RUN_CHUNK
    not_found = SimulationNotFound
