"""The event types the service itself logs in a game's event stream, beside the ruleset's own
(``Ruleset.event_types``): a client that puts events in words needs both lists."""

from __future__ import annotations

from engine.core.ruleset import Ruleset

#: game_created opens every log; table_started and the seat_* events are seat changes (api/seats);
#: timed_out precedes the events of a default played for a seat whose time ran out (api/play/deadlines);
#: game_aborted ends a game the service stopped (a cancelled tournament's table, api/play/table.py)
SERVICE_EVENT_TYPES: tuple[str, ...] = (
    "game_created", "table_started", "seat_joined", "seat_left", "seat_removed", "seat_to_bot", "timed_out",
    "game_aborted",
)


def event_types(ruleset: Ruleset) -> list[str]:
    """Every event type a game of ``ruleset`` can show in its event stream."""
    return [*SERVICE_EVENT_TYPES, *ruleset.event_types]
