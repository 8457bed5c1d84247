"""The one code path that applies a move to a stored game (HTTP handlers, bot jobs and timeouts use it)."""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass

from api.ground import metrics
from api.ground.config import setting
from api.ground.faults import pause_point
from api.ground.metrics import track_cache
from api.play import deadlines
from api.play.after import after_version
from api.play.errors import GameNotFound, IdempotencyKeyReused, IllegalMove, MalformedAction, PlayError, StaleVersion
from api.play.game_record import ABORTED, ACTIVE, FINISHED, WAITING, Commit, GameRecord, StoredEvent
from api.play.preconditions import Precondition, current_ids, next_marks, since_of
from api.play.rules_version import ensure_current
from api.play.store import GameStore
from engine.core.bounded import BoundedCache
from engine.core.decisions import Decision
from engine.core.errors import IllegalAction
from engine.core.registry import get_ruleset
from engine.core.ruleset import Ruleset


@dataclass(slots=True)
class Outcome:
    """An accepted action: the game's new version and everything that happened (unfiltered)."""

    game_id: str
    seat: int
    version: int
    status: str
    events: list[StoredEvent]
    result: dict | None
    #: True when this is the stored outcome of an earlier request with the same Idempotency-Key
    replayed: bool = False
    #: the game at the new version, for a caller that plays on without reading it again: what a move
    #: changes (version, status, state, marks, updated, bot_run) as stored; the rest as it was read
    record: GameRecord | None = None
    #: the caller's ``plays_on`` said yes: no bot job was queued for the new version, the caller answers for it
    plays_on: bool = False


def body_digest(action) -> str:
    return hashlib.sha256(json.dumps(action, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def load_state(ruleset: Ruleset, record: GameRecord):
    """The game's state; ``RulesVersionGone`` for a game created under other rules."""
    ensure_current(ruleset, record)
    return ruleset.from_dict(json.loads(record.state))


class StateCache:
    """The live state each game had after this process's last accepted action on it.

    Deserializing a state costs more than the rest of a move, and a client's keep-alive
    connection usually brings a game's next action back to the same process. An entry is
    used only when its version is the stored version, and is taken out while in use, so
    two threads never share one state object; the JSON in Redis stays the truth.
    """

    def __init__(self, size: int) -> None:
        self._states: BoundedCache[str, tuple[int, object]] = BoundedCache(size)

    def resize(self, size: int) -> None:
        """A new bound (``STATE_CACHE_SIZE``), applied from the next ``put``."""
        self._states.resize(size)

    def sizes(self) -> tuple[int, int]:
        return self._states.sizes()

    def take(self, ruleset: Ruleset, record: GameRecord):
        entry = self._states.pop(record.id)
        if entry is not None and entry[0] == record.version:
            return entry[1]
        return load_state(ruleset, record)

    def put(self, game_id: str, version: int, state) -> None:
        self._states.put(game_id, (version, state))


#: One per process; ``rulehouse worker`` takes its bound from the environment, ``create_app`` from its config.
states = StateCache(setting("STATE_CACHE_SIZE"))
track_cache("state", states.sizes)


#: How often a move against an unchanged decision re-runs its compare-and-set after other seats
#: moved first; each retry means another move was stored, so a real table never needs many.
MAX_CAS_RETRIES = 25

#: Asked after an action is played and before it is stored, with the game and the new version's pending
#: decisions: does the caller (a bot job, api/service/jobs/bot_runs.py) play the new version's bot move itself?
PlaysOn = Callable[[GameRecord, list[Decision]], bool]


def counted_actions(submit: Callable) -> Callable:
    """Wraps ``api.play.moves.submit_action``: counts each call as accepted, replayed (an Idempotency-Key
    seen before) or rejected with the engine's reason, else the refusal's code (errors.py here)."""

    @functools.wraps(submit)
    def counted(*args, **kwargs):
        try:
            outcome = submit(*args, **kwargs)
        except PlayError as refused:
            # Reasons and codes are a fixed vocabulary of the engines and api/play/errors.py, never client text.
            metrics.ACTIONS.labels("rejected", str(refused.reason or refused.code)[:64]).inc()
            raise
        metrics.ACTIONS.labels("replayed" if outcome.replayed else "accepted", "").inc()
        return outcome

    return counted


@counted_actions
def submit_action(store: GameStore, game_id: str, seat: int, action, expected: int | Precondition,
                  idempotency_key: str | None = None, *, record: GameRecord | None = None,
                  timed_out: bool = False, plays_on: PlaysOn | None = None) -> Outcome:
    """Check ``action`` by ``seat`` against the rules and the game, then store it.

    ``expected`` is the precondition: a version (strict: the game must still be at it) or a
    ``Precondition`` naming the seat's decision (accepted while that decision is pending and
    unchanged; when only other seats moved meanwhile, the compare-and-set is re-run here).
    Raises ``GameNotFound``, ``MalformedAction`` (the body fits no action schema),
    ``StaleVersion`` (the precondition no longer holds), ``IllegalMove`` (with the engine's
    ``reason``), ``IdempotencyKeyReused``, ``RulesVersionGone`` (api/play/errors.py). ``record``
    may be passed when the caller has just loaded the game. The new version gets what it owes
    (``api.play.after.after_version``); ``timed_out`` marks a default the service played. ``plays_on``
    lets a bot job keep the next bot move instead of queueing a job for it (``Outcome.plays_on``).
    """
    precondition = expected if isinstance(expected, Precondition) else Precondition(version=expected)
    digest = body_digest(action) if idempotency_key is not None else None
    if idempotency_key is not None:
        earlier = store.idempotency_record(game_id, seat, idempotency_key)
        if earlier is not None:
            return _replay(game_id, seat, earlier, digest)
    parsed = None
    for _ in range(MAX_CAS_RETRIES):
        if record is None:
            record = store.load(game_id)
            if record is None:
                raise GameNotFound(game_id)
        ruleset = get_ruleset(record.ruleset)
        if record.status == WAITING:
            raise IllegalMove("the game has not started: it waits for its open seats", reason="not_started",
                              version=record.version)
        if record.status == ABORTED:
            raise IllegalMove("the game was aborted (its tournament was cancelled): it takes no more moves",
                              reason="game_over", version=record.version)
        if parsed is None:
            try:
                parsed = ruleset.parse_action(action)
            except IllegalAction as error:
                raise MalformedAction(error.message, fields=error.fields or {"type": [error.message]},
                                      reason=error.reason) from None
        if not precondition.names_decision and precondition.version != record.version:
            raise _stale(store, game_id, seat, record)
        state = states.take(ruleset, record)
        pending = ruleset.pending(state)
        if precondition.names_decision and since_of(record.marks, seat, record.version, pending) != precondition.since:
            states.put(game_id, record.version, state)
            raise _stale(store, game_id, seat, record, pending, "the decision you answer is no longer pending")
        try:
            ruleset.check(state, seat, parsed, pending)
        except IllegalAction as error:
            states.put(game_id, record.version, state)
            raise IllegalMove(error.message, reason=error.reason, version=record.version) from None
        played = _commit(store, ruleset, record, state, seat, parsed, idempotency_key, digest, timed_out, plays_on)
        if played.commit.outcome != "stale":
            break
        if not precondition.names_decision:
            raise _stale(store, game_id, seat)
        record = None  # another seat moved first: check the decision again against the new version
    else:
        raise _stale(store, game_id, seat, detail="the game kept moving; try again")
    commit = played.commit
    if commit.outcome == "missing":
        raise GameNotFound(game_id)
    if commit.outcome == "duplicate":
        # The same key won a race a moment ago: answer as a replay of that request.
        return _replay(game_id, seat, store.idempotency_record(game_id, seat, idempotency_key), digest)
    stored = [StoredEvent(cursor, commit.version, event)
              for cursor, event in zip(commit.cursors, played.events, strict=True)]
    if played.status == ACTIVE:
        states.put(game_id, commit.version, played.state)
    written = dataclasses.replace(record, version=commit.version, status=played.status, token_role=None,
                                  state=played.state_json, marks=played.marks, updated=commit.updated,
                                  bot_run=commit.version if played.plays_on else record.bot_run)
    after_version(store, written, played.pending, result=played.result, bots_queued=not played.plays_on)
    return Outcome(game_id, seat, commit.version, played.status, stored, played.result, record=written,
                   plays_on=played.plays_on)


@dataclass(slots=True)
class _Played:
    """An action played on a state, and the outcome of storing it."""

    commit: Commit
    state: object | None  # None when the commit lost its race (the state was played on: not cacheable)
    events: list[dict]
    status: str
    result: dict | None
    pending: list[Decision]
    state_json: str
    marks: dict
    plays_on: bool


def _commit(store: GameStore, ruleset: Ruleset, record: GameRecord, state, seat: int, action: dict,
            idempotency_key: str | None, digest: str | None, timed_out: bool, plays_on: PlaysOn | None) -> _Played:
    """Play a checked action on ``state`` and compare-and-set it."""
    events = [event.to_dict() for event in ruleset.play(state, seat, action)]
    if timed_out:
        events.insert(0, deadlines.timed_out_event(seat))
    result = ruleset.result(state)
    status = ACTIVE if result is None else FINISHED
    result_body = None if result is None else result.to_dict()
    idempotency = None
    if idempotency_key is not None:
        idempotency = (idempotency_key, {"b": digest, "status": status, "result": result_body, "events": events})
    pending = ruleset.pending(state) if result is None else []
    marks = next_marks(pending, record.marks, record.version + 1, seat)
    keeps = status == ACTIVE and plays_on is not None and plays_on(record, pending)
    state_json = json.dumps(ruleset.to_dict(state))
    pause_point("before-commit")
    commit = store.commit(record.id, record.version, state=state_json, status=status, seat=seat, action=action,
                          events=events, marks=marks, idempotency=idempotency, bot_run=keeps)
    pause_point("after-commit")
    return _Played(commit, None if commit.outcome == "stale" else state, events, status, result_body, pending,
                   state_json, marks, keeps)


def _stale(store: GameStore, game_id: str, seat: int, record: GameRecord | None = None, pending: list | None = None,
           detail: str | None = None) -> StaleVersion | GameNotFound:
    """The refusal of a stale precondition: the current version and the caller's current decision ids."""
    if record is None:
        record = store.load(game_id)
        if record is None:
            return GameNotFound(game_id)
    if pending is None:
        pending = [] if record.status != ACTIVE else get_ruleset(record.ruleset).pending(
            load_state(get_ruleset(record.ruleset), record))
    return StaleVersion(detail or f"the game is at version {record.version}", version=record.version, seat=seat,
                        decisions=current_ids(record.marks, seat, record.version, pending))


def _replay(game_id: str, seat: int, earlier: dict | None, digest: str | None) -> Outcome:
    if earlier is None or earlier["b"] != digest:
        raise IdempotencyKeyReused()
    version = earlier["version"]
    events = [StoredEvent(cursor, version, event)
              for cursor, event in zip(earlier["cursors"], earlier["events"], strict=True)]
    return Outcome(game_id, seat, version, earlier["status"], events, earlier["result"], replayed=True)
