"""Queueing a game version's bot move: which queue, under which job id, noted for the bot sweep.

The job itself (``api.service.jobs.bots.play_bot_turn``) is queued by its dotted name: this room
never imports the worker's code.
"""

from __future__ import annotations

import secrets
import time

from api.play.game_record import GameRecord
from api.play.store import GameStore
from engine.core.decisions import Decision
from engine.core.registry import get_ruleset

#: the job that plays one bot move (RQ stores the name; api/service/jobs/renamed.py keeps older names)
PLAY_BOT_TURN = "api.service.jobs.bots.play_bot_turn"
#: A bot job gets this long to be picked up before the sweep looks at its game.
BOT_CHECK_AFTER_SECONDS = 2.0


def bot_job_id(game_id: str, version: int) -> str:
    return f"bot-{game_id}-{version}"


def bot_job_version(job_id: str) -> int | None:
    """The game version a bot job id (``bot-<game>-<version>[-<retry>]``) plays, or None."""
    parts = job_id.split("-")
    return int(parts[2]) if len(parts) >= 3 and parts[0] == "bot" and parts[2].isdigit() else None


def bot_searches(ruleset_id: str, bot: str | None) -> bool:
    """Whether bot ``bot`` of ruleset ``ruleset_id`` searches (seconds of CPU a move): its jobs go on
    the search queue."""
    bot_class = get_ruleset(ruleset_id).bot_classes().get(bot) if bot else None
    return bot_class is not None and bot_class.searches


def schedule_bots(store: GameStore, game_id: str, version: int, seats: list[dict], decisions: list[Decision], *,
                  ruleset: str, retry: bool = False) -> str | None:
    """Queue the bot job for this version if a bot seat is among ``decisions``; its job id.

    The id is unique per game and version, so a second request for the same version
    (a retry, a duplicate) queues nothing; the job itself moves only if the game is
    still at ``version``. ``retry`` (api.service.jobs.bots.sweep, for a job that died) queues
    another job under a new id. The game is first noted in ``BOT_GAMES_KEY``, so the
    sweep finds it even if the job is lost before it runs (or is never queued). The job
    plays the first pending bot seat: on the search queue when its bot searches, so the
    quick bots of other games never wait behind a search.
    """
    if store.queues.bot is None:
        return None
    bot = next((seats[d.seat]["bot"] for d in decisions if seats[d.seat].get("bot")), None)
    if bot is None:
        return None
    job_id = bot_job_id(game_id, version) + (f"-{secrets.token_hex(3)}" if retry else "")
    store.note_bot_job(game_id, job_id, time.time() + BOT_CHECK_AFTER_SECONDS)
    searching = bot_searches(ruleset, bot)
    queue = store.queues.search if searching else store.queues.bot
    # A failed job blocks its id for failure_ttl, so a transient error gets immediate retries.
    store.queues.enqueue_once(queue, PLAY_BOT_TURN, game_id, version, job_id=job_id, result_ttl=60,
                              failure_ttl=24 * 3600, retries=3,
                              job_timeout=store.queues.search_timeout if searching else None)
    return job_id


def ensure_job(store: GameStore, record: GameRecord, decisions: list[Decision]) -> None:
    """The read path's check: queue the job of this version if none was (e.g. the API died before queueing)."""
    if store.queues.bot is None or not any(record.seats[d.seat].get("bot") for d in decisions):
        return
    if record.bot_run == record.version:
        return  # the job that committed this version plays on (api/service/jobs/bot_runs.py); the sweep looks after it
    current = store.bot_job(record.id)
    if current is None or bot_job_version(current) != record.version:
        schedule_bots(store, record.id, record.version, record.seats, decisions, ruleset=record.ruleset)
