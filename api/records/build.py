"""A stored game as a record: the full one, and the part a caller may see while it runs."""

from __future__ import annotations

import json

from api.play.game_record import OVER, GameRecord
from api.play.moves import load_state
from api.play.store import GameStore
from engine.core.registry import get_ruleset
from engine.records import action_entry, make_record, redact, seat_change_entry

#: events the service itself logs; they are told by the record's structure, not as engine events
GAME_CREATED = "game_created"
TABLE_STARTED = "table_started"
TIMED_OUT = "timed_out"
#: seat changes (joins, hand-overs to bots...) are logged as events whose type starts so
SEAT_CHANGE_PREFIX = "seat_"


def full_record(store: GameStore, game: GameRecord) -> dict:
    """Everything: seed, salt, a fork's start, every action and every event (``visible_to`` kept)."""
    ruleset = get_ruleset(game.ruleset)
    fields = store.record_fields(game.id)
    setup_events, log = record_log(store.log(game.id))
    result = ruleset.result(load_state(ruleset, game))
    start = fields.get("start")
    return make_record(
        ruleset, players=game.players, options=json.loads(fields.get("options", "{}")), seed=game.seed,
        log=log, setup_events=setup_events, result=None if result is None else result.to_dict(),
        version=game.version, seats=[{"seat": n, "name": seat.get("name"), "bot": seat.get("bot"),
                                      "player": seat.get("player")} for n, seat in enumerate(game.seats)],
        salt=fields.get("salt"), commitment=game.seed_commitment, seed_source=fields.get("seed_source"),
        game=game.id, fork=json.loads(fields["fork"]) if "fork" in fields else None,
        start=None if start is None else {"state": json.loads(start)},
        played_rules_version=int(fields["rules_version"]) if "rules_version" in fields else None,
        hint_counts=game.hint_counts,
    )


def record_for(store: GameStore, game: GameRecord, seat: int | None) -> dict:
    """The record as ``seat`` (None: a spectator or the creator) may read it now: all of it once the
    game is over (finished, or aborted: nobody plays it any more), else without the secrets
    (``engine.records.redact``)."""
    record = full_record(store, game)
    if game.status in OVER:
        return record
    return redact(record, get_ruleset(game.ruleset), seat)


def record_log(entries: list[tuple[str, int, dict]]) -> tuple[list[dict], list[dict]]:
    """A game's stored log (``GameStore.log``) as a record's ``setup_events`` and ``log`` entries."""
    setup_events: list[dict] = []
    log: list[dict] = []
    action: dict | None = None  # the log entry of the action whose events are being read
    # A game created with open seats is set up when it starts (api/seats): its setup events come
    # at that version, and the seat changes before it filled the table, not the game.
    setup_version = table_started_version(entries)
    for kind, version, data in entries:
        if kind == "a":
            action = action_entry(version, data["seat"], data["action"], [])
            log.append(action)
        elif version < setup_version:
            continue
        elif data["type"].startswith(SEAT_CHANGE_PREFIX):
            log.append(seat_change_entry(version, data))
        elif version == setup_version:
            if data["type"] not in (GAME_CREATED, TABLE_STARTED):
                setup_events.append(data)
        elif action is not None and action["version"] == version:
            if data["type"] == TIMED_OUT and data.get("seat") == action["seat"]:
                action["timed_out"] = True
            else:
                action["events"].append(data)
    return setup_events, log


def table_started_version(entries: list[tuple[str, int, dict]]) -> int:
    """The version at which the game was set up: 0, or a game created with open seats when it started."""
    return next((version for kind, version, data in entries if kind == "e" and data["type"] == TABLE_STARTED), 0)
