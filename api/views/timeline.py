"""A game's past positions, cheap to step through.

A position at version N is the game set up from its seed (or its fork's start) with every log entry
of version N or less played again. Replaying a long game from the start for every step would cost
the whole log each time, so each process keeps, for the games replayed lately, the log read so far
(only new stream entries are read again) and the state every ``CHECKPOINT_EVERY`` entries: one step
costs at most that many entries played from the nearest checkpoint. The log only grows, so what is
kept stays true; a game deleted or expired is simply not found by the caller first.
"""

from __future__ import annotations

import bisect
import json
import threading
from dataclasses import dataclass, field

from api.ground.metrics import track_cache
from api.play.game_record import WAITING, GameRecord
from api.play.store import GameStore
from api.records.build import record_log, table_started_version
from engine.core.bounded import BoundedCache
from engine.core.ruleset import Ruleset
from engine.records import ACTION, initial_state

#: a checkpoint every this many log entries: the most entries one step replays
CHECKPOINT_EVERY = 50
#: games whose timelines one process keeps by default (``TIMELINE_GAMES``; the least recently read goes
#: first); a game of the longest log (20,000 entries) keeps 400 checkpoints of a few kB each
KEPT_GAMES = 32


@dataclass
class Timeline:
    """One game's log so far and its checkpoints: entry index -> the state's JSON after that many entries."""

    cursor: str = "0"
    raw: list[tuple[str, int, dict]] = field(default_factory=list)
    setup_version: int = 0
    log: list[dict] = field(default_factory=list)
    versions: list[int] = field(default_factory=list)
    checkpoints: dict[int, str] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def catch_up(self, store: GameStore, game_id: str) -> None:
        new, self.cursor = store.log_after(game_id, self.cursor)
        if new or not self.versions:
            self.raw.extend(new)
            self.setup_version = table_started_version(self.raw)
            _, self.log = record_log(self.raw)
            self.versions = [entry["version"] for entry in self.log]


class Timelines:
    def __init__(self, size: int = KEPT_GAMES) -> None:
        self.lock = threading.Lock()
        self._games: BoundedCache[str, Timeline] = BoundedCache(size)

    def resize(self, size: int) -> None:
        """A new bound (``TIMELINE_GAMES``), applied from the next game read."""
        self._games.resize(size)

    def sizes(self) -> tuple[int, int]:
        return self._games.sizes()

    def of(self, game_id: str) -> Timeline:
        with self.lock:
            timeline = self._games.pop(game_id) or Timeline()
            self._games.put(game_id, timeline)
            return timeline

    def state_at(self, store: GameStore, ruleset: Ruleset, game: GameRecord, version: int):
        """The game's state after every log entry of ``version`` or less; None before the table started
        (a game created with open seats has no position until then)."""
        if game.status == WAITING:  # not set up yet: it is when the table starts (``table_started``)
            return None
        timeline = self.of(game.id)
        with timeline.lock:
            timeline.catch_up(store, game.id)
            if version < timeline.setup_version:
                return None
            played = bisect.bisect_right(timeline.versions, version)
            start = max((index for index in timeline.checkpoints if index <= played), default=None)
            if start is None:
                state, start = _setup(store, ruleset, game), 0
                timeline.checkpoints[0] = json.dumps(ruleset.to_dict(state))
            else:
                state = ruleset.from_dict(json.loads(timeline.checkpoints[start]))
            for index in range(start, played):
                _play(ruleset, state, timeline.log[index])
                if (index + 1) % CHECKPOINT_EVERY == 0:
                    timeline.checkpoints[index + 1] = json.dumps(ruleset.to_dict(state))
            return state


def _setup(store: GameStore, ruleset: Ruleset, game: GameRecord):
    fields = store.record_fields(game.id)
    start = fields.get("start")
    return initial_state(ruleset, {
        "start": None if start is None else {"state": json.loads(start)}, "seed": game.seed,
        "players": game.players, "options": json.loads(fields.get("options", "{}")),
    })


def _play(ruleset: Ruleset, state, entry: dict) -> None:
    """One logged entry again: the service checked it when it was accepted."""
    if entry["kind"] == ACTION:
        ruleset.play(state, entry["seat"], ruleset.parse_action(entry["action"]))
    else:
        ruleset.seat_changed(state, entry)


timelines = Timelines()
track_cache("timelines", timelines.sizes)
