"""A game as the store reads and writes it: its statuses, ``GameRecord`` (one version, read back),
``NewGameRecord`` (version 0, as created), a commit's outcome and a stored event, and how the hash's
fields (api/play/game_keys.py) become a record."""

from __future__ import annotations

import json
from dataclasses import dataclass

from api.play.game_keys import token_digest

#: a game with open seats that has not started: no state yet (api/seats)
WAITING = "waiting"
ACTIVE = "active"
FINISHED = "finished"
#: a game stopped before its end by the service (its tournament was cancelled): no result, unrated, kept
ABORTED = "aborted"
#: the statuses of a game that takes no more moves
OVER = (FINISHED, ABORTED)

GAME_FIELDS = ("ruleset", "version", "status", "state", "seats", "players", "seed", "created", "updated",
                "decision_timeout", "app", "commitment", "marks", "options", "listed", "rules_version", "hints",
                "hints_at", "hints_pending", "chat", "rated", "tournament", "win_chances", "bot_run")
#: fields of the game hash that only the records room reads (api/records): how the game was made
RECORD_FIELDS = ("options", "salt", "seed_source", "fork", "start", "rules_version")
#: Games stored before rules versions existed carry none: they were played under each ruleset's version 1.
FIRST_RULES_VERSION = 1


def fields_to_read(token: str | None) -> list[str]:
    """The hash fields a ``GameRecord`` is read from, plus the token's role when there is a token."""
    return [*GAME_FIELDS, f"t:{token_digest(token)}"] if token is not None else list(GAME_FIELDS)


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
class StoredEvent:
    cursor: str
    version: int
    event: dict  # Event.to_dict(), with "visible_to" when it is not public


def record_of(game_id: str, values: list, with_token: bool) -> GameRecord:
    (ruleset, version, status, state, seats, players, seed, created, updated, timeout, app, commitment, marks,
     options, listed, rules_version, hints, hints_at, hints_pending, chat, rated, tournament,
     win_chances, bot_run) = values[: len(GAME_FIELDS)]
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


def events_of(entries) -> list[StoredEvent]:
    return [StoredEvent(cursor, int(fields["v"]), json.loads(fields["d"]))
            for cursor, fields in entries if fields.get("k") == "e"]


def idempotent_outcome(stored: dict) -> dict:
    record = json.loads(stored["r"])
    cursors = stored.get("c", "")
    record["cursors"] = cursors.split(",") if cursors else []
    record["version"] = int(stored["v"])
    return record
