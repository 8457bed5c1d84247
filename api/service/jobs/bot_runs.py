"""A bot job plays a run of consecutive bot decisions: one RQ job, many moves, each its own version.

RQ's bookkeeping of a job (queueing, taking, the started and finished registries, the result,
the worker's heartbeats) was about 60 Redis commands, five times a move's own (bench/bot_cost.py).
So the job of ``api.service.jobs.bots.play_bot_turn`` keeps going while the next pending bot decision is
a quick bot's: it commits each move through ``api.play.moves.submit_action`` like any move (its own
version, its events, its wake-up, so a person at the table sees each one), with the state kept
in memory between moves rather than read again.

The commit of a move after which the job plays on says so in the game's hash (``bot_run``, in the
compare-and-set script's own HSET): at that version the job named by ``game:{<id>}:bot`` answers
for the pending bot move although its id names an earlier version. The read path then queues
nothing (``api.play.bot_queueing.ensure_job``), and the sweep (``api.service.jobs.bots.heal``) treats the job like any
other: alive while waiting or started less than ``BOT_JOB_LEASE`` ago. A run therefore stops
(committing its last move without ``bot_run``, so the usual job is queued for the next version)
when:

- the next bot decision is a search (its job goes on the ``search`` queue, so a quick bot never
  waits behind it) or nobody's but a person's;
- it has run ``run_seconds`` (0.4 of the lease, at most 2 s): a live run never looks dead;
- other bot jobs wait in its queue (looked at every ``FAIR_SECONDS``): a long all-bot game does
  not hold a worker while other tables wait;
- ``MAX_RUN`` moves were played.

A worker killed mid-run loses nothing that was committed; the sweep queues the move of the last
committed version again once the lease has passed, and the compare-and-set lets exactly one move
through whoever plays it. A search job plays its one move, as before.
"""

from __future__ import annotations

import logging
import time

from rq import get_current_job
from rq.timeouts import JobTimeoutException

from api.apps.accounting import Accounting
from api.ground import metrics
from api.ground.faults import pause_point
from api.play.errors import StaleVersion
from api.play.game_record import GameRecord
from api.play.moves import Outcome, states, submit_action
from api.play.rules_version import is_current
from api.play.store import GameStore
from engine.core.decisions import Decision
from engine.core.errors import IllegalAction
from engine.core.registry import get_ruleset
from engine.core.rng import Rng, derive_seed
from engine.core.ruleset import Ruleset

#: derive_seed(game seed, BOT_SEED_STREAM, seat, version) seeds a bot move, apart from the game's own RNG
BOT_SEED_STREAM = 0xB07
#: The most moves one job plays.
MAX_RUN = 1000
#: How often a run looks whether other bot jobs wait in its queue (seconds).
FAIR_SECONDS = 0.2

log = logging.getLogger("rulehouse.bots")


def run_seconds(lease: float) -> float:
    """How long one job may play on: well inside its ``lease`` (``JobQueues.bot_job_lease``), so that the
    sweep never takes it for dead."""
    return min(2.0, 0.4 * lease)


def first_bot_decision(record: GameRecord, decisions: list[Decision]) -> Decision | None:
    """The pending decision a bot job plays: the first of a bot seat (as ``GameStore.schedule_bots`` queues it)."""
    return next((d for d in decisions if record.seats[d.seat].get("bot")), None)


class _Run:
    """When to stop: the clock, the queue, the count and the kind of the next bot."""

    def __init__(self, store: GameStore, ruleset, started: float, lease: float) -> None:
        self.store = store
        self.ruleset = ruleset
        self.until = started + run_seconds(lease)
        self.moves = 0
        self.looked_at = time.monotonic()

    def plays_on(self, record: GameRecord, pending: list[Decision]) -> bool:
        decision = first_bot_decision(record, pending)
        if decision is None or self.moves + 1 >= MAX_RUN or time.time() >= self.until:
            return False
        if self.ruleset.bot(record.seats[decision.seat]["bot"]).searches:
            return False
        if time.monotonic() - self.looked_at >= FAIR_SECONDS:
            self.looked_at = time.monotonic()
            queue = self.store.queues.bot
            if queue is not None and queue.count > 0:
                return False
        return True


def _job_started_at() -> tuple[str | None, float]:
    """This RQ job's id and when RQ started it (now, outside a job)."""
    job = get_current_job()
    if job is None:
        return None, time.time()
    started = job.started_at.timestamp() if job.started_at is not None else time.time()
    return job.id, started


def play_run(store: GameStore, game_id: str, version: int, lease: float) -> str:
    """Play the pending bot moves from ``version`` on, while they are quick bots' and the run stays well
    within the job's ``lease`` (see the module); say what happened."""
    job_id, started = _job_started_at()
    record = store.load(game_id)
    if record is None:
        return "gone"
    # An RQ retry of a run that had played on finds the game waiting for this very job at a later version.
    if record.version != version and not (record.bot_run == record.version and job_id is not None
                                          and store.bot_job(game_id) == job_id):
        return "moved-on"
    ruleset = get_ruleset(record.ruleset)
    if not is_current(ruleset, record):
        return "rules-version"  # never played on under other rules (api/play/rules_version.py)
    # Outside an RQ job (a test, a tool) there is no lease to answer for more moves: one move, as a job's was.
    run = _Run(store, ruleset, started, lease) if job_id is not None else None
    said = []
    while True:
        if said:
            pause_point("bot-run")  # test-only: a fault test kills the worker between two moves of a run
        outcome, what = _play_one(store, ruleset, record, run)
        if outcome is None:
            return what if not said else f"{len(said)} moves; the last: {said[-1]}; then {what}"
        said.append(what)
        if run is not None:
            run.moves += 1
        if not outcome.plays_on:
            return what if len(said) == 1 else f"{len(said)} moves; the last: {what}"
        record = outcome.record


def _play_one(store: GameStore, ruleset, record: GameRecord, run: _Run | None) -> tuple[Outcome | None, str]:
    """One bot move at ``record``'s version: its outcome (None when nothing was played) and what happened."""
    state = states.take(ruleset, record)
    if ruleset.result(state) is not None:
        return None, "over"
    decision = first_bot_decision(record, ruleset.pending(state))
    if decision is None:
        states.put(record.id, record.version, state)
        return None, "no-bot-pending"
    bot_name = record.seats[decision.seat]["bot"]
    bot = ruleset.bot(bot_name)
    rng = Rng(derive_seed(record.seed, BOT_SEED_STREAM, decision.seat, record.version))
    searched = 0  # the engine actions a search played, charged to the game's app
    try:
        if bot.searches:
            analysis = bot.analyse(state, decision, rng)
            action, searched = analysis["action"], analysis["actions"]
        else:
            action = bot.choose(state, decision, rng)
    except JobTimeoutException:
        if not bot.searches:
            raise
        # The search ran past SEARCH_JOB_TIMEOUT (a slow machine, a huge position): the seat still
        # moves, and its game goes on. Searches only ever play on copies: ``state`` is untouched.
        log.warning("the search of %s at version %d ran out of time: seat %d plays a random option",
                    record.id, record.version, decision.seat)
        action = ruleset.bot("random").choose(state, decision, rng)
        searched = bot.cost_per_move  # cut off at its bound: it used all of it
    if bot.searches:
        store.beside(Accounting).count(record.app, "search_work_per_day", min(searched, bot.cost_per_move))
    action = legal_or_default(ruleset, state, decision, action, rng, bot_name, record.id)
    states.put(record.id, record.version, state)  # submit_action takes it from there
    try:
        # A search job plays its one move: the next one, a quick bot's or not, gets a job of its own.
        outcome = submit_action(store, record.id, decision.seat, action, record.version, record=record,
                                plays_on=None if bot.searches or run is None else run.plays_on)
    except StaleVersion:
        # Someone else moved first; whoever did queued the job for the new version.
        return None, "moved-on"
    metrics.bot_replied(record.updated)
    metrics.report_caches()  # the move may have filled the state cache: /metrics shows it at once
    return outcome, f"seat {decision.seat} played {action.get('type')}; version {outcome.version}"


def legal_or_default(ruleset: Ruleset, state, decision: Decision, action, rng: Rng, bot_name: str,
                     game_id: str) -> dict:
    """The bot's ``action`` if the rules allow it now; else the decision's timeout default (a bot bug:
    logged and counted), so that the game goes on with a legal move."""
    try:
        ruleset.check(state, decision.seat, ruleset.parse_action(action))
        return action
    except IllegalAction as refused:
        metrics.BOT_MOVES_REFUSED.labels(ruleset.id, bot_name, refused.reason).inc()
        fallback = ruleset.timeout_action(state, decision, rng)
        log.error("bot %r of game %s seat %d proposed %s, which the rules refuse (%s: %s); it plays the "
                  "decision's default %s instead", bot_name, game_id, decision.seat, action, refused.reason,
                  refused.message, fallback if not decision.secret else "(a secret draw)")
        return fallback
