"""Game records: the one format for export, replay, forks and stateless evaluation.

A record is plain JSON (see docs/records.md, field by field): the ruleset and its rules
version, the options and seats, the seed (with its salt and commitment), the position a
fork started from, and the log: every accepted action with its seat, version and engine
events, and every seat change the service logged. This module is pure: it checks a
record, replays it on the engine, hides what a caller may not see yet, and computes the
seed commitment; the service (``api.records``) builds records from Redis.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

from marshmallow import Schema, ValidationError, fields, validate

from engine.core.errors import IllegalAction, InvalidOptions, ReasonedError
from engine.core.registry import UnknownRuleset, all_rulesets, get_ruleset
from engine.core.rng import Rng, derive_seed
from engine.core.ruleset import Ruleset
from engine.core.strict import StrictBoolean

RECORD_FORMAT = "rulehouse.record"
#: The record format's version: raised whenever a field changes shape, a ruleset's result included
#: (docs/records.md lists them). Records of older versions are read and restated in today's shape
#: (``upgraded``), so they still replay; a newer version than this is refused.
RECORD_VERSION = 3
#: the longest log a record may have (evaluation and replay work is bounded by it): above the
#: longest game any ruleset plays, since every ruleset's games end by their rules or their turn
#: cap (docs/records.md, "How long a game gets", and tests/engine/test_longest_games.py)
MAX_LOG_ENTRIES = 20_000
MAX_SEED = 2**63 - 1
MAX_SEAT = 63
#: ``kind`` of a log entry that is an engine action; every other kind is a seat change
ACTION = "action"
#: where a game's seed came from
SEED_SOURCES = ("service", "client", "fork")
#: derive_seed(fork seed, FORK_STREAM) re-deals what the forking caller could not see
FORK_STREAM = 0xF0C


def rules_version(ruleset: Ruleset) -> int:
    """The version of the rules this service plays ``ruleset`` by (1 until a ruleset declares one)."""
    return getattr(ruleset, "rules_version", 1)


# -- the format -----------------------------------------------------------------------------


def _list_of_objects(value) -> None:
    # Events are checked this cheaply: a nested marshmallow field per event costs more than replaying it.
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise ValidationError("a list of JSON objects")


class RecordSeatSchema(Schema):
    seat = fields.Integer(strict=True, required=True, validate=validate.Range(min=0, max=MAX_SEAT))
    name = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=64))
    bot = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=64))
    #: the app's player id of the seat (docs/competition.md); absent before format version 3
    player = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=82))


class ForkOriginSchema(Schema):
    game = fields.String(required=True, validate=validate.Length(min=1, max=64),
                         metadata={"description": "The id of the game this one was forked from."})
    version = fields.Integer(strict=True, required=True, validate=validate.Range(min=0),
                             metadata={"description": "The version of that game the fork starts from."})
    hidden_redealt = StrictBoolean(load_default=False, metadata={
        "description": "True when the origin was still running: what its creator could not see was re-dealt "
                       "and the random generator re-seeded."})


class RecordStartSchema(Schema):
    state = fields.Dict(required=True, metadata={
        "description": "The engine state the game started from (`format`, `ruleset`, `state`), instead of a "
                       "setup from `players`, `options` and `seed`."})


class LogEntrySchema(Schema):
    class Meta:
        ordered = True

    version = fields.Integer(strict=True, load_default=None, allow_none=True, validate=validate.Range(min=0), metadata={
        "description": "The game version this entry led to (each accepted action adds one)."})
    seat = fields.Integer(strict=True, required=True, validate=validate.Range(min=0, max=MAX_SEAT))
    kind = fields.String(load_default=ACTION, validate=validate.Length(min=1, max=64), metadata={
        "description": "`action`, or the kind of a seat change (`seat_joined`, `seat_to_bot`, ...)."})
    action = fields.Dict(load_default=None, allow_none=True, metadata={
        "description": "The action body (kind `action`); null where the caller may not see it yet."})
    timed_out = StrictBoolean(load_default=False, metadata={
        "description": "The service played this decision's default because its deadline passed."})
    name = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=64),
                         metadata={"description": "Seat changes: the seat's new player name."})
    bot = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=64),
                        metadata={"description": "Seat changes: the bot now playing the seat."})
    events = fields.Raw(load_default=None, allow_none=True, validate=_list_of_objects, metadata={
        "type": "array", "items": {"type": "object"},
        "description": "The engine events this entry caused (as far as the caller may see them); replay "
                       "compares them when present."})


class RecordSchema(Schema):
    """A game record, format version 2 (docs/records.md; version 1 is read too)."""

    class Meta:
        ordered = True

    format = fields.String(load_default=RECORD_FORMAT, validate=validate.Equal(RECORD_FORMAT))
    format_version = fields.Integer(load_default=RECORD_VERSION, strict=True, validate=validate.Range(
        min=1, max=RECORD_VERSION, error=f"a record format version this engine reads: 1 to {RECORD_VERSION}"),
        metadata={"description": f"The record format's version, 1 to {RECORD_VERSION} (docs/records.md); "
                                 "older ones are read in today's shape."})
    ruleset = fields.String(load_default=None, allow_none=True, validate=validate.Length(min=1, max=64))
    rules_version = fields.Integer(strict=True, load_default=None, allow_none=True, validate=validate.Range(min=1),
                                   metadata={
        "description": "The rules version the game was played by; absent: the service's current one."})
    game = fields.String(load_default=None, allow_none=True, metadata={"description": "The game's id, if any."})
    fork = fields.Nested(ForkOriginSchema, load_default=None, allow_none=True)
    players = fields.Integer(strict=True, required=True, validate=validate.Range(min=1, max=64))
    options = fields.Dict(load_default=dict)  # the ruleset's options schema checks the keys
    seats = fields.List(fields.Nested(RecordSeatSchema), load_default=list, validate=validate.Length(max=MAX_SEAT + 1))
    seed = fields.Integer(strict=True, load_default=None, allow_none=True, validate=validate.Range(min=0, max=MAX_SEED),
                          metadata={"description": "Null while the game runs (it would foretell every draw)."})
    salt = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=128))
    seed_commitment = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=128))
    seed_source = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(SEED_SOURCES))
    start = fields.Nested(RecordStartSchema, load_default=None, allow_none=True)
    setup_events = fields.Raw(load_default=None, allow_none=True, validate=_list_of_objects,
                              metadata={"type": "array", "items": {"type": "object"}})
    log = fields.List(fields.Nested(LogEntrySchema), load_default=list,
                      validate=validate.Length(max=MAX_LOG_ENTRIES))
    version = fields.Integer(strict=True, load_default=None, allow_none=True)
    status = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(["active", "finished"]))
    complete = StrictBoolean(load_default=None, allow_none=True)
    result = fields.Dict(load_default=None, allow_none=True)
    hint_counts = fields.List(fields.Integer(strict=True, ), load_default=None, allow_none=True, metadata={
        "description": "A stored game's hints asked per seat, where hints were on (null otherwise); not replayed."})


_RECORD_SCHEMA = RecordSchema()


class RecordError(ReasonedError):
    """A record that cannot be replayed at all (malformed, unknown ruleset, other rules, secrets withheld)."""


def load_record(data) -> dict:
    """The record ``data`` checked against the format and defaulted; ``RecordError`` saying what is wrong."""
    if not isinstance(data, dict):
        raise RecordError("invalid_record", "a record is a JSON object")
    # Lengths are checked before loading: marshmallow would deserialize every item before counting them.
    if isinstance(data.get("log"), list) and len(data["log"]) > MAX_LOG_ENTRIES:
        raise RecordError("record_too_long", f"a record has at most {MAX_LOG_ENTRIES} log entries",
                          fields={"log": [f"longer than {MAX_LOG_ENTRIES} entries"]})
    if isinstance(data.get("seats"), list) and len(data["seats"]) > MAX_SEAT + 1:
        raise RecordError("invalid_record", "too many seats", fields={"seats": [f"at most {MAX_SEAT + 1}"]})
    try:
        record = _RECORD_SCHEMA.load(data, unknown="exclude")
    except ValidationError as error:
        raise RecordError("invalid_record", "the record does not fit the record format",
                          fields=error.messages) from None
    return upgraded(record)


def upgraded(record: dict) -> dict:
    """A loaded record of an older format version restated in today's: each ruleset restates its own
    parts (its result, ``Ruleset.result_from_format``). A record of an unknown ruleset is left as it is
    (``ruleset_of`` refuses it)."""
    written = record["format_version"]
    if written == RECORD_VERSION:
        return record
    ruleset = all_rulesets().get(record["ruleset"] or "")
    if ruleset is not None and record["result"] is not None:
        record["result"] = ruleset.result_from_format(record["result"], written)
    record["format_version"] = RECORD_VERSION
    return record


def ruleset_of(record: dict) -> Ruleset:
    """The ruleset a loaded record names, if this engine plays it by the same rules version."""
    try:
        ruleset = get_ruleset(record["ruleset"] or "")
    except UnknownRuleset as unknown:
        raise RecordError("unknown_ruleset", unknown.message) from None
    played, current = record["rules_version"], rules_version(ruleset)
    if played is not None and played != current:
        raise RecordError("rules_version", f"this record was played by {ruleset.id} rules version {played}; this "
                          f"engine has version {current}, so replaying it here would not be the same game")
    return ruleset


def make_record(ruleset: Ruleset, *, players: int, options: dict, seed: int | None, log: list[dict],
                setup_events: list[dict], result: dict | None, version: int, seats: list[dict] | None = None,
                salt: str | None = None, commitment: str | None = None, seed_source: str | None = None,
                game: str | None = None, fork: dict | None = None, start: dict | None = None,
                played_rules_version: int | None = None, hint_counts: list[int] | None = None) -> dict:
    """A complete record (nothing withheld), fields in the documented order."""
    return {
        "format": RECORD_FORMAT, "format_version": RECORD_VERSION, "ruleset": ruleset.id,
        "rules_version": played_rules_version or rules_version(ruleset), "game": game, "fork": fork,
        "players": players, "options": options,
        "seats": seats if seats is not None else [{"seat": n, "name": f"seat {n}", "bot": None, "player": None}
                                                  for n in range(players)],
        "seed": seed, "salt": salt, "seed_commitment": commitment, "seed_source": seed_source, "start": start,
        "setup_events": setup_events, "log": log, "version": version,
        "status": "active" if result is None else "finished", "complete": True, "result": result,
        "hint_counts": hint_counts,
    }


def action_entry(version: int, seat: int, action: dict, events: list[dict], timed_out: bool = False) -> dict:
    return {"version": version, "seat": seat, "kind": ACTION, "action": action, "timed_out": timed_out,
            "events": events}


def seat_change_entry(version: int, event: dict) -> dict:
    """A seat change the service logged as event ``event`` (type ``seat_joined``, ``seat_to_bot``...)."""
    return {"version": version, "seat": event.get("seat", 0), "kind": event["type"], "action": None,
            "timed_out": False, "name": event.get("name"), "bot": event.get("bot"), "events": None}


# -- provable dice -------------------------------------------------------------------------


def canonical_json(value) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def state_digest(state_dict: dict) -> str:
    """SHA-256 of a state's canonical JSON: a fork's commitment covers its starting position too."""
    return hashlib.sha256(canonical_json(state_dict)).hexdigest()


def seed_commitment(seed: int, salt: str, start_digest: str | None = None) -> str:
    """``sha256:`` + hex SHA-256 of ``"<salt>:<seed>"`` (plus ``":<start digest>"`` for a fork)."""
    text = f"{salt}:{seed}" if start_digest is None else f"{salt}:{seed}:{start_digest}"
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def check_commitment(record: dict) -> bool | None:
    """True/False: the revealed seed and salt (and start) match the commitment; None: nothing to check."""
    if record["seed_commitment"] is None or record["seed"] is None or record["salt"] is None:
        return None
    start = record["start"]
    digest = None if start is None else state_digest(start["state"])
    return seed_commitment(record["seed"], record["salt"], digest) == record["seed_commitment"]


# -- replay -----------------------------------------------------------------------------------


@dataclass(slots=True)
class Divergence:
    """Where a replay stopped agreeing with the record (``index`` into the log; -1: setup, len(log): the end)."""

    index: int
    version: int | None
    reason: str
    message: str
    seat: int | None = None
    action: dict | None = None
    expected: object = None
    actual: object = None

    def to_dict(self) -> dict:
        body = {"index": self.index, "version": self.version, "reason": self.reason, "message": self.message,
                "seat": self.seat, "action": self.action}
        if self.expected is not None or self.actual is not None:
            body.update(expected=self.expected, actual=self.actual)
        return body


@dataclass(slots=True)
class Replay:
    ruleset: Ruleset
    state: object
    #: the setup's events, then each replayed log entry's engine events (dicts, ``visible_to`` kept)
    setup_events: list[dict]
    entry_events: list[list[dict]] = field(default_factory=list)
    #: None when the whole log replayed as recorded
    divergence: Divergence | None = None
    #: the result after the replayed entries (None: the game goes on)
    result: dict | None = None
    #: the commitment check: True, False, or None when there was nothing to check
    commitment_ok: bool | None = None

    @property
    def ok(self) -> bool:
        return self.divergence is None and self.commitment_ok is not False


def initial_state(ruleset: Ruleset, record: dict):
    """The state a record's game starts from: its fork's position, or a setup from its seed."""
    start = record["start"]
    if start is not None:
        try:
            state = ruleset.from_dict(start["state"])
        except Exception as error:  # any malformed JSON tree: the state classes check nothing themselves
            raise RecordError("invalid_record", f"start.state is not a {ruleset.id} state: {error!r}") from None
        if record["seed"] is not None and getattr(state, "rng", None) is not None and state.rng.seed != record["seed"]:
            raise RecordError("seed_mismatch", "start.state's random generator does not come from the record's seed")
        return state
    if record["seed"] is None:
        raise RecordError("seed_hidden", "the record has no seed (it is withheld until the game is finished)")
    try:
        return ruleset.new_game(record["players"], record["options"], record["seed"])
    except InvalidOptions as error:
        raise RecordError("invalid_options", error.message, fields=error.fields) from None


def replay(data, *, compare: bool = True, until_version: int | None = None) -> Replay:
    """Re-play a record on the engine.

    ``compare``: check the recorded setup events, each entry's events and the result against
    the engine's, and the seed commitment; the first disagreement (or illegal action) stops
    the replay and is reported as ``divergence``. ``until_version``: stop after the entries of
    that version. Raises ``RecordError`` for a record that cannot be replayed at all.
    """
    return _replay(load_record(data), compare, until_version)


def _replay(record: dict, compare: bool = True, until_version: int | None = None) -> Replay:
    ruleset = ruleset_of(record)
    state = initial_state(ruleset, record)
    setup = [] if record["start"] is not None else [event.to_dict() for event in ruleset.setup_events(state)]
    outcome = Replay(ruleset, state, setup)
    if compare:
        outcome.commitment_ok = check_commitment(record)
        if record["setup_events"] is not None and record["setup_events"] != setup:
            outcome.divergence = Divergence(-1, 0, "setup_differs", "the setup's events differ from the record's",
                                            expected=record["setup_events"], actual=setup)
            return outcome
    for index, entry in enumerate(record["log"]):
        if until_version is not None and entry["version"] is not None and entry["version"] > until_version:
            break
        divergence = _replay_entry(ruleset, state, index, entry, outcome, compare)
        if divergence is not None:
            outcome.divergence = divergence
            break
    result = ruleset.result(state)
    outcome.result = None if result is None else result.to_dict()
    if compare and outcome.divergence is None and until_version is None and record["status"] is not None:
        recorded = record["result"] if record["status"] == "finished" else None
        if outcome.result != recorded:
            outcome.divergence = Divergence(len(record["log"]), record["version"], "result_differs",
                                            "the replayed result differs from the record's",
                                            expected=recorded, actual=outcome.result)
    return outcome


def _replay_entry(ruleset: Ruleset, state, index: int, entry: dict, outcome: Replay,
                  compare: bool) -> Divergence | None:
    seat, version = entry["seat"], entry["version"]
    if entry["kind"] == ACTION and entry["action"] is None:
        raise RecordError("action_hidden", f"log entry {index} has no action body (it is withheld until the game "
                          "is finished)")
    try:
        if entry["kind"] != ACTION:
            # Who plays a seat is no concern of the rules, except a player joining a running game.
            played = ruleset.seat_changed(state, entry)
        else:
            action = ruleset.parse_action(entry["action"])
            ruleset.check(state, seat, action)
            played = ruleset.play(state, seat, action)
    except IllegalAction as error:
        return Divergence(index, version, error.reason, error.message, seat, entry["action"])
    events = [event.to_dict() for event in played]
    outcome.entry_events.append(events)
    if compare and entry["kind"] == ACTION and entry["events"] is not None and entry["events"] != events:
        return Divergence(index, version, "events_differ", f"the events of log entry {index} differ from the "
                          "record's", seat, entry["action"], expected=entry["events"], actual=events)
    return None


def evaluate(data, seat: int | None) -> dict:
    """Referee a record without storing anything: whether every logged action was legal (the first
    illegal one, with the engine's reason, stops the evaluation), then ``seat``'s view, its pending
    decisions, the events it may see, and the result if the game is over."""
    record = load_record(data)
    if record["start"] is not None:
        # A state from outside was never checked by the rules: it could break what they take for granted.
        raise RecordError("start_not_accepted", "evaluation sets a game up from players, options and seed; "
                          "it does not take a start state", fields={"start": ["not accepted here"]})
    outcome = _replay(record, compare=False)
    ruleset, state = outcome.ruleset, outcome.state
    players = record["players"]
    if seat is not None and not 0 <= seat < players:
        raise RecordError("invalid_seat", f"seat {seat} is not in this {players}-seat game",
                          fields={"seat": [f"must be between 0 and {players - 1}"]})
    pending = ruleset.pending(state)
    illegal = outcome.divergence
    return {
        "legal": illegal is None,
        "illegal": None if illegal is None else illegal.to_dict(),
        "applied": len(outcome.entry_events),
        "seat": seat,
        "status": "active" if outcome.result is None else "finished",
        "view": ruleset.view(state, seat),
        "decisions": [decision.to_dict() for decision in pending if decision.seat == seat],
        "waiting_for": sorted({decision.seat for decision in pending}),
        "setup_events": [event for event in outcome.setup_events if visible(event, seat)],
        "events": [[event for event in events if visible(event, seat)] for events in outcome.entry_events],
        "result": outcome.result,
    }


# -- what a caller may see ------------------------------------------------------------------


def visible(event: dict, seat: int | None) -> bool:
    seats = event.get("visible_to")
    return seats is None or (seat is not None and seat in seats)


def redact(record: dict, ruleset: Ruleset, seat: int | None) -> dict:
    """The part of a running game's full record that ``seat`` (None: a spectator) may see.

    The seed, salt and a fork's start position are withheld (they foretell every draw);
    events reach only their ``visible_to`` seats; another seat's action body is withheld
    unless the ruleset's actions are all public (``Ruleset.actions_public``).
    """
    shown = dict(record, seed=None, salt=None, start=None, complete=False)
    shown["setup_events"] = [e for e in record["setup_events"] or [] if visible(e, seat)]
    log = []
    for entry in record["log"]:
        entry = dict(entry)
        if entry.get("events") is not None:
            entry["events"] = [e for e in entry["events"] if visible(e, seat)]
        if entry.get("kind") == ACTION and entry.get("seat") != seat and not ruleset.actions_public:
            entry["action"] = None
        log.append(entry)
    shown["log"] = log
    return shown


# -- forks ------------------------------------------------------------------------------------


def fork_position(ruleset: Ruleset, state, *, finished: bool, seed: int):
    """The state a fork starts from: ``state`` itself when its game is finished; else the position
    as a spectator sees it, with everything hidden re-dealt and the RNG re-seeded from ``seed``, so
    the fork foretells neither the original's hidden cards nor its next draws."""
    if finished:
        return ruleset.copy(state)
    position = ruleset.resample_hidden(state, None, Rng(derive_seed(seed, FORK_STREAM)))
    position.rng = Rng(seed)
    return position
