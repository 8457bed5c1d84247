"""Tournaments of an app (docs/competition.md, "Tournaments"): the service creates each round's games,
and starts the next round itself once every game of a round has finished (the move that finishes
the round's last game does it, and the worker sweep, every few seconds, does whatever that missed).

Keys (control Redis; read and written by ``api.competition.tournament_store``):

- ``tournament:{<id>}``   hash: ``app``, ``spec`` (JSON: ruleset, rules_version, format, table_size,
  entrants, rounds, seed, decision_timeout, options, rated), ``status`` (``running``, ``finished``,
  ``cancelled``), ``reason`` (why it ended; while it runs, ``search_quota`` when its next round waits
  for the app's search work, ``api.competition.round_room``), ``round`` (the current round, from 0),
  ``created``, ``updated``, and one ``round:<n>`` per round started (JSON: its tables, each ``{game,
  entrants, seed, tokens, ranks}``, ``started`` / ``finished`` times and the ``charge`` of its search
  reservation). Seat tokens are kept here in clear: the app's secret key reads them through ``GET
  /v1/tournaments/{id}``, and no webhook carries them. Renewed while the tournament runs (``_keep``).
- ``tournament:{<id>}:lock``  held while a round is checked, started or cancelled (one process at a time).
- ``app:{<app>}:tournaments`` sorted set of the app's tournaments (score: creation time).
- ``tournaments:running``     due-time index of the running tournaments (``api.competition.due``), for the sweep.
- ``closed:{<game>}``         a table of a running duplicate round (``api.competition.closed_round``): it
  lives and is renewed with the tournament's hash, and is deleted when the round ends.
"""

from __future__ import annotations

import contextlib
import json
import logging
import secrets
import time
from dataclasses import dataclass

from api.apps.app_store import AppKeys
from api.apps.notify import hooks
from api.apps.quotas import Life, Lives
from api.competition import round_room
from api.competition.games import final_ranks, rate_game
from api.competition.tournament_store import TOURNAMENT_TTL, tournament_store
from api.http.problems import ApiProblem
from api.play import creation
from api.play.game_keys import token_digest
from api.play.game_record import ACTIVE, FINISHED, OVER, NewGameRecord
from api.play.preconditions import next_marks
from api.play.store import GameStore
from api.play.table import Table, public_seats
from api.records.creation import sealed
from engine.competition import TableResult, TournamentPlan, plan_round, standings, table_seeds
from engine.competition.pairing import DUPLICATE
from engine.core.registry import get_ruleset

log = logging.getLogger("rulehouse.tournaments")

RUNNING, DONE, CANCELLED = "running", "finished", "cancelled"
#: A running tournament's life (and its closed marks') is renewed when less than this is left of it.
RENEW_AFTER_SECONDS = 24 * 3600
#: The sweep looks at a running tournament again this long after its last look (the move that ends a
#: round starts the next at once: the sweep is for what a lost process missed, or a round that waits).
RECHECK_SECONDS = 20
#: Running tournaments claimed at a time, and at most so many batches in one sweep (the rest come next).
SWEEP_BATCH, SWEEP_BATCHES = 100, 10
#: A cancellation waits this long for a round check or start in progress.
CANCEL_WAIT_SECONDS = 10
#: ``reason`` of a running tournament whose next round waits for the app's search work of the day.
WAITING_FOR_SEARCH = "search_quota"
#: A table whose game is gone (expired before it finished) counts as everyone tied.
GONE = "gone"


@dataclass(frozen=True, slots=True)
class Spec:
    ruleset: str
    rules_version: int
    format: str
    table_size: int
    entrants: tuple[str, ...]
    rounds: int
    seed: int
    decision_timeout: int | None
    options: dict
    rated: bool

    @property
    def plan(self) -> TournamentPlan:
        return TournamentPlan(self.format, self.entrants, self.table_size, self.rounds, self.seed)

    def to_dict(self) -> dict:
        return {"ruleset": self.ruleset, "rules_version": self.rules_version, "format": self.format,
                "table_size": self.table_size, "entrants": list(self.entrants), "rounds": self.rounds,
                "seed": self.seed, "decision_timeout": self.decision_timeout, "options": self.options,
                "rated": self.rated}

    @classmethod
    def from_dict(cls, data: dict) -> Spec:
        return cls(**{**data, "entrants": tuple(data["entrants"])})


def bot_of(entrant: str) -> str | None:
    """The bot that plays ``bot:<bot>[#<tag>]``; None for a person."""
    return entrant[4:].split("#")[0] if entrant.startswith("bot:") else None


def new_id() -> str:
    return "t" + secrets.token_hex(8)


def create(store: GameStore, app_id: str, spec: Spec, tournament_id: str | None = None) -> str:
    """Store a new tournament (``tournament_id``, else a new one) and start its first round; its id. The
    first round's search room is reserved first: without it, the quota problem and nothing stored."""
    tournament_id = tournament_id or new_id()
    tables = _tables(spec, 0, [])
    held = round_room.reserve(store, app_id, spec.ruleset, _bots(tables), tournament_id, 0)
    now = time.time()
    try:
        tournament_store(store).create(tournament_id, app_id, {
            "app": app_id, "spec": json.dumps(spec.to_dict()), "status": RUNNING, "reason": "", "round": "0",
            "created": repr(now), "updated": repr(now)}, now)
        _make_round(store, tournament_id, app_id, spec, 0, tables, held)
    except Exception:
        round_room.release(store, held)  # no round runs on it
        raise
    # Only now does the sweep look at it: its first round exists.
    tournament_store(store).watch_running(tournament_id, now + RECHECK_SECONDS)
    return tournament_id


def load(store: GameStore, tournament_id: str) -> dict | None:
    """The stored tournament: its fields with ``spec`` a ``Spec`` and ``rounds`` the rounds started."""
    data = tournament_store(store).fields(tournament_id)
    if not data:
        return None
    spec = Spec.from_dict(json.loads(data["spec"]))
    rounds = [json.loads(data[f"round:{n}"]) for n in range(spec.rounds) if f"round:{n}" in data]
    return {"id": tournament_id, "app": data["app"], "spec": spec, "status": data["status"],
            "reason": data["reason"] or None, "round": int(data["round"]), "created": float(data["created"]),
            "updated": float(data["updated"]), "rounds": rounds}


def quota_lives(store: GameStore) -> Lives:
    """The tournaments an app's ``live_games`` quota holds (``api.apps.quotas.Census``): ended once no longer
    running."""
    return lambda ids: [None if status is None else Life(status != RUNNING)
                        for status in tournament_store(store).statuses(ids)]


def results_of(rounds: list[dict]) -> list[TableResult]:
    """The finished tables of ``rounds`` as the engine's standings read them."""
    return [TableResult(number, index, tuple(table["entrants"]), tuple(table["ranks"]))
            for number, played in enumerate(rounds) for index, table in enumerate(played["tables"])
            if table["ranks"] is not None]


def current_standings(tournament: dict) -> list[dict]:
    spec = tournament["spec"]
    return [standing.to_dict() for standing in standings(spec.entrants, results_of(tournament["rounds"]),
                                                         duplicate=spec.format == DUPLICATE)]


def advance(store: GameStore, tournament_id: str) -> str:
    """Look at the current round: when every game has finished, note its results and start the next
    round (or finish the tournament). Says what happened: ``waiting``, ``started <n>``, ``finished``,
    ``cancelled``, ``busy`` (another process is at it) or ``gone``."""
    with _locked(store, tournament_id) as held:
        return _advance(store, tournament_id) if held else "busy"


def cancel(store: GameStore, tournament_id: str) -> str | None:
    """The app's cancellation (``DELETE /v1/tournaments/{id}``): a running tournament ends ``cancelled``
    (reason ``app_cancelled``), its unfinished games end as aborted (unrated, kept), its standings are
    those of the rounds that ended. The status it has now (``finished`` stays so); None while another
    process holds it for longer than ``CANCEL_WAIT_SECONDS``."""
    with _locked(store, tournament_id, wait=CANCEL_WAIT_SECONDS) as held:
        if not held:
            return None
        tournament = load(store, tournament_id)
        if tournament is None:
            return GONE
        if tournament["status"] != RUNNING:
            return tournament["status"]
        return _end(store, tournament, CANCELLED, "app_cancelled")


@contextlib.contextmanager
def _locked(store: GameStore, tournament_id: str, wait: float = 0.0):
    """The tournament's lock (one process at a time checks or changes it), waiting up to ``wait`` seconds
    for it: yields whether it is held."""
    tournaments = tournament_store(store)
    deadline = time.monotonic() + wait
    while not (held := tournaments.lock(tournament_id)) and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        yield held
    finally:
        if held:
            tournaments.unlock(tournament_id)


def _advance(store: GameStore, tournament_id: str) -> str:
    tournament = load(store, tournament_id)
    if tournament is None:
        tournament_store(store).leave_running(tournament_id)
        return "gone"
    if tournament["status"] != RUNNING:
        # A cancellation that died halfway is finished here: its games end, and it leaves the index.
        return _end(store, tournament, tournament["status"], tournament["reason"], tell=False)
    spec, number = tournament["spec"], tournament["round"]
    if get_ruleset(spec.ruleset).rules_version != spec.rules_version:
        # Its games cannot go on under other rules (410 rules-version): the standings stay those of the
        # rounds played to the end.
        return _end(store, tournament, CANCELLED, "rules_version")
    if number >= len(tournament["rounds"]):
        return "waiting"  # the round is being started (or its start died: see ``create``)
    played = tournament["rounds"][number]
    if played["finished"] is None:
        statuses = _statuses(store, [table["game"] for table in played["tables"]])
        if any(status not in (*OVER, GONE) for status in statuses):
            _keep(store, tournament)
            return "waiting"
        _note_results(store, tournament, played, statuses)
    if number + 1 >= spec.rounds:
        return _end(store, tournament, DONE, None)
    return _start_round(store, tournament, number + 1)


def _note_results(store: GameStore, tournament: dict, played: dict, statuses: list[str]) -> None:
    """The round has ended: its places, its tables open, its rated games rated, its reservation given back."""
    for table, status in zip(played["tables"], statuses, strict=True):
        record = None if status == GONE else store.load(table["game"])
        ranks = None if record is None else final_ranks(store, record)
        # A game that expired (or cannot be read under today's rules) scores nobody: every seat ties.
        table["ranks"] = ranks if ranks is not None else [1] * len(table["entrants"])
    # Opened before it is noted as ended: a process that dies in between leaves the round to be noted
    # (and opened: each step is idempotent) again.
    _open(store, tournament, played)
    played["finished"] = time.time()
    number = tournament["round"]
    tournament_store(store).update(tournament["id"], {f"round:{number}": json.dumps(played),
                                                      "updated": repr(time.time())})
    tournament["rounds"][number] = played


def _open(store: GameStore, tournament: dict, played: dict) -> None:
    """A round is over (or its tournament): its tables open, and its finished rated games, whose ratings
    waited for the round's end, are rated now; its search reservation is given back."""
    tournament_store(store).open_tables([table["game"] for table in played["tables"]])
    if tournament["spec"].rated:
        for table in played["tables"]:
            rate_game(store, tournament["app"], table["game"])
    round_room.release(store, played.get("charge"))


def _keep(store: GameStore, tournament: dict) -> None:
    """A running tournament lives as long as it runs, and so do the closed marks of its current round:
    both are renewed together, whatever the games' TTLs (once a day at most)."""
    tournaments = tournament_store(store)
    if tournaments.time_left(tournament["id"]) > TOURNAMENT_TTL - RENEW_AFTER_SECONDS:
        return
    closed = [table["game"] for table in tournament["rounds"][tournament["round"]]["tables"]] \
        if tournament["spec"].format == DUPLICATE else []
    tournaments.renew(tournament["id"], closed)


def _statuses(store: GameStore, game_ids: list[str]) -> list[str]:
    return [GONE if status is None else status for status in store.statuses(game_ids)]


def _end(store: GameStore, tournament: dict, status: str, reason: str | None, *, tell: bool = True) -> str:
    """The tournament ends (``finished``, or ``cancelled`` with its reason): the games of a round that had
    not ended are aborted (unrated, kept), every table opens, and it leaves the sweep's index last, so a
    process that dies halfway leaves the rest to the next sweep."""
    tournament_id = tournament["id"]
    if tournament["status"] != status:  # else a sweep finishes what an ending process left
        tournament_store(store).update(tournament_id, {"status": status, "reason": reason or "",
                                                       "updated": repr(time.time())})
    for played in tournament["rounds"]:
        if played["finished"] is None:  # the rounds that ended were opened then
            for table in played["tables"]:
                Table(store).abort(table["game"], f"tournament_{status}")
            _open(store, tournament, played)
    tournament_store(store).leave_running(tournament_id)
    if tell:
        _tell(tournament["app"], "tournament.finished", {
            "tournament": tournament_id, "status": status, "reason": reason,
            "standings": current_standings(tournament)})
    return status


def _tables(spec: Spec, number: int, rounds: list[dict]) -> list[tuple[str, ...]]:
    """The entrants of each table of round ``number``, by seat."""
    return plan_round(spec.plan, number, results_of(rounds), [[t["entrants"] for t in r["tables"]] for r in rounds])


def _bots(tables: list[tuple[str, ...]]) -> list[str | None]:
    return [bot_of(entrant) for table in tables for entrant in table]


def _start_round(store: GameStore, tournament: dict, number: int) -> str:
    """Start round ``number`` when the app's search work of the day has room for it (``round_room``); else
    it waits (``reason: search_quota``) and the sweep tries again. Says ``started <n>`` or ``waiting``."""
    tournament_id, app_id, spec = tournament["id"], tournament["app"], tournament["spec"]
    tables = _tables(spec, number, tournament["rounds"])
    try:
        held = round_room.reserve(store, app_id, spec.ruleset, _bots(tables), tournament_id, number)
    except ApiProblem:
        if tournament["reason"] != WAITING_FOR_SEARCH:
            tournament_store(store).update(tournament_id, {"reason": WAITING_FOR_SEARCH,
                                                           "updated": repr(time.time())})
        _keep(store, tournament)
        return "waiting"
    _make_round(store, tournament_id, app_id, spec, number, tables, held)
    return f"started {number}"


def _make_round(store: GameStore, tournament_id: str, app_id: str, spec: Spec, number: int,
                tables: list[tuple[str, ...]], held: str | None) -> None:
    seeds = table_seeds(spec.plan, number, len(tables))
    made = []
    for entrants, seed in zip(tables, seeds, strict=True):
        game_id, tokens = create_table_game(store, app_id, spec, list(entrants), seed, tournament_id)
        made.append({"game": game_id, "entrants": list(entrants), "seed": seed, "tokens": tokens, "ranks": None})
    # A duplicate round's marks live as the tournament does (renewed with it by ``_keep``), not as the games.
    tournament_store(store).write_round(tournament_id, {
        f"round:{number}": json.dumps({"tables": made, "started": time.time(), "finished": None, "charge": held}),
        "round": str(number), "reason": "", "updated": repr(time.time())},
        [table["game"] for table in made] if spec.format == DUPLICATE else [])
    _tell(app_id, "tournament.round_started", {"tournament": tournament_id, "round": number,
                                                "games": [table["game"] for table in made]})


def create_table_game(store: GameStore, app_id: str, spec: Spec, entrants: list[str], seed: int,
                      tournament_id: str) -> tuple[str, dict[str, str]]:
    """Create and start one table's game (the service's own creation: no invites, no creator token);
    its id and the seat token of each person at it, by entrant."""
    ruleset = get_ruleset(spec.ruleset)
    state = ruleset.new_game(len(entrants), spec.options, seed)
    game_id = secrets.token_hex(8)
    seats = [{"name": entrant, "bot": bot_of(entrant), "player": entrant} for entrant in entrants]
    tokens = {entrant: secrets.token_urlsafe(24) for entrant in entrants if bot_of(entrant) is None}
    digests = {token_digest(tokens[entrant]): str(seat) for seat, entrant in enumerate(entrants) if entrant in tokens}
    provenance = sealed(seed, "service")
    status = ACTIVE if ruleset.result(state) is None else FINISHED
    pending = ruleset.pending(state) if status == ACTIVE else []
    events = [{"type": "game_created", "ruleset": ruleset.id, "rules_version": ruleset.rules_version,
               "players": len(seats), "seats": public_seats(seats), "seed_commitment": provenance["commitment"],
               "fork": None, "tournament": tournament_id},
              *(event.to_dict() for event in ruleset.setup_events(state))]
    result = ruleset.result(state)
    creation.create(store, NewGameRecord(
        game_id, ruleset=ruleset.id, rules_version=ruleset.rules_version, state=json.dumps(ruleset.to_dict(state)),
        status=status, seats=seats, seed=seed, options=spec.options, tokens=digests, events=events,
        marks=next_marks(pending, None, 0), created=time.time(), decision_timeout=spec.decision_timeout,
        app=app_id, provenance=provenance, chat=True, rated=spec.rated, tournament=tournament_id),
        pending, result=None if result is None else result.to_dict())
    store.beside(AppKeys).own(app_id, "games", game_id, store.game_ttl)
    return game_id, tokens


def _tell(app_id: str, event_type: str, data: dict) -> None:
    try:
        hooks().emit(app_id, event_type, data)
    except Exception:  # a webhook must never stop a tournament
        log.exception("%s webhook for tournament %s failed", event_type, data.get("tournament"))


def sweep(store: GameStore) -> int:
    """Advance every running tournament that is due (``api.competition.due``: each is looked at again
    ``RECHECK_SECONDS`` after the last look, whatever other apps' tournaments wait); the number of rounds
    started or tournaments ended."""
    def look(tournament_ids: list[str]) -> int:
        moved = 0
        for tournament_id in tournament_ids:
            try:
                moved += advance(store, tournament_id) not in ("waiting", "busy")
            except Exception:
                log.exception("tournament %s could not advance", tournament_id)
        return moved

    return tournament_store(store).drain_running(look, batch=SWEEP_BATCH, recheck=RECHECK_SECONDS,
                                                 max_batches=SWEEP_BATCHES)
