"""The hint job RQ runs, under the dotted name ``api.hints.computing`` queues it by (``COMPUTE_HINT``)."""

from __future__ import annotations

from api.hints import computing
from api.play.store import GameStore
from api.service.jobs.bots import job_store


def compute_hint(game_id: str, seat: int, version: int, store: GameStore | None = None) -> str:
    """Search ``seat``'s decision at ``version`` and store the hint (``api.hints.computing.compute_hint``)."""
    return computing.compute_hint(store or job_store(), game_id, seat, version)
