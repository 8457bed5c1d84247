"""Who outside the game's room hears of its versions and of its deletion (api/play/after.py): set once per
process on the store (``GameStore.listeners``, by api/service/game_listeners.py), so that this package imports none
of them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol


class Emitter(Protocol):
    """An app's webhooks (``api.apps.webhooks.Webhooks``)."""

    def emit(self, app_id: str, event_type: str, data: dict) -> object: ...


#: a room told of a game version: (store, the game as written)
Listener = Callable[[Any, Any], None]
#: a room told of a seat a named player took: (store, the game as written, the seat, the player)
JoinListener = Callable[[Any, Any, int, str], None]


@dataclass(slots=True)
class Listeners:
    webhooks: Emitter | None = None
    #: told of each new game (its version 0)
    created: tuple[Listener, ...] = field(default_factory=tuple)
    #: told of each version that finished its game
    finished: tuple[Listener, ...] = field(default_factory=tuple)
    #: told of each game deleted (the game as it was), to forget what they keep of it
    deleted: tuple[Listener, ...] = field(default_factory=tuple)
    #: told of each seat a named player took (``Table.join`` with a player)
    joined: tuple[JoinListener, ...] = field(default_factory=tuple)
