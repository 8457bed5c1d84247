"""Games in Redis: the game's keys (api/play/game_keys.py) read and written, its compare-and-set commit.

The hints, win chances, analysis and chat keep their keys beside the game's, in its hash slot, behind
small stores of their own (api/play/hint_store.py, analysis_store.py, chat_store.py), which the game
store makes on its client: ``store.hints``, ``store.win_chances``, ``store.analyses``, ``store.chat``.
The RQ queues its writers queue jobs on are ``store.queues`` (api/play/job_queues.py).

Two connections: ``redis``, the games' Redis (``GAME_REDIS_URL``, else ``REDIS_URL``), which
may be a Redis Cluster and holds only the ``game:{<id>}`` keys; and ``control``, the
plain Redis of ``REDIS_URL`` that also holds RQ's queues, for every key that is not one
game's: the ``deadlines`` sorted set, apps, rate limits, webhooks, simulations. Without
``GAME_REDIS_URL`` both are the same client. See docs/operations.md ("Games on a Redis Cluster").
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable
from typing import TypeVar

import redis
from redis.cluster import RedisCluster

from api.play.analysis_store import AnalysisStore
from api.play.chat_store import ChatStore
from api.play.deadline_store import DeadlineStore
from api.play.game_keys import (
    BOT_GAMES_KEY,
    BOT_SWEEP_LOCK_KEY,
    analysis_keys,
    asked_key,
    bot_current_key,
    chat_key,
    events_key,
    game_key,
    idempotency_key,
    token_digest,
    wake_channel,
)
from api.play.game_record import (
    FINISHED,
    GAME_FIELDS,
    OVER,
    RECORD_FIELDS,
    Commit,
    GameRecord,
    NewGameRecord,
    StoredEvent,
    events_of,
    fields_to_read,
    idempotent_outcome,
    record_of,
)
from api.play.hint_store import HintStore, WinChancesStore
from api.play.job_queues import JobQueues
from api.play.listeners import Listeners
from api.play.lobby_store import LobbyStore
from api.play.scripts import COMMIT_SCRIPT, RESCHEDULE_BOT_CHECK_SCRIPT, TTL_REFRESH_SECONDS
from api.play.stream_reads import entries_after


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


#: what ``watching``'s transaction raises when the game changed before it ran (a seat change tries again)
ChangedMeanwhile = redis.WatchError
#: a room's store built on the control Redis (``GameStore.beside``)
StoreT = TypeVar("StoreT")
#: the key ``bench_read`` reads (never written: the read itself is what is measured)
BENCH_KEY = "rulehouse:bench:ping"


class GameStore:
    def __init__(self, client: redis.Redis | RedisCluster, *, game_ttl: int, finished_ttl: int,
                 idempotency_ttl: int, control: redis.Redis | None = None, queues: JobQueues | None = None) -> None:
        """``client`` holds the games (may be a cluster); ``control`` every other key (default: ``client``);
        ``queues`` the RQ queues its jobs go on (default: none, and no job is queued)."""
        self.redis = client
        self.control = client if control is None else control
        #: the webhooks and rooms a new version is told to (api/play/after.py); none until a process wires them
        self.listeners = Listeners()
        self.queues = queues or JobQueues()
        self.game_ttl = game_ttl
        self.finished_ttl = finished_ttl
        self.idempotency_ttl = idempotency_ttl
        self._commit = client.register_script(COMMIT_SCRIPT)
        #: the small stores of what lives beside the game in its hash slot and dies with it
        self.hints = HintStore(client, game_ttl)
        self.win_chances = WinChancesStore(client, game_ttl)
        self.analyses = AnalysisStore(client)
        self.chat = ChatStore(client)
        #: the global books on the control Redis: decision deadlines and the lobby
        self.deadline_book = DeadlineStore(self.control)
        self.lobby = LobbyStore(self.control)
        self._beside: dict[Callable, object] = {}

    def beside(self, build: Callable[[redis.Redis], StoreT]) -> StoreT:
        """A room's own store on the control Redis (the apps', the accounting's, the competition's), built
        by ``build`` on it once per game store: the rooms above reach their keys through it, and no module
        outside a store holds a raw client (api/play imports none of their types)."""
        found = self._beside.get(build)
        if found is None:
            found = self._beside.setdefault(build, build(self.control))
        return found  # type: ignore[return-value]

    @classmethod
    def from_settings(cls, settings: dict, *, client: redis.Redis | None = None,
                      queue_connection: redis.Redis | None = None, pooled: bool = False) -> GameStore:
        """Games on ``GAME_REDIS_URL`` (else on ``client`` or ``REDIS_URL``); the rest on ``client`` or
        ``REDIS_URL`` (decoding), the job queues on ``queue_connection`` or ``REDIS_URL``. ``pooled``: the
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
        return cls(
            game_client(settings) or client,
            game_ttl=int(settings["GAME_TTL_SECONDS"]),
            finished_ttl=int(settings["FINISHED_GAME_TTL_SECONDS"]),
            idempotency_ttl=int(settings["IDEMPOTENCY_TTL_SECONDS"]),
            control=client,
            queues=JobQueues.from_settings(settings, connection=queue_connection),
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
        ``BOT_GAMES_KEY`` to be looked at ``check_at`` (api/play/bot_queueing.py queues the job itself)."""
        # The game's own key on the games' Redis; the sweep's set is global: on the control Redis.
        self.redis.set(bot_current_key(game_id), job_id, ex=self.game_ttl)
        self.control.zadd(BOT_GAMES_KEY, {game_id: check_at})

    def bot_games_due(self, now: float, limit: int) -> list[tuple[str, float]]:
        """Up to ``limit`` games of ``BOT_GAMES_KEY`` (id, when) whose look is due by ``now``."""
        return self.control.zrangebyscore(BOT_GAMES_KEY, "-inf", now, start=0, num=limit, withscores=True)

    def recheck_bot_game(self, game_id: str, due: float, later: float | str) -> None:
        """Look at the game again at ``later`` ("": take it out of ``BOT_GAMES_KEY``), unless its look was
        pushed past ``due`` meanwhile (``RESCHEDULE_BOT_CHECK_SCRIPT``)."""
        self.control.eval(RESCHEDULE_BOT_CHECK_SCRIPT, 1, BOT_GAMES_KEY, game_id, due, later)

    def take_bot_sweep(self, holder: object) -> bool:
        """Hold the bot sweep for 2 s (one sweeper at a time); False when another holds it."""
        return bool(self.control.set(BOT_SWEEP_LOCK_KEY, holder, nx=True, px=2000))

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
        values = self.redis.hmget(game_key(game_id), fields_to_read(token))
        return None if values[0] is None else record_of(game_id, values, token is not None)

    def load_with_cursor(self, game_id: str, token: str | None = None) -> tuple[GameRecord | None, str]:
        """The game and the cursor of its latest event, read atomically (for a live stream's start)."""
        pipe = self.redis.pipeline(transaction=True)
        pipe.hmget(game_key(game_id), fields_to_read(token))
        pipe.xrevrange(events_key(game_id), count=1)
        values, latest = pipe.execute()
        if values[0] is None:
            return None, "0"
        return record_of(game_id, values, token is not None), (latest[0][0] if latest else "0")

    def status(self, game_id: str) -> tuple[str, int] | None:
        status, version = self.redis.hmget(game_key(game_id), ["status", "version"])
        return None if status is None else (status, int(version))

    def idempotency_record(self, game_id: str, seat: int, key: str) -> dict | None:
        stored = self.redis.hgetall(idempotency_key(game_id, seat, key))
        return idempotent_outcome(stored) if stored else None

    def events(self, game_id: str, after: str, count: int) -> tuple[list[StoredEvent], str | None]:
        """Up to ``count`` stream entries after cursor ``after`` (exclusive): the events among
        them and the cursor of the last entry read (None when there was nothing after)."""
        entries, _ = entries_after(self.redis, events_key(game_id), after, count)
        return events_of(entries), (entries[-1][0] if entries else None)

    def events_and_status(self, game_id: str, after: str, count: int,
                          ) -> tuple[list[StoredEvent], str | None, tuple[str, int] | None]:
        """``events`` and ``status`` in one round trip (a live stream's look at its game)."""
        entries, (status, version) = entries_after(self.redis, events_key(game_id), after, count, game_id,
                                                          ["status", "version"])
        return (events_of(entries), (entries[-1][0] if entries else None),
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
        entries, _ = entries_after(self.redis, events_key(game_id), after, 1_000_000)
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
        values = pipe.hmget(game_key(game_id), [*fields_to_read(None), *([extra_field] if extra_field else [])])
        if values[0] is None:
            return None, None
        return record_of(game_id, values[: len(GAME_FIELDS)], False), (values[-1] if extra_field else None)

    def job_alive(self, job_id: str, grace: float = 0.0) -> bool:
        """Whether the bot, hint or analysis job ``job_id`` will still run without help (``JobQueues.job_alive``:
        RQ keeps its jobs on the control Redis, beside its queues)."""
        return self.queues.job_alive(self.control, job_id, grace)

    def reachable(self) -> bool:
        """Whether both Redis answer a PING (``ping`` raises when one does not)."""
        try:
            self.ping()
        except redis.RedisError:
            return False
        return True

    def bench_read(self) -> str | None:
        """One GET on the games' Redis: the bench's baseline (``/bench/ping``), through the stack of a game read."""
        return self.redis.get(BENCH_KEY)

    def ping(self) -> bool:
        """Both Redis answer (a cluster client pings every primary)."""
        return bool(self.redis.ping()) and (self.control is self.redis or bool(self.control.ping()))


