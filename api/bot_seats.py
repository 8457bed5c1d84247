"""Bot seats: an RQ job on queue ``bots`` plays one bot move of one game version.

Run workers with ``rq worker bots --url $REDIS_URL`` (or ``rulehouse worker``). A job
``bot-<game>-<version>`` moves only if the game is still at that version, computes the
move from the bot's own view and decision, and submits it through the same
compare-and-set path as a human move; the accepted move queues the next job when a bot
seat is still pending, so a game of bots plays itself to the end.
"""

from __future__ import annotations

import os

import redis
from rq import get_current_job

from api.config import settings
from api.moves import load_state, submit_action
from api.observability import metrics
from api.problems import ApiProblem
from api.store import GameStore
from engine.core.registry import get_ruleset
from engine.core.rng import Rng, derive_seed

#: derive_seed(game seed, BOT_SEED_STREAM, seat, version) seeds a bot move, apart from the game's own RNG
BOT_SEED_STREAM = 0xB07

_store: GameStore | None = None


def job_store() -> GameStore:
    """The store for jobs: ``REDIS_URL`` from the environment, else the worker's own Redis."""
    global _store
    if _store is None:
        config = settings()
        job = get_current_job()
        if "REDIS_URL" not in os.environ and job is not None:
            pool = job.connection.connection_pool
            client = redis.Redis(connection_pool=redis.ConnectionPool(
                connection_class=pool.connection_class, **{**pool.connection_kwargs, "decode_responses": True}))
            # The job came from a bot queue, so its moves queue the next bot jobs even where BOT_QUEUE is unset.
            _store = GameStore.from_settings({**config, "BOT_QUEUE": config["BOT_QUEUE"] or "bots"}, client=client,
                                             queue_connection=job.connection)
        else:
            _store = GameStore.from_settings(config)
    return _store


def play_bot_turn(game_id: str, version: int, store: GameStore | None = None) -> str:
    """Play the pending bot seat's move if the game is still at ``version``; say what happened."""
    store = store or job_store()
    record = store.load(game_id)
    if record is None:
        return "gone"
    if record.version != version:
        return "moved-on"
    ruleset = get_ruleset(record.ruleset)
    state = load_state(ruleset, record)
    if ruleset.result(state) is not None:
        return "over"
    decision = next((d for d in ruleset.pending(state) if record.seats[d.seat].get("bot")), None)
    if decision is None:
        return "no-bot-pending"
    bot = ruleset.bot(record.seats[decision.seat]["bot"])
    view = ruleset.view(state, decision.seat) if bot.needs_view else None
    action = bot.act(view, decision, Rng(derive_seed(record.seed, BOT_SEED_STREAM, decision.seat, version)))
    try:
        outcome = submit_action(store, game_id, decision.seat, action, version, record=record)
    except ApiProblem as problem:
        if problem.kind == "version-mismatch":
            # Someone else moved first; whoever did queued the job for the new version.
            return "moved-on"
        raise
    metrics.bot_replied(record.updated)
    return f"seat {decision.seat} played {action.get('type')}; version {outcome.version}"
