"""The analysis job RQ runs, under the dotted name ``api.analysis.computing`` queues it by
(``COMPUTE_ANALYSIS``)."""

from __future__ import annotations

from api.analysis import computing
from api.play.store import GameStore
from api.service.jobs.bots import job_store


def compute_analysis(game_id: str, job_id: str, app_id: str | None = None, reserved: int = 0,
                     store: GameStore | None = None) -> str:
    """Analyse the finished game and store the answer (``api.analysis.computing.compute_analysis``)."""
    return computing.compute_analysis(store or job_store(), game_id, job_id, app_id, reserved)
