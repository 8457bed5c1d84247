"""Game analyses, computed by RQ jobs on their own queue (``ANALYSIS_QUEUE``, ``analysis``: the job is
``api.service.jobs.analysis.compute_analysis``); no Flask here.

A finished game's analysis is computed once, by one job under one charge (``api.apps.accounting``,
"a computation"): the ask that claims it reserves its work bound against the caller's app
(``analysis_charge_id``), marks it asked with the id of its job (``AnalysisStore.ask``) and queues
``compute_analysis``; the job builds the game's full record (``api.records.build.full_record``),
analyses it (``engine.analysis.game.analyse``, writing how far it is for the 202 answers: ``ProgressWriter``),
stores the answer under the analysis key of the current format (``game:{<id>}:analysis:v<format>``: an
analysis made by an older method is never read, the game is analysed anew), where every later ask finds
it, and settles the charge at the work done (whichever job does it). The analysis of a stored game is the
analysis of its record, on any machine. Job and charge ids name the format too, so a job queued under an
older format before a deploy gives its charge back and does nothing (``compute_analysis``).
"""

from __future__ import annotations

import json
import math
import secrets
import time

from api.apps.accounting import Accounting
from api.ground.faults import pause_point
from api.play.game_record import FINISHED
from api.play.store import GameStore
from api.records.build import full_record
from engine.analysis.game import ANALYSIS_FORMAT, analyse
from engine.records import RecordError

#: the job that computes an analysis, by the dotted name it is queued under (api/service/jobs/analysis.py)
COMPUTE_ANALYSIS = "api.service.jobs.analysis.compute_analysis"
#: A failed analysis job is kept this long (seconds); an ask after a lost or failed job queues another.
FAILURE_TTL = 3600
#: The quota an analysis counts against: the search work of hints and searching bots (one accounting).
QUOTA = "search_work_per_day"
#: A running analysis writes its progress at most once a second, or sooner once another twentieth of its
#: log is done: a few dozen writes for the longest game, whatever its pace.
PROGRESS_SECONDS = 1.0
PROGRESS_STEP = 0.05


def analysis_charge_id(game_id: str, analysis_format: int = ANALYSIS_FORMAT) -> str:
    """The analysis' charge (and claim) in ``api.apps.accounting``, whichever job computes it:
    ``analysis-v<format>-<game>`` (format 1's: ``analysis-<game>``); a game analysed by an older method is
    analysed, and charged, anew."""
    return "analysis-" + (f"v{analysis_format}-" if analysis_format > 1 else "") + game_id


def analysis_job_id(game_id: str, *, again: bool = False) -> str:
    """The analysis' charge id, with a random tail for a job queued again after one was lost."""
    return analysis_charge_id(game_id) + (f"-{secrets.token_hex(3)}" if again else "")


def _charge_of_job(game_id: str, job_id: str) -> str:
    """The charge a job of any format was queued under: its id up to the game's (``again`` adds a tail)."""
    return job_id[:job_id.index(game_id, len("analysis-")) + len(game_id)]


def queue_analysis(store: GameStore, game_id: str, job_id: str) -> None:
    """Queue the job ``job_id`` that analyses the game (nothing when it exists already)."""
    store.queues.enqueue_once(store.queues.analysis, COMPUTE_ANALYSIS, game_id, job_id, job_id=job_id,
                              job_timeout=store.queues.analysis_timeout, result_ttl=60, failure_ttl=FAILURE_TTL,
                              retries=1)


def compute_analysis(store: GameStore, game_id: str, job_id: str, app_id: str | None = None,
                     reserved: int = 0) -> str:
    """What the RQ job does: analyse the finished game, store the answer and settle the analysis' charge at
    the work done (``app_id`` and ``reserved``: a job queued before the charge was the analysis', which
    adjusts the app's day itself). Say what happened."""
    if _charge_of_job(game_id, job_id) != analysis_charge_id(game_id):
        # Queued under an older format before a deploy: its answer would be read by nobody. The ask that
        # reserved it is given its work back; the next ask is a first one of the current format.
        store.beside(Accounting).settle(_charge_of_job(game_id, job_id), 0)
        return "outdated: the analysis format changed"
    work = 0
    try:
        outcome, work = _compute(store, game_id, job_id)
    finally:  # an error charges what was reserved for nothing: give it back
        if store.beside(Accounting).settle(analysis_charge_id(game_id), work) is None and app_id and reserved:
            store.beside(Accounting).add_work(app_id, QUOTA, work - reserved)
    return outcome


def _compute(store: GameStore, game_id: str, job_id: str) -> tuple[str, int]:
    """What happened, and the engine actions the analysis played."""
    record = store.load(game_id)
    if record is None or record.status != FINISHED:
        return "gone", 0
    try:
        analysis = analyse(full_record(store, record), progress=ProgressWriter(store, game_id, job_id))
        body = {"game_id": game_id, "version": record.version, "status": "ready", **analysis}
        seat_costs = json.dumps([[seat["decisions"], seat["cost"]] for seat in analysis["split"]])
        work = analysis["work"]
    except RecordError as error:  # e.g. a ruleset without a value model: told to every later ask
        body = {"game_id": game_id, "version": record.version, "status": "failed", "reason": error.reason,
                "detail": error.message}
        seat_costs = ""
        work = 0
    if not store.analyses.save(game_id, json.dumps(body, separators=(",", ":")), replacing=job_id,
                                seat_costs=seat_costs):
        return "replaced", work  # another job answers for it (the first to settle is charged), or the game expired
    return f"{body['status']}: {work} engine actions", work


class ProgressWriter:
    """``analyse``'s ``progress(done, entries)``: tells the 202 answers how far job ``job_id`` is
    (``AnalysisStore.save_progress``), at a bounded rate (``PROGRESS_SECONDS``, ``PROGRESS_STEP``); it
    expires after the analysis job's timeout."""

    def __init__(self, store: GameStore, game_id: str, job_id: str) -> None:
        self.store, self.game_id, self.job_id = store, game_id, job_id
        self.written_at, self.written, self.held = -math.inf, -1, False

    def __call__(self, done: int, entries: int) -> None:
        now = time.monotonic()
        if now - self.written_at < PROGRESS_SECONDS and done - self.written < PROGRESS_STEP * entries:
            return
        self.written_at, self.written = now, done
        self.store.analyses.save_progress(self.game_id, self.job_id, done, entries,
                                          seconds=self.store.queues.analysis_timeout)
        if not self.held and 0 < done < entries:
            self.held = True
            pause_point("analysis-progress")  # test-only: a test reads the 202 of a job held half-way
