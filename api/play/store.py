"""Games in Redis: the one module that knows the key layout.

``game:{<id>}`` is a hash (ruleset, the ruleset's rules version, state JSON, version, status,
seats, seed, options, timestamps, the optional decision_timeout, the owning app, the app's own
``ttl`` and ``finished_ttl`` when it set a retention, listed, the decision marks of
api/play/preconditions.py, the hint counts of a game with hints on (``hints``, ``hints_at``,
``hints_pending``: see ``ASK_HINT_SCRIPT``), ``chat`` (``1`` on, ``0`` off; absent in games older than
chat: on), ``win_chances`` (``spectators`` when spectators may ask for a live game's win chances; absent:
seats only, api/win_chances), ``rated`` (``1`` in a rated game) and ``tournament`` (the id of the
tournament whose table it is; docs/competition.md), ``refreshed`` (when a move last refreshed the TTLs:
``COMMIT_SCRIPT``), ``bot_run`` (the last version a bot job committed saying it plays on: api/service/jobs/bot_runs.py),
one ``t:<sha256>`` field per token naming its seat and one ``i:<sha256>`` per invite of api/seats);
``game:{<id>}:events`` is a stream whose entries are either an accepted action (``k=a``: the action
log used for replays, never shown to clients) or an engine event (``k=e``, with its visibility).
Stream ids are the clients' event cursors. ``game:{<id>}:idem:<seat>:<sha256>`` keeps an
idempotent action's outcome for 24 h. ``game:{<id>}:hint:<seat>:<version>`` is a hint (api/hints):
the id of the job computing it, then its JSON; it expires with the game's version, and so does
``game:{<id>}:chances:<seat>:<version>``, a view's win chances (``spectator`` for the spectator view's);
``game:{<id>}:asked`` names those keys, which the game's deletion deletes with it.
``game:{<id>}:analysis:v<format>`` is a finished game's analysis (api/analysis) of the current analysis
format (``engine.analysis.game.ANALYSIS_FORMAT``; an older format's is never read, only deleted with the game):
the id of the job computing it, then its JSON; it expires with the game, and so does ``...:analysis:v<format>:costs``,
stored with a ready analysis: each seat's ``[decisions, cost]`` (what a player's ``move_cost`` reads,
api/competition, without reading the whole analysis); ``...:analysis:v<format>:progress`` is the running job's
progress (api/service/jobs/analysis.py). ``game:{<id>}:chat`` is the table chat (api/chat), a stream
of its own whose ids are the chat's cursors; it expires with the game
(every write of the game refreshes its TTL too, a move at most every ``TTL_REFRESH_SECONDS``), and
``game:{<id>}:chat:rate:<seat>`` holds the times of a seat's recent messages (``POST_CHAT_SCRIPT``). The ``{<id>}``
hash tag keeps a game's keys in one Redis Cluster slot, so the compare-and-set script may touch
them all.

Two connections: ``redis``, the games' Redis (``GAME_REDIS_URL``, else ``REDIS_URL``), which
may be a Redis Cluster and holds only the ``game:{<id>}`` keys above; and ``control``, the
plain Redis of ``REDIS_URL`` that also holds RQ's queues, for every key that is not one
game's: the ``deadlines`` sorted set, apps, rate limits, webhooks, simulations. Without
``GAME_REDIS_URL`` both are the same client. See docs/operations.md ("Games on a Redis Cluster").
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import secrets
import time
from dataclasses import dataclass

import redis
from redis.cluster import RedisCluster
from rq import Queue

from api.play.listeners import Listeners
from api.play.scripts import (
    ASK_ANALYSIS_SCRIPT,
    ASK_HINT_SCRIPT,
    COMMIT_SCRIPT,
    KEEP_ANSWER_SCRIPT,
    POST_CHAT_SCRIPT,
    SAVE_ANALYSIS_SCRIPT,
    SAVE_HINT_SCRIPT,
    SET_CHAT_SCRIPT,
    TTL_REFRESH_SECONDS,
)
from engine.analysis.game import ANALYSIS_FORMAT

#: a game with open seats that has not started: no state yet (api/seats)
WAITING = "waiting"
ACTIVE = "active"
FINISHED = "finished"
#: a game stopped before its end by the service (its tournament was cancelled): no result, unrated, kept
ABORTED = "aborted"
#: the statuses of a game that takes no more moves
OVER = (FINISHED, ABORTED)

_FIELDS = ("ruleset", "version", "status", "state", "seats", "players", "seed", "created", "updated",
           "decision_timeout", "app", "commitment", "marks", "options", "listed", "rules_version", "hints",
           "hints_at", "hints_pending", "chat", "rated", "tournament", "win_chances", "bot_run")
#: fields of the game hash that only the records room reads (api/records): how the game was made
RECORD_FIELDS = ("options", "salt", "seed_source", "fork", "start", "rules_version")
#: Games stored before rules versions existed carry none: they were played under each ruleset's version 1.
FIRST_RULES_VERSION = 1


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _fields(token: str | None) -> list[str]:
    """The hash fields a ``GameRecord`` is read from, plus the token's role when there is a token."""
    return [*_FIELDS, f"t:{token_digest(token)}"] if token is not None else list(_FIELDS)


def game_key(game_id: str) -> str:
    return f"game:{{{game_id}}}"


def events_key(game_id: str) -> str:
    return f"game:{{{game_id}}}:events"


def wake_channel(game_id: str) -> str:
    return f"game:{{{game_id}}}:wake"


#: every game's wake channel, for one pattern subscription (api/streams/hub.py)
WAKE_PATTERN = "game:{*}:wake"


def chat_key(game_id: str) -> str:
    return f"game:{{{game_id}}}:chat"


def chat_rate_key(game_id: str, seat: int) -> str:
    return f"game:{{{game_id}}}:chat:rate:{seat}"


def bot_job_id(game_id: str, version: int) -> str:
    return f"bot-{game_id}-{version}"


def bot_job_version(job_id: str) -> int | None:
    """The game version a bot job id (``bot-<game>-<version>[-<retry>]``) plays, or None."""
    parts = job_id.split("-")
    return int(parts[2]) if len(parts) >= 3 and parts[0] == "bot" and parts[2].isdigit() else None


def bot_current_key(game_id: str) -> str:
    """The id of the bot job now responsible for the game's pending bot move."""
    return f"game:{{{game_id}}}:bot"


#: Sorted set of games with bot seats; score: when api.service.jobs.bots.sweep should next look at the game.
BOT_GAMES_KEY = "bots:games"
#: A bot job gets this long to be picked up before the sweep looks at its game.
BOT_CHECK_AFTER_SECONDS = 2.0


def hint_key(game_id: str, seat: int, version: int) -> str:
    return f"game:{{{game_id}}}:hint:{seat}:{version}"


def win_chances_key(game_id: str, seat: int | None, version: int) -> str:
    """A seat's win chances at a version (api/win_chances), counted like a hint by ``ASK_HINT_SCRIPT``; the
    spectator view's (``seat`` None), kept by ``KEEP_ANSWER_SCRIPT``."""
    return f"game:{{{game_id}}}:chances:{'spectator' if seat is None else seat}:{version}"


def asked_key(game_id: str) -> str:
    """The names of the game's hint and win-chances keys (one per seat and version asked), for its deletion."""
    return f"game:{{{game_id}}}:asked"


def analysis_key(game_id: str, analysis_format: int = ANALYSIS_FORMAT) -> str:
    """A finished game's analysis (api/analysis): the computing job's id, then the analysis JSON. The key
    names the format: an analysis made by an older method is never read, the game is analysed anew."""
    return f"game:{{{game_id}}}:analysis" + (f":v{analysis_format}" if analysis_format > 1 else "")


def analysis_costs_key(game_id: str, analysis_format: int = ANALYSIS_FORMAT) -> str:
    """Each seat's ``[decisions, cost]`` of a game's ready analysis (JSON), beside the analysis (same format)."""
    return f"{analysis_key(game_id, analysis_format)}:costs"


def analysis_progress_key(game_id: str) -> str:
    """The running analysis job's progress (api/service/jobs/analysis.py), beside the analysis."""
    return f"{analysis_key(game_id)}:progress"


def analysis_keys(game_id: str) -> list[str]:
    """Every key of the game's analyses, of every format (format 1's had no version in the key)."""
    return [key for analysis_format in range(1, ANALYSIS_FORMAT + 1) for key in (
        analysis_key(game_id, analysis_format), analysis_costs_key(game_id, analysis_format))] + \
        [analysis_progress_key(game_id)]


def idempotency_key(game_id: str, seat: int, key: str) -> str:
    return f"game:{{{game_id}}}:idem:{seat}:{token_digest(key)}"


@dataclass(slots=True)
class GameRecord:
    id: str
    ruleset: str
    version: int
    status: str
    state: str  # the ruleset's to_dict() as JSON text
    seats: list[dict]  # [{"name": ... or None while open, "bot": name or None}] by seat number
    players: int
    seed: int
    created: float
    updated: float
    #: seconds each human decision may take before its default is played (api/play/deadlines.py); None: no limit
    decision_timeout: int | None = None
    #: the id of the app that created the game (api/apps); None for games older than apps
    app: str | None = None
    #: the seed commitment published at creation (api/records); None for games made before commitments
    seed_commitment: str | None = None
    #: seat (as text) -> [since, digest] of its pending decisions (api/play/preconditions.py); None for older games
    marks: dict | None = None
    options: dict | None = None
    #: shown in the lobby while waiting
    listed: bool = False
    #: the ruleset's rules version the game was created under (see api/play/rules_version.py)
    rules_version: int = FIRST_RULES_VERSION
    #: hints asked per seat as readers see them at this version (``ASK_HINT_SCRIPT``); None: hints are off
    hint_counts: list[int] | None = None
    #: whether the seats may post to the table chat (api/chat); a setting of the game, apart from its version
    chat: bool = True
    #: a rated game (docs/competition.md): its players' ratings change when it finishes
    rated: bool = False
    #: the tournament whose table the game is (api/competition), or None
    tournament: str | None = None
    #: who may ask for a live game's win chances (api/win_chances): "seats" (where hints are on) or "spectators" too
    win_chances: str = "seats"
    #: what the caller's token names: a seat number, "creator", "" for an unknown token, None for no token
    token_role: str | None = None
    #: the last version whose commit said its bot job plays on (api/service/jobs/bot_runs.py): at this version the job
    #: named by ``bot_current_key`` answers for the pending bot move, whatever version its id names
    bot_run: int | None = None


@dataclass(slots=True)
class NewGameRecord:
    """Everything ``GameStore.create`` writes: a game at version 0 and its first events.

    ``tokens`` maps token digests to "<seat>" or "creator", ``invites`` invite digests to "<seat>"
    or "game" (api/play/table.py); ``retention`` may set the game's own ``ttl`` and ``finished_ttl``
    (seconds) in place of the store's; ``provenance`` holds the records room's fields (``commitment``
    and ``RECORD_FIELDS``); ``hints`` lets its seats ask for hints (api/hints), ``chat`` post to the
    table chat (api/chat).
    """

    id: str
    ruleset: str
    rules_version: int
    state: str  # the ruleset's to_dict() as JSON text; "" while the game waits for its seats
    status: str
    seats: list[dict]
    seed: int
    options: dict
    tokens: dict[str, str]
    events: list[dict]
    marks: dict
    created: float
    decision_timeout: int | None = None
    app: str | None = None
    retention: dict | None = None
    provenance: dict[str, str] | None = None
    listed: bool = False
    invites: dict[str, str] | None = None
    hints: bool = False
    chat: bool = True
    rated: bool = False
    tournament: str | None = None
    win_chances: str = "seats"

    def record(self) -> GameRecord:
        """The game as ``load`` will read it back (no token role)."""
        return GameRecord(
            id=self.id, ruleset=self.ruleset, version=0, status=self.status, state=self.state, seats=self.seats,
            players=len(self.seats), seed=self.seed, created=self.created, updated=self.created,
            decision_timeout=self.decision_timeout, app=self.app,
            seed_commitment=(self.provenance or {}).get("commitment"), marks=self.marks, options=self.options,
            listed=self.listed, rules_version=self.rules_version, hint_counts=[0] * len(self.seats) if self.hints
            else None, chat=self.chat, rated=self.rated, tournament=self.tournament, win_chances=self.win_chances)


@dataclass(slots=True)
class Commit:
    outcome: str  # "ok", "stale", "missing", "duplicate"
    version: int = 0
    cursors: list[str] | None = None
    #: the new version's ``updated`` time
    updated: float = 0.0


@dataclass(slots=True)
class ChatPost:
    outcome: str  # "ok", "missing", "off" (chat is off), "token" (the token no longer names the seat), "fast"
    cursor: str | None = None
    #: for "fast": seconds until the seat may post again
    retry_after: float = 0.0


@dataclass(slots=True)
class StoredEvent:
    cursor: str
    version: int
    event: dict  # Event.to_dict(), with "visible_to" when it is not public


def is_cluster(url: str) -> bool:
    """Does the Redis at ``url`` run in cluster mode (``INFO cluster``)?"""
    probe = redis.Redis.from_url(url, socket_timeout=5)
    try:
        return bool(probe.info("cluster").get("cluster_enabled"))
    finally:
        probe.close()


def game_client(settings: dict) -> redis.Redis | RedisCluster | None:
    """The games' own client when ``GAME_REDIS_URL`` names one (a cluster when declared or detected),
    else None: the games then share ``REDIS_URL``'s client."""
    url = settings.get("GAME_REDIS_URL")
    if not url:
        return None
    declared = str(settings.get("GAME_REDIS_CLUSTER") or "auto").lower()
    if declared not in ("auto", "yes", "no"):
        raise ValueError("RULEHOUSE_GAME_REDIS_CLUSTER must be auto, yes or no")
    if declared == "yes" or (declared == "auto" and is_cluster(url)):
        # A node that fails over answers MOVED/CLUSTERDOWN for a moment: the client re-reads the slots.
        return RedisCluster.from_url(url, decode_responses=True)
    return redis.Redis.from_url(url, decode_responses=True)


class RegisteredQueue(Queue):
    """An RQ queue that adds itself to RQ's set of queues (``rq:queues``: what ``rq info`` lists) once per
    process: RQ does it in a transaction of its own on every enqueue, three of a bot job's dozen commands
    (bench/bot_cost.py)."""

    _registered = False

    def enqueue_job(self, job, pipeline=None, at_front: bool = False, unique: bool = False):
        if self._registered and pipeline is None and not job._dependency_ids and not job.has_rate_limit:
            job.origin = self.name
            return self._enqueue_job(job, at_front=at_front, unique=unique)  # RQ's enqueue_job less the SADD
        job = super().enqueue_job(job, pipeline=pipeline, at_front=at_front, unique=unique)
        self._registered = pipeline is None
        return job


class GameStore:
    def __init__(self, client: redis.Redis | RedisCluster, *, game_ttl: int, finished_ttl: int,
                 idempotency_ttl: int, bot_queue: Queue | None = None, control: redis.Redis | None = None,
                 search_queue: Queue | None = None, search_timeout: int = 60,
                 analysis_queue: Queue | None = None, analysis_timeout: int = 14_400,
                 bot_job_lease: float = 5.0) -> None:
        """``client`` holds the games (may be a cluster); ``control`` every other key (default: ``client``).
        ``search_queue`` takes the jobs of searching bots and hints (default: ``bot_queue``), each
        allowed ``search_timeout`` seconds; ``analysis_queue`` the game analyses (default: the search
        queue), each allowed ``analysis_timeout`` seconds. A bot or hint job started ``bot_job_lease``
        seconds ago (a search: plus its timeout) whose game still waits is taken for dead (api/service/jobs/bots.py)."""
        self.redis = client
        self.control = client if control is None else control
        #: the webhooks and rooms a new version is told to (api/play/after.py); none until a process wires them
        self.listeners = Listeners()
        self.bot_queue = bot_queue
        self.search_queue = search_queue or bot_queue
        self.search_timeout = search_timeout
        self.analysis_queue = analysis_queue or self.search_queue
        self.analysis_timeout = analysis_timeout
        self.bot_job_lease = bot_job_lease
        self.game_ttl = game_ttl
        self.finished_ttl = finished_ttl
        self.idempotency_ttl = idempotency_ttl
        self._commit = client.register_script(COMMIT_SCRIPT)
        self._ask_hint = client.register_script(ASK_HINT_SCRIPT)
        self._save_hint = client.register_script(SAVE_HINT_SCRIPT)
        self._ask_analysis = client.register_script(ASK_ANALYSIS_SCRIPT)
        self._keep_answer = client.register_script(KEEP_ANSWER_SCRIPT)
        self._save_analysis = client.register_script(SAVE_ANALYSIS_SCRIPT)
        self._post_chat = client.register_script(POST_CHAT_SCRIPT)
        self._set_chat = client.register_script(SET_CHAT_SCRIPT)

    @classmethod
    def from_settings(cls, settings: dict, *, client: redis.Redis | None = None,
                      queue_connection: redis.Redis | None = None, pooled: bool = False) -> GameStore:
        """Games on ``GAME_REDIS_URL`` (else on ``client`` or ``REDIS_URL``); the rest on ``client`` or
        ``REDIS_URL`` (decoding), the bot queue on ``queue_connection`` or ``REDIS_URL``. ``pooled``: the
        process runs an event loop (``api.ground.concurrency.cooperative``)."""
        if client is None:
            if pooled:
                # An event-loop process: thousands of live streams share a bounded pool, waiting for a free
                # connection when all are busy. A threaded process holds at most one per thread anyway.
                client = redis.Redis(connection_pool=redis.BlockingConnectionPool.from_url(
                    settings["REDIS_URL"], max_connections=int(settings["REDIS_MAX_CONNECTIONS"]), timeout=10,
                    decode_responses=True))
            else:
                client = redis.Redis.from_url(settings["REDIS_URL"], decode_responses=True)
        games = game_client(settings)
        queues = {}
        names = ("BOT_QUEUE", "SEARCH_QUEUE", "ANALYSIS_QUEUE")
        if any(settings.get(name) for name in names):
            # RQ stores pickled bytes, so it gets a connection of its own that does not decode.
            connection = queue_connection or redis.Redis.from_url(settings["REDIS_URL"])
            queues = {name: RegisteredQueue(settings[name], connection=connection)
                      for name in names if settings.get(name)}
        return cls(
            games or client,
            game_ttl=int(settings["GAME_TTL_SECONDS"]),
            finished_ttl=int(settings["FINISHED_GAME_TTL_SECONDS"]),
            idempotency_ttl=int(settings["IDEMPOTENCY_TTL_SECONDS"]),
            bot_queue=queues.get("BOT_QUEUE"),
            control=client,
            search_queue=queues.get("SEARCH_QUEUE"),
            search_timeout=int(settings.get("SEARCH_JOB_TIMEOUT") or 60),
            analysis_queue=queues.get("ANALYSIS_QUEUE"),
            analysis_timeout=int(settings.get("ANALYSIS_JOB_TIMEOUT") or 14_400),
            bot_job_lease=float(settings.get("BOT_JOB_LEASE") or 5.0),
        )

    def ttl_for(self, status: str) -> int:
        return self.finished_ttl if status in OVER else self.game_ttl

    # -- writes ---------------------------------------------------------------

    def create(self, new: NewGameRecord) -> list[str]:
        """Store a new game at version 0 with its first events; the events' cursors."""
        now = repr(new.created)
        mapping = {
            "ruleset": new.ruleset, "rules_version": str(new.rules_version), "version": "0", "status": new.status,
            "state": new.state, "seats": json.dumps(new.seats),
            "players": str(len(new.seats)), "seed": str(new.seed), "options": json.dumps(new.options),
            "created": now, "updated": now, "marks": json.dumps(new.marks or {}), "listed": "1" if new.listed else "0",
            "chat": "1" if new.chat else "0",
        }
        if new.decision_timeout is not None:
            mapping["decision_timeout"] = str(new.decision_timeout)
        if new.app is not None:
            mapping["app"] = new.app
        if new.hints:
            mapping["hints"] = ""  # no hint asked yet (see ASK_HINT_SCRIPT)
        if new.rated:
            mapping["rated"] = "1"
        if new.tournament is not None:
            mapping["tournament"] = new.tournament
        if new.win_chances != "seats":
            mapping["win_chances"] = new.win_chances
        retention = new.retention or {}
        mapping.update({name: str(int(seconds)) for name, seconds in retention.items()})
        mapping.update({f"t:{digest}": role for digest, role in new.tokens.items()})
        mapping.update({f"i:{digest}": role for digest, role in (new.invites or {}).items()})
        mapping.update(new.provenance or {})
        ttl = int(retention.get("finished_ttl" if new.status == FINISHED else "ttl", self.ttl_for(new.status)))
        pipe = self.redis.pipeline(transaction=True)
        pipe.hset(game_key(new.id), mapping=mapping)
        for event in new.events:
            pipe.xadd(events_key(new.id), {"k": "e", "v": "0", "d": json.dumps(event)})
        pipe.expire(game_key(new.id), ttl)
        pipe.expire(events_key(new.id), ttl)
        return pipe.execute()[1:1 + len(new.events)]

    def commit(self, game_id: str, expected_version: int, *, state: str, status: str, seat: int, action: dict,
               events: list[dict], marks: dict, idempotency: tuple[str, dict] | None = None,
               bot_run: bool = False) -> Commit:
        """Compare-and-set one accepted action; ``marks`` are the new version's decision marks
        (api/play/preconditions.py); ``idempotency`` is (key, outcome record) to remember; ``bot_run``: the
        committing bot job plays the new version's bot move too (``GameRecord.bot_run``)."""
        keys = [game_key(game_id), events_key(game_id), chat_key(game_id)]
        record = ""
        if idempotency is not None:
            keys.append(idempotency_key(game_id, seat, idempotency[0]))
            record = json.dumps(idempotency[1])
        now = time.time()
        args = [
            str(expected_version), state, status, repr(now), self.ttl_for(status), wake_channel(game_id),
            self.idempotency_ttl, record, json.dumps(marks), "1" if bot_run else "",
            json.dumps({"seat": seat, "action": action}), *(json.dumps(event) for event in events),
            TTL_REFRESH_SECONDS,
        ]
        reply = self._commit(keys=keys, args=args)
        outcome = reply[0]
        if outcome == "ok":
            return Commit("ok", int(reply[1]), list(reply[2:]), updated=now)
        return Commit(outcome, int(reply[1]) if len(reply) > 1 else 0)

    def note_bot_job(self, game_id: str, job_id: str, check_at: float) -> None:
        """Make ``job_id`` the job responsible for the game's pending bot move, and note the game in
        ``BOT_GAMES_KEY`` to be looked at ``check_at`` (api/play/bots.py queues the job itself)."""
        # The game's own key on the games' Redis; the sweep's set is global: on the control Redis.
        self.redis.set(bot_current_key(game_id), job_id, ex=self.game_ttl)
        self.control.zadd(BOT_GAMES_KEY, {game_id: check_at})

    def ask_hint(self, game_id: str, seat: int, version: int, job_id: str) -> tuple[str, str | None]:
        """Count and mark a hint of ``seat`` at ``version`` (``ASK_HINT_SCRIPT``): (outcome, its value)."""
        reply = self._ask_hint(keys=[game_key(game_id), hint_key(game_id, seat, version), asked_key(game_id)],
                               args=[seat, version, self.game_ttl * 1000, job_id])
        return reply[0], (reply[1] if len(reply) > 1 else None)

    def ask_win_chances(self, game_id: str, seat: int | None, version: int, chances: str) -> tuple[str, str | None]:
        """Keep ``chances`` (their JSON) as the answer of ``seat`` (None: the spectator view) at ``version``, a
        seat's counted like a hint (``ASK_HINT_SCRIPT``; ``KEEP_ANSWER_SCRIPT`` for the spectator view):
        (outcome, the answer kept before, if any)."""
        keys = [game_key(game_id), win_chances_key(game_id, seat, version), asked_key(game_id)]
        if seat is None:
            reply = self._keep_answer(keys=keys, args=[version, self.game_ttl * 1000, chances])
        else:
            reply = self._ask_hint(keys=keys, args=[seat, version, self.game_ttl * 1000, chances])
        return reply[0], (reply[1] if len(reply) > 1 else None)

    def kept_win_chances(self, game_id: str, seat: int | None, version: int) -> str | None:
        """The JSON of ``seat``'s (None: the spectator view's) win chances at ``version`` if asked already."""
        return self.redis.get(win_chances_key(game_id, seat, version))

    def ask_analysis(self, game_id: str, job_id: str) -> tuple[str, str | None]:
        """Mark a finished game's analysis asked by job ``job_id`` (``ASK_ANALYSIS_SCRIPT``): (outcome, value)."""
        reply = self._ask_analysis(keys=[game_key(game_id), analysis_key(game_id)], args=[job_id])
        return reply[0], (reply[1] if len(reply) > 1 else None)

    def analysis(self, game_id: str) -> str | None:
        """The analysis' stored value: its JSON once computed, the computing job's id before, None if never asked."""
        return self.redis.get(analysis_key(game_id))

    def save_analysis(self, game_id: str, value: str, *, replacing: str, seat_costs: str = "") -> bool:
        """Store the computed analysis (or the id of a job queued again) if the stored value is still the
        job id ``replacing``: a job that was replaced meanwhile stores nothing. ``seat_costs``, a ready
        analysis' seats' ``[decisions, cost]`` as JSON, is stored with it (``analysis_costs_key``)."""
        return bool(self._save_analysis(keys=[analysis_key(game_id), analysis_costs_key(game_id)],
                                        args=[value, replacing, seat_costs]))

    def analysis_costs(self, game_ids: list[str]) -> list[str | None]:
        """Each game's seats' ``[decisions, cost]`` (JSON) of its ready analysis, None where there is none."""
        if not game_ids:
            return []
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.get(analysis_costs_key(game_id))
        return pipe.execute()

    def hint(self, game_id: str, seat: int, version: int) -> str | None:
        """The hint's stored value: its JSON once computed, the computing job's id before, None if never asked."""
        return self.redis.get(hint_key(game_id, seat, version))

    def save_hint(self, game_id: str, seat: int, version: int, value: str, *, replacing: str | None = None) -> bool:
        """Store a computed hint (its JSON), or with ``replacing`` (the id of a job that was lost) the id
        of the job that now computes it, unless the hint changed meanwhile; only while the hint is asked
        (its key lives as long as its version and is never revived). False if nothing was stored."""
        keys, args = [hint_key(game_id, seat, version)], [value, replacing or ""]
        return bool(self._save_hint(keys=keys, args=args))

    # -- the table chat (api/chat) --------------------------------------------------------------

    def post_chat(self, game_id: str, seat: int, token: str, message: dict, *, per_window: int,
                  window_seconds: float, kept: int) -> ChatPost:
        """Append ``message`` to the game's chat for ``seat`` (``POST_CHAT_SCRIPT``): at most ``per_window``
        messages of a seat in ``window_seconds``; the chat keeps its last ``kept``."""
        keys = [game_key(game_id), chat_key(game_id), chat_rate_key(game_id, seat)]
        args = [f"t:{token_digest(token)}", str(seat), repr(time.time()), repr(float(window_seconds)), per_window,
                secrets.token_hex(8), kept, json.dumps(message, separators=(",", ":")), wake_channel(game_id)]
        reply = self._post_chat(keys=keys, args=args)
        if reply[0] == "ok":
            return ChatPost("ok", reply[1])
        if reply[0] == "fast":
            return ChatPost("fast", retry_after=max(0.0, float(reply[1])))
        return ChatPost(reply[0])

    def set_chat(self, game_id: str, enabled: bool) -> bool:
        """Turn the game's chat on or off (its streams hear of it); False when there is no such game."""
        return bool(self._set_chat(keys=[game_key(game_id)], args=["1" if enabled else "0", wake_channel(game_id)]))

    def chat(self, game_id: str, after: str, count: int) -> tuple[list[tuple[str, dict]], str | None]:
        """Up to ``count`` chat messages after cursor ``after`` (exclusive) as (cursor, message), and the
        cursor of the last one (None when there was nothing after)."""
        entries, _ = self._entries_after(chat_key(game_id), after, count)
        return _chat_messages(entries), (entries[-1][0] if entries else None)

    def chat_and_setting(self, game_id: str, after: str, count: int,
                         ) -> tuple[list[tuple[str, dict]], str | None, bool | None]:
        """``chat`` and whether chat is on (None: the game is gone) in one round trip (a chat stream's look)."""
        entries, (version, chat) = self._entries_after(chat_key(game_id), after, count, game_id, ["version", "chat"])
        return (_chat_messages(entries), (entries[-1][0] if entries else None),
                None if version is None else chat != "0")

    def _entries_after(self, stream: str, after: str, count: int, game_id: str | None = None,
                       fields: list[str] | None = None) -> tuple[list, list]:
        """Up to ``count`` entries of ``stream`` after cursor ``after`` (exclusive; ``0``: from the start)
        and, with ``fields``, those fields of the game's hash, in one round trip."""
        start = "-" if after in ("", "0", "0-0") else f"({after}"
        if not fields:
            return self.redis.xrange(stream, min=start, max="+", count=count), []
        pipe = self.redis.pipeline(transaction=False)
        pipe.xrange(stream, min=start, max="+", count=count)
        pipe.hmget(game_key(game_id), fields)
        entries, values = pipe.execute()
        return entries, values

    def delete(self, game_id: str) -> None:
        """Delete the game's keys, and its entry in the index of games with bot seats."""
        # The keys share the game's slot, so one DEL removes them together (also on a cluster, where a
        # transaction could not carry the PUBLISH, which has no key).
        asked = self.redis.smembers(asked_key(game_id))
        self.redis.delete(game_key(game_id), events_key(game_id), chat_key(game_id), *analysis_keys(game_id),
                          asked_key(game_id), *asked)
        self.redis.publish(wake_channel(game_id), "deleted")  # its live streams end now
        self.control.zrem(BOT_GAMES_KEY, game_id)

    # -- reads ----------------------------------------------------------------

    def load(self, game_id: str, *, token: str | None = None) -> GameRecord | None:
        """The game and what ``token`` names, in one round trip."""
        values = self.redis.hmget(game_key(game_id), _fields(token))
        return None if values[0] is None else _record(game_id, values, token is not None)

    def load_with_cursor(self, game_id: str, token: str | None = None) -> tuple[GameRecord | None, str]:
        """The game and the cursor of its latest event, read atomically (for a live stream's start)."""
        pipe = self.redis.pipeline(transaction=True)
        pipe.hmget(game_key(game_id), _fields(token))
        pipe.xrevrange(events_key(game_id), count=1)
        values, latest = pipe.execute()
        if values[0] is None:
            return None, "0"
        return _record(game_id, values, token is not None), (latest[0][0] if latest else "0")

    def status(self, game_id: str) -> tuple[str, int] | None:
        status, version = self.redis.hmget(game_key(game_id), ["status", "version"])
        return None if status is None else (status, int(version))

    def idempotency_record(self, game_id: str, seat: int, key: str) -> dict | None:
        stored = self.redis.hgetall(idempotency_key(game_id, seat, key))
        return idempotent_outcome(stored) if stored else None

    def events(self, game_id: str, after: str, count: int) -> tuple[list[StoredEvent], str | None]:
        """Up to ``count`` stream entries after cursor ``after`` (exclusive): the events among
        them and the cursor of the last entry read (None when there was nothing after)."""
        entries, _ = self._entries_after(events_key(game_id), after, count)
        return _events_of(entries), (entries[-1][0] if entries else None)

    def events_and_status(self, game_id: str, after: str, count: int,
                          ) -> tuple[list[StoredEvent], str | None, tuple[str, int] | None]:
        """``events`` and ``status`` in one round trip (a live stream's look at its game)."""
        entries, (status, version) = self._entries_after(events_key(game_id), after, count, game_id,
                                                          ["status", "version"])
        return (_events_of(entries), (entries[-1][0] if entries else None),
                None if status is None else (status, int(version)))

    def action_log(self, game_id: str) -> list[tuple[int, dict]]:
        """Every accepted action in order, as (seat, action): enough to replay the game."""
        log = []
        for _, fields in self.redis.xrange(events_key(game_id)):
            if fields.get("k") == "a":
                entry = json.loads(fields["d"])
                log.append((entry["seat"], entry["action"]))
        return log

    def log(self, game_id: str) -> list[tuple[str, int, dict]]:
        """Every stream entry in order as (kind, version, data): ``a`` an accepted action
        (``{"seat", "action"}``), ``e`` an event. What a game record is built from."""
        return [(fields["k"], int(fields["v"]), json.loads(fields["d"]))
                for _, fields in self.redis.xrange(events_key(game_id))]

    def log_after(self, game_id: str, after: str) -> tuple[list[tuple[str, int, dict]], str]:
        """The ``log`` entries after cursor ``after`` (exclusive; ``0``: from the start) and the cursor of
        the last one (``after`` when there is none): a reader that keeps the log reads only what is new."""
        entries, _ = self._entries_after(events_key(game_id), after, 1_000_000)
        log = [(fields["k"], int(fields["v"]), json.loads(fields["d"])) for _, fields in entries]
        return log, (entries[-1][0] if entries else after)

    def record_fields(self, game_id: str) -> dict[str, str]:
        """The ``RECORD_FIELDS`` the game has (absent ones left out)."""
        values = self.redis.hmget(game_key(game_id), RECORD_FIELDS)
        return {name: value for name, value in zip(RECORD_FIELDS, values, strict=True) if value is not None}

    @contextlib.contextmanager
    def watching(self, game_id: str):
        """A pipeline watching the game's hash: a seat change's optimistic transaction (``WatchError``
        when the game changed before ``write_change``'s ``execute``)."""
        with self.redis.pipeline(transaction=True) as pipe:
            pipe.watch(game_key(game_id))
            yield pipe

    def write_change(self, pipe, record: GameRecord, *, status: str, state: str, seats: list[dict], players: int,
                     marks: dict, events: list[dict], set_fields: dict[str, str], del_fields: list[str],
                     now: float) -> None:
        """Queue in ``pipe`` (from ``watching``) the next version of ``record``: its fields, its events and the
        TTLs of its keys, as the commit script does for a move; ``wake`` its streams once it is executed."""
        version = record.version + 1
        key, ttl = game_key(record.id), self.ttl_for(status)
        pipe.multi()
        pipe.hset(key, mapping={"version": str(version), "updated": repr(now), "status": status,
                                "seats": json.dumps(seats), "players": str(players),
                                "state": state, "marks": json.dumps(marks), **set_fields})
        if del_fields:
            pipe.hdel(key, *del_fields)
        for event in events:
            pipe.xadd(events_key(record.id), {"k": "e", "v": str(version), "d": json.dumps(event)})
        pipe.expire(key, ttl)
        pipe.expire(events_key(record.id), ttl)
        pipe.expire(chat_key(record.id), ttl)  # the table chat lives as long as the game

    def wake(self, game_id: str, version: int) -> None:
        """Wake the game's streams for ``version`` (written by ``write_change``). A publish names no key, so a
        cluster's transaction cannot carry it: it follows the transaction, as ``delete``'s follows its DEL."""
        self.redis.publish(wake_channel(game_id), str(version))

    def access_fields(self, game_id: str, prefixes: tuple[str, ...] = ("t:",)) -> list[tuple[str, str]]:
        """(field, role) of the game's token fields (``t:``) and, asked for, its invites (``i:``)."""
        fields = self.redis.hgetall(game_key(game_id))
        return [(name, value) for name, value in fields.items() if name.startswith(prefixes)]

    def token_role(self, game_id: str, token: str) -> str | None:
        """What ``token`` names in the game (a seat number, ``creator``), or None."""
        return self.redis.hget(game_key(game_id), f"t:{token_digest(token)}")

    def statuses(self, game_ids: list[str]) -> list[str | None]:
        """Each game's status, None for a game that is gone, in one round trip."""
        return [fields[0] for fields in self.fields_of(game_ids, ["status"])]

    def fields_of(self, game_ids: list[str], fields: list[str]) -> list[list[str | None]]:
        """Those hash fields of each game (all None for a game that is gone), in one round trip."""
        if not game_ids:
            return []
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.hmget(game_key(game_id), fields)
        return pipe.execute()

    def bot_job(self, game_id: str) -> str | None:
        """The id of the bot job now responsible for the game's pending bot move (``schedule_bots``)."""
        return self.redis.get(bot_current_key(game_id))

    def load_watched(self, pipe, game_id: str, extra_field: str | None = None) -> tuple[GameRecord | None, str | None]:
        """The game read through ``pipe``, a pipeline watching the game's hash (a seat change's
        optimistic transaction), and the value of one more hash field (e.g. a token's role)."""
        values = pipe.hmget(game_key(game_id), [*_fields(None), *([extra_field] if extra_field else [])])
        if values[0] is None:
            return None, None
        return _record(game_id, values[: len(_FIELDS)], False), (values[-1] if extra_field else None)

    def ping(self) -> bool:
        """Both Redis answer (a cluster client pings every primary)."""
        return bool(self.redis.ping()) and (self.control is self.redis or bool(self.control.ping()))


def _record(game_id: str, values: list, with_token: bool) -> GameRecord:
    (ruleset, version, status, state, seats, players, seed, created, updated, timeout, app, commitment, marks,
     options, listed, rules_version, hints, hints_at, hints_pending, chat, rated, tournament,
     win_chances, bot_run) = values[: len(_FIELDS)]
    record = GameRecord(
        id=game_id, ruleset=ruleset, version=int(version), status=status, state=state, seats=json.loads(seats),
        players=int(players), seed=int(seed), created=float(created), updated=float(updated),
        decision_timeout=None if timeout is None else int(timeout), app=app, seed_commitment=commitment,
        marks=None if marks is None else json.loads(marks), options=None if options is None else json.loads(options),
        listed=listed == "1", rules_version=FIRST_RULES_VERSION if rules_version is None else int(rules_version),
        chat=chat != "0", rated=rated == "1", tournament=tournament, win_chances=win_chances or "seats",
        bot_run=None if bot_run is None else int(bot_run),
    )
    if hints is not None:
        record.hint_counts = visible_hint_counts(hints, hints_at, hints_pending, record.version, len(record.seats))
    if with_token:
        record.token_role = values[-1] or ""
    return record


def visible_hint_counts(counts: str, at: str | None, pending: str | None, version: int, seats: int) -> list[int]:
    """Hints per seat as readers see them at ``version``: those asked at earlier versions (``ASK_HINT_SCRIPT``)."""
    found = [int(n) for n in counts.split(",") if n]
    if at is not None and int(at) < version:
        for seat in (int(n) for n in (pending or "").split(",") if n):
            found.extend([0] * (seat + 1 - len(found)))
            found[seat] += 1
    return (found + [0] * seats)[:seats]


def _chat_messages(entries) -> list[tuple[str, dict]]:
    return [(cursor, json.loads(fields["d"])) for cursor, fields in entries]


def _events_of(entries) -> list[StoredEvent]:
    return [StoredEvent(cursor, int(fields["v"]), json.loads(fields["d"]))
            for cursor, fields in entries if fields.get("k") == "e"]


def idempotent_outcome(stored: dict) -> dict:
    record = json.loads(stored["r"])
    cursors = stored.get("c", "")
    record["cursors"] = cursors.split(",") if cursors else []
    record["version"] = int(stored["v"])
    return record
