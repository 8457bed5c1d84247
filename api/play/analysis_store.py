"""A finished game's analysis (api/analysis): the id of the job computing it, then its JSON, and beside a
ready one each seat's ``[decisions, cost]`` (api/play/game_keys.py); both expire with the game. Beside them
the running job's progress, which expires after the job's timeout. All of the current analysis format."""

from __future__ import annotations

import json

import redis
from redis.cluster import RedisCluster

from api.play.game_keys import analysis_costs_key, analysis_key, analysis_progress_key, game_key
from api.play.scripts import ASK_ANALYSIS_SCRIPT, SAVE_ANALYSIS_SCRIPT


class AnalysisStore:
    def __init__(self, client: redis.Redis | RedisCluster) -> None:
        self.redis = client
        self._ask = client.register_script(ASK_ANALYSIS_SCRIPT)
        self._save = client.register_script(SAVE_ANALYSIS_SCRIPT)

    def ask(self, game_id: str, job_id: str) -> tuple[str, str | None]:
        """Mark a finished game's analysis asked by job ``job_id`` (``ASK_ANALYSIS_SCRIPT``): (outcome, value)."""
        reply = self._ask(keys=[game_key(game_id), analysis_key(game_id)], args=[job_id])
        return reply[0], (reply[1] if len(reply) > 1 else None)

    def get(self, game_id: str) -> str | None:
        """The analysis' stored value: its JSON once computed, the computing job's id before, None if never asked."""
        return self.redis.get(analysis_key(game_id))

    def save(self, game_id: str, value: str, *, replacing: str, seat_costs: str = "") -> bool:
        """Store the computed analysis (or the id of a job queued again) if the stored value is still the
        job id ``replacing``: a job that was replaced meanwhile stores nothing. ``seat_costs``, a ready
        analysis' seats' ``[decisions, cost]`` as JSON, is stored with it (``analysis_costs_key``)."""
        return bool(self._save(keys=[analysis_key(game_id), analysis_costs_key(game_id)],
                               args=[value, replacing, seat_costs]))

    def costs(self, game_ids: list[str]) -> list[str | None]:
        """Each game's seats' ``[decisions, cost]`` (JSON) of its ready analysis, None where there is none."""
        if not game_ids:
            return []
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.get(analysis_costs_key(game_id))
        return pipe.execute()

    def save_progress(self, game_id: str, job_id: str, done: int, entries: int, *, seconds: int) -> None:
        """Tell how far job ``job_id`` is: ``done`` of the log's ``entries``, kept ``seconds``."""
        self.redis.set(analysis_progress_key(game_id), json.dumps(
            {"job": job_id, "entries_done": done, "entries": entries}), ex=max(1, seconds))

    def progress(self, game_id: str, job_id: str) -> dict | None:
        """How far job ``job_id`` (the one the analysis is asked of) is: ``{"entries_done", "entries"}``, None
        before it wrote any (queued, or written by a job since replaced)."""
        stored = self.redis.get(analysis_progress_key(game_id))
        progress = json.loads(stored) if stored else {}
        if not job_id or progress.pop("job", None) != job_id:
            return None
        return progress
