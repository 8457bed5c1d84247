"""A game as a caller reads it: the body of ``GET /v1/games/{id}`` (a stream's first line shows part of
it), its events as a seat may see them, who it waits for and until when."""

from __future__ import annotations

from api.games.schemas import StreamStateSchema
from api.ground.times import iso_time
from api.play import deadlines
from api.play.game_record import ACTIVE, WAITING, GameRecord, StoredEvent
from api.play.moves import load_state
from api.play.table import public_seats
from engine.core.registry import get_ruleset
from engine.records import visible


def event_entries(events: list[StoredEvent], seat: int | None) -> list[dict]:
    return [{"cursor": e.cursor, "version": e.version, "event": e.event} for e in events if visible(e.event, seat)]


def waiting_for(decisions) -> list[int]:
    return sorted({decision.seat for decision in decisions})


def deadline_time(record, decisions) -> str | None:
    due = deadlines.deadline_of(record, decisions)
    return None if due is None else iso_time(due)


#: The game's fields on a stream's first line (``StreamStateSchema`` documents them), as GET shows them.
STREAM_STATE_FIELDS = tuple(name for name in StreamStateSchema().fields if name not in ("kind", "cursor"))


def game_body(record: GameRecord, role: str, seat: int | None) -> tuple[dict, list]:
    """The game as ``role``/``seat`` sees it (``GET /v1/games/{id}``; a stream's first line shows part of
    it), and its pending decisions."""
    ruleset = get_ruleset(record.ruleset)
    state = None if record.status == WAITING else load_state(ruleset, record)
    result = None if state is None else ruleset.result(state)
    pending = ruleset.pending(state) if state is not None and record.status == ACTIVE else []  # aborted: none
    body = {
        "id": record.id, "ruleset": record.ruleset, "rules_version": record.rules_version,
        "version": record.version, "status": record.status,
        "role": role, "seat": seat, "seats": public_seats(record.seats), "waiting_for": waiting_for(pending),
        "view": None if state is None else ruleset.view(state, seat),
        "result": None if result is None else result.to_dict(),
        "created": iso_time(record.created), "updated": iso_time(record.updated),
        "decision_timeout": record.decision_timeout, "deadline": deadline_time(record, pending),
        "seed_commitment": record.seed_commitment,
        "listed": record.listed, "hints": record.hint_counts is not None, "hint_counts": record.hint_counts,
        "win_chances": record.win_chances, "rated": record.rated, "tournament": record.tournament,
    }
    return body, pending
