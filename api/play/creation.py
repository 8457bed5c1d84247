"""Creating a game: store its version 0, then do what that version owes (api/play/after.py).

The HTTP creation (``POST /v1/games``, forks included) and the tournaments' tables both create
through ``create``; what they differ in (who may create, what the app is charged, the answer) stays
with them.
"""

from __future__ import annotations

from dataclasses import dataclass

from api.play.after import after_version
from api.play.game_record import GameRecord, NewGameRecord
from api.play.store import GameStore
from engine.core.decisions import Decision


@dataclass(slots=True)
class Created:
    record: GameRecord
    #: the cursors of its first events
    cursors: list[str]
    #: when its first deadline is due (None: no deadline runs)
    deadline: float | None


def create(store: GameStore, new: NewGameRecord, pending: list[Decision], result: dict | None = None) -> Created:
    """Store ``new`` (``pending``: its first version's decisions; ``result``: a game its setup finished)
    and do what its version 0 owes."""
    cursors = store.create(new)
    record = new.record()
    due = after_version(store, record, pending, result=result, since=new.created, created=True)
    return Created(record, cursors, due)
