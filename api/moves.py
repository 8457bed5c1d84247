"""The one code path that applies a move to a stored game (HTTP handlers and bot jobs both use it)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from api import deadlines
from api.apps import notify
from api.faults import pause_point
from api.observability.metrics import counted_actions
from api.problems import ApiProblem, validation_problem
from api.store import ACTIVE, FINISHED, GameRecord, GameStore, StoredEvent
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


def body_digest(action) -> str:
    return hashlib.sha256(json.dumps(action, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def load_state(ruleset: Ruleset, record: GameRecord):
    return ruleset.from_dict(json.loads(record.state))


class StateCache:
    """The live state each game had after this process's last accepted action on it.

    Deserializing a state costs more than the rest of a move, and a client's keep-alive
    connection usually brings a game's next action back to the same process. An entry is
    used only when its version is the stored version, and is taken out while in use, so
    two threads never share one state object; the JSON in Redis stays the truth.
    """

    def __init__(self, size: int = 2048) -> None:
        self.size = size
        self._states: dict[str, tuple[int, object]] = {}

    def take(self, ruleset: Ruleset, record: GameRecord):
        entry = self._states.pop(record.id, None)
        if entry is not None and entry[0] == record.version:
            return entry[1]
        return load_state(ruleset, record)

    def put(self, game_id: str, version: int, state) -> None:
        self._states[game_id] = (version, state)
        while len(self._states) > self.size:
            try:
                del self._states[next(iter(self._states))]
            except (KeyError, RuntimeError, StopIteration):  # another thread changed it meanwhile
                break


states = StateCache()


@counted_actions
def submit_action(store: GameStore, game_id: str, seat: int, action, expected_version: int,
                  idempotency_key: str | None = None, *, record: GameRecord | None = None,
                  timed_out: bool = False) -> Outcome:
    """Check ``action`` by ``seat`` against the rules and the game at ``expected_version``, then store it.

    Raises ``ApiProblem``: ``not-found``, ``validation-error`` (the body fits no action schema),
    ``version-mismatch`` (the game is no longer at ``expected_version``), ``illegal-action``
    (with the engine's ``reason``), ``idempotency-key-reused``. ``record`` may be passed when the
    caller has just loaded the game. A bot seat left pending gets its job queued, a human one
    its deadline (``api.deadlines``); ``timed_out`` marks a default the service played.
    """
    digest = body_digest(action) if idempotency_key is not None else None
    if idempotency_key is not None:
        earlier = store.idempotency_record(game_id, seat, idempotency_key)
        if earlier is not None:
            return _replay(game_id, seat, earlier, digest)
    if record is None:
        record = store.load(game_id)
        if record is None:
            raise ApiProblem("not-found", f"no game {game_id!r}")
    ruleset = get_ruleset(record.ruleset)
    try:
        action = ruleset.parse_action(action)
    except IllegalAction as error:
        raise validation_problem(error.fields or {"type": [error.message]}, error.message,
                                 reason=error.reason) from None
    if expected_version != record.version:
        raise _stale(record.version)
    state = states.take(ruleset, record)
    try:
        ruleset.check(state, seat, action)
    except IllegalAction as error:
        states.put(game_id, record.version, state)
        raise ApiProblem("illegal-action", error.message, reason=error.reason, version=record.version) from None
    events = [event.to_dict() for event in ruleset.play(state, seat, action)]
    if timed_out:
        events.insert(0, deadlines.timed_out_event(seat))
    result = ruleset.result(state)
    status = ACTIVE if result is None else FINISHED
    result_body = None if result is None else result.to_dict()
    idempotency = None
    if idempotency_key is not None:
        idempotency = (idempotency_key, {"b": digest, "status": status, "result": result_body, "events": events})
    pause_point("before-commit")
    commit = store.commit(game_id, record.version, state=json.dumps(ruleset.to_dict(state)), status=status,
                          seat=seat, action=action, events=events, idempotency=idempotency)
    pause_point("after-commit")
    if commit.outcome == "stale":
        raise _stale(commit.version)
    if commit.outcome == "missing":
        raise ApiProblem("not-found", f"no game {game_id!r}")
    if commit.outcome == "duplicate":
        # The same key won a race a moment ago: answer as a replay of that request.
        return _replay(game_id, seat, store.idempotency_record(game_id, seat, idempotency_key), digest)
    stored = [StoredEvent(cursor, commit.version, event) for cursor, event in zip(commit.cursors, events, strict=True)]
    if status == ACTIVE:
        states.put(game_id, commit.version, state)
        has_bots = any(seat.get("bot") for seat in record.seats)
        if has_bots or record.decision_timeout:
            pending = ruleset.pending(state)
            if has_bots:
                store.schedule_bots(game_id, commit.version, record.seats, pending)
            if record.decision_timeout:
                deadlines.schedule(store, game_id, commit.version, record.seats, record.decision_timeout, pending)
    notify.game_moved(record, commit.version, status, ruleset, state, result_body)
    return Outcome(game_id, seat, commit.version, status, stored, result_body)


def _stale(current: int) -> ApiProblem:
    return ApiProblem("version-mismatch", f"the game is at version {current}", version=current,
                      headers={"ETag": f'"{current}"'})


def _replay(game_id: str, seat: int, earlier: dict | None, digest: str | None) -> Outcome:
    if earlier is None or earlier["b"] != digest:
        raise ApiProblem("idempotency-key-reused", "this Idempotency-Key was sent before with another action")
    version = earlier["version"]
    events = [StoredEvent(cursor, version, event)
              for cursor, event in zip(earlier["cursors"], earlier["events"], strict=True)]
    return Outcome(game_id, seat, version, earlier["status"], events, earlier["result"], replayed=True)
