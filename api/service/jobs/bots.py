"""Bot seats: an RQ job on queue ``bots`` plays the bot moves of one game from one version on.

A bot that searches (``Bot.searches``: the ``mcts`` levels) is played by the same job on queue
``search`` instead (``SEARCH_QUEUE``), so that quick bots never wait behind a search; a search
job may take ``SEARCH_JOB_TIMEOUT`` seconds, past which the seat plays a random legal option, and
the move's search work is counted against the game's app (api/apps/limits.py).

Run workers with ``rq worker bots --url $REDIS_URL`` (or ``rulehouse worker``). A job
``bot-<game>-<version>`` moves only if the game is still at that version, computes the
move from the bot's own view and decision, and submits it through the same
compare-and-set path as a human move. A quick bot's job then plays on while the next pending
decision is a quick bot's too, each move its own commit and version (a run: api/service/jobs/bot_runs.py);
the last move it plays queues the next job when a bot seat is still pending, so a game of bots
plays itself to the end. A move the rules refuse (a
bot's bug) is never submitted: the seat plays the decision's timeout default instead, logged
and counted (``rulehouse_bot_moves_refused_total``), since a refused move would fail every
retry of the job and, bot seats having no deadline, stall the game.

A worker can die holding a job (SIGKILL, a lost machine, Redis restarting under it), after
taking it off the queue or even after its move but before queueing the next one. Every
game with bot seats is noted in ``bots:games`` with the time to look at it again, pushed
on by each job queued for it; ``sweep`` (run by every ``rulehouse worker`` every few
seconds) looks at the games that fell due: when a bot seat is pending and the job now
responsible for the game (``game:{<id>}:bot``, for its version or, where the game's ``bot_run``
says so, a run's later one) is neither waiting in the queue nor started less than ``BOT_JOB_LEASE``
seconds ago (a search job: its timeout plus that), it queues
another job for the version.
Whatever runs twice, the compare-and-set on the version lets exactly one move through.
"""

from __future__ import annotations

import logging
import os
import time

import redis
from rq import get_current_job

from api.apps.webhooks import worker_webhooks
from api.ground import config
from api.play.bot_queueing import BOT_CHECK_AFTER_SECONDS, bot_job_version, schedule_bots
from api.play.game_record import ACTIVE
from api.play.moves import load_state
from api.play.store import GameStore
from api.service.game_listeners import wire
from api.service.jobs.bot_runs import play_run
from engine.core.registry import get_ruleset

log = logging.getLogger("rulehouse.bots")

_store: GameStore | None = None


def job_store() -> GameStore:
    """The store for jobs: the Redis this process's settings name (a ``rulehouse worker``'s own), else
    the connection of the job's worker."""
    global _store
    if _store is None:
        values = config.current()
        job = get_current_job()
        if job is not None and not config.names_redis():
            pool = job.connection.connection_pool
            client = redis.Redis(connection_pool=redis.ConnectionPool(
                connection_class=pool.connection_class, **{**pool.connection_kwargs, "decode_responses": True}))
            # The job came from a bot queue, so its moves queue the next bot jobs even where BOT_QUEUE is unset.
            _store = GameStore.from_settings({**values, "BOT_QUEUE": values["BOT_QUEUE"] or "bots"}, client=client,
                                             queue_connection=job.connection)
        else:
            _store = GameStore.from_settings(values)
        wire(_store, worker_webhooks())
    return _store


def play_bot_turn(game_id: str, version: int, store: GameStore | None = None) -> str:
    """Play the pending bot seat's move if the game is still at ``version``, and the quick bots' moves
    that follow it (a run: api/service/jobs/bot_runs.py); say what happened."""
    store = store or job_store()
    return play_run(store, game_id, version, lease=store.queues.bot_job_lease)


def heal(store: GameStore, game_id: str, due: float, now: float) -> bool:
    """Look at one game of the index; queue a new bot job if the one responsible is dead. True if it did."""
    version, status, bot_run = store.fields_of([game_id], ["version", "status", "bot_run"])[0]
    current = store.bot_job(game_id)
    later = now + max(BOT_CHECK_AFTER_SECONDS, store.queues.bot_job_lease / 2)
    if version is None or status != ACTIVE:
        store.recheck_bot_game(game_id, due, "")
        return False
    # The job of this version, or a run that committed it and plays on (api/service/jobs/bot_runs.py).
    answers = current is not None and (bot_job_version(current) == int(version) or bot_run == version)
    if answers and store.job_alive(current):
        store.recheck_bot_game(game_id, due, later)
        return False
    record = store.load(game_id)
    if record is None or record.version != int(version):
        return False  # it moved meanwhile: the mover queued what it owes
    ruleset = get_ruleset(record.ruleset)
    decisions = ruleset.pending(load_state(ruleset, record))
    if not any(record.seats[d.seat].get("bot") for d in decisions):
        # Waiting for humans: a human move that leaves a bot pending notes the game again.
        store.recheck_bot_game(game_id, due, "")
        return False
    schedule_bots(store, game_id, record.version, record.seats, decisions, ruleset=record.ruleset, retry=True)
    return True


def sweep(store: GameStore, now: float | None = None, limit: int = 500) -> int:
    """Queue again the bot moves whose jobs died (one sweeper at a time); how many."""
    if store.queues.bot is None or not store.take_bot_sweep(os.getpid()):
        return 0
    now = time.time() if now is None else now
    requeued = 0
    for game_id, due in store.bot_games_due(now, limit):
        try:
            requeued += heal(store, game_id, due, now)
        except redis.RedisError:
            raise
        except Exception:  # one broken game must not stop the others
            log.exception("bot sweep of game %s failed", game_id)
    return requeued


def sweep_logged(store: GameStore) -> None:
    """``sweep`` for the worker loop: never raises."""
    try:
        requeued = sweep(store)
    except Exception as error:
        log.warning("bot sweep failed: %s", error)
        return
    if requeued:
        log.warning("re-queued %d bot move(s) whose jobs died with their workers", requeued)
