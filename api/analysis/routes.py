"""``GET /v1/games/{id}/analysis``: a finished game's analysis, computed once on the analysis workers.

The request never analyses: the first ask reserves the work bound against the caller's app, marks
the analysis asked and queues its job (``api.analysis.computing``) on the ``analysis`` queue, then waits
for it at most ``?wait=`` seconds (polling Redis), answering 200 with it or 202 with ``Retry-After`` and how
far the job is (``progress``: the log entries it analysed, written by the job as it goes).
"""

from __future__ import annotations

import json
import time

from flask import request
from flask.views import MethodView
from flask_smorest import Blueprint

from api.analysis.computing import analysis_charge_id, analysis_job_id, queue_analysis
from api.analysis.schemas import AnalysisQuerySchema, AnalysisSchema
from api.apps import ownership
from api.http.helpers import bearer_token, json_response, load_current, not_modified, store
from api.http.problems import ApiProblem, problem_response
from api.play.bot_queueing import BOT_CHECK_AFTER_SECONDS
from api.play.game_record import FINISHED, WAITING, GameRecord
from api.play.rules_version import ensure_current
from engine.analysis.game import work_bound
from engine.core.registry import get_ruleset
from engine.records import MAX_LOG_ENTRIES, MAX_SEAT

blp = Blueprint("analysis", __name__, url_prefix="/v1/games",
                description="Game analysis: a finished game's win chances, costly moves, key moments and the "
                            "luck-skill split.")

#: How often a waiting request looks whether the analysis is done, in seconds.
POLL_SECONDS = 0.05
#: Seat changes a log may hold beside its actions (joins, hand-overs): the reservation counts them too.
MAX_SEAT_CHANGES = 2 * (MAX_SEAT + 1)
PENDING_HEADERS = {
    "Retry-After": {"description": "Seconds after which to ask again.", "schema": {"type": "integer"}},
    "Location": {"description": "The URL to ask again (this one).", "schema": {"type": "string"}},
}


def reservation(record: GameRecord) -> int:
    """The work (engine actions) the first ask reserves: the ruleset's bound for a log of the game's length."""
    return work_bound(min(MAX_LOG_ENTRIES, record.version + MAX_SEAT_CHANGES), get_ruleset(record.ruleset))


@blp.route("/<game_id>/analysis")
class Analysis(MethodView):
    @blp.doc(security=[{"bearerAuth": []}, {}], operationId="get_analysis")
    @blp.arguments(AnalysisQuerySchema, location="query")
    @blp.response(200, AnalysisSchema, headers={"ETag": {"description": "`\"<version>\"`: the finished game's.",
                                                         "schema": {"type": "string"}}})
    @blp.alt_response(202, schema=AnalysisSchema, headers=PENDING_HEADERS, description=(
        "The analysis is queued or running (`status: pending`, with its `progress`): ask the same URL again "
        "after `Retry-After`."))
    @blp.alt_response(304, description="`If-None-Match` names the analysis you have: it is still the one.")
    @blp.alt_response(**problem_response(401, "The token is malformed or not one of this game's."))
    @blp.alt_response(**problem_response(403, "Over the calling app's search work quota (`quota-exceeded`): "
                                         "the first ask reserves the analysis' work bound."))
    @blp.alt_response(**problem_response(404, "No such game (or it expired)."))
    @blp.alt_response(**problem_response(409, "The game is not finished (`reason`: `not_finished`, or "
                                         "`not_started` while it waits for its seats): a live game has no "
                                         "analysis."))
    @blp.alt_response(**problem_response(410, "The game was created under an older rules version of its ruleset "
                                         "(`rules-version`)."))
    @blp.alt_response(**problem_response(422, "`wait` is out of bounds; or the game's record could not be "
                                         "analysed (`reason`, e.g. `no_value_model`)."))
    def get(self, query: dict, game_id: str):
        """A finished game's analysis

        Every seat's win chance at every version (the ruleset's value model on the whole state, every
        secret being public once the game is over), every decision's options priced by play-outs with
        the chosen move's cost, its uncertainty and whether it is `costly`, the key moments, and per
        seat the luck-skill split: `skill`, `luck`, `others` and `drift`, which add up exactly to the
        seat's `change` (docs/analysis.md, "Game analysis"; analysis `format` 2). Computed once per
        game on the analysis workers (their own queue: an analysis never delays a search bot), kept
        as long as the game (a game analysed by an older format is analysed anew); the first ask
        counts the work against the calling app's search work quota. While it runs, the 202 tells
        its `progress`. Anyone who may read the game may ask.
        """
        record = load_current(game_id, bearer_token())
        ensure_current(get_ruleset(record.ruleset), record)
        if record.status != FINISHED:
            waiting = record.status == WAITING
            raise ApiProblem("illegal-action", "the game has not started: it waits for its open seats" if waiting
                             else "the game is not finished: only a finished game is analysed (a live one keeps "
                                  "secrets)", reason="not_started" if waiting else "not_finished",
                             version=record.version)
        games = store()
        stored = games.analyses.get(record.id) or _ask_new(record)
        if not _ready(stored):
            stored = _wait(record, stored, query["wait"])
        if not _ready(stored):
            return json_response({"game_id": record.id, "version": record.version, "status": "pending",
                                  "progress": games.analyses.progress(record.id, stored)}, 202,
                                 headers={"Retry-After": "2", "Location": request.full_path.rstrip("?")})
        body = json.loads(stored)
        if body["status"] == "failed":
            raise ApiProblem("validation-error", f"this game's record could not be analysed: {body['detail']}",
                             reason=body["reason"])
        if (unchanged := not_modified(record.version, None)) is not None:
            return unchanged
        return json_response(body, version=record.version)


def _ask_new(record: GameRecord) -> str:
    """The one ask of the analysis that claims it reserves its work bound against the calling app and queues
    its job, which charges the work it did; the analysis' stored value ("" while another ask is queueing it)."""
    games, computation = store(), analysis_charge_id(record.id)
    if ownership.claim_search(ownership.current_app_id(), reservation(record), computation) is None:
        return ""
    job_id = analysis_job_id(record.id)
    outcome, value = games.analyses.ask(record.id, job_id)
    if outcome == "queued":
        queue_analysis(games, record.id, job_id)
        return job_id
    ownership.forgo_search(computation, computing=outcome == "asked" and not _ready(value))
    if outcome == "missing":
        raise ApiProblem("not-found", f"no game {record.id!r}")
    return value


def _ready(stored: str) -> bool:
    return stored.startswith("{")


def _wait(record: GameRecord, job_id: str, seconds: float) -> str:
    """The analysis' stored value once ready, or as it is after ``seconds``; a lost job is queued again, by the
    one ask that claims it (under the charge reserved for it)."""
    games = store()
    if job_id and not games.job_alive(job_id, grace=BOT_CHECK_AFTER_SECONDS) and \
            ownership.claim_computation(analysis_charge_id(record.id)):
        again = analysis_job_id(record.id, again=True)
        if games.analyses.save(record.id, again, replacing=job_id):
            queue_analysis(games, record.id, again)
    deadline = time.monotonic() + seconds
    stored = games.analyses.get(record.id) or job_id
    while not _ready(stored) and time.monotonic() < deadline:
        time.sleep(POLL_SECONDS)
        stored = games.analyses.get(record.id) or job_id
    return stored
