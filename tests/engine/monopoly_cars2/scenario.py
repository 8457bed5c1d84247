"""Scripted Monopoly: Cars 2 positions: a state built directly, with spins from a list."""

from __future__ import annotations

from engine.core.events import Event
from engine.core.registry import get_ruleset
from engine.core.rng import Rng
from engine.games.monopoly_cars2.state import NOBODY, ROLL, GameState
from engine.games.monopoly_cars2.tables import DEFAULT_TABLES

RULESET = get_ruleset("monopoly-cars2")
BOARD = DEFAULT_TABLES.board
CARDS = DEFAULT_TABLES.cards
FAIR = [1, 2, 3, 4, 5, 6]


class ScriptedSpins(Rng):
    """An Rng whose spinner results come from a list, in order; running out fails the test."""

    def __init__(self, spins: list[int], faces: list[int] = FAIR) -> None:
        super().__init__(0)
        self.spins = list(spins)
        self.faces = faces

    def randint(self, low: int, high: int) -> int:
        assert (low, high) == (0, len(self.faces) - 1), f"unexpected draw in [{low}, {high}]"
        assert self.spins, "the scenario spun more often than scripted"
        return self.faces.index(self.spins.pop(0))


def space(space_id: str) -> int:
    return BOARD.by_id[space_id]


def card(kind: str, **fields) -> int:
    """The index of the first published card of ``kind`` whose fields match."""
    for candidate in CARDS:
        if candidate.kind == kind and all(getattr(candidate, k) == v for k, v in fields.items()):
            return candidate.index
    raise LookupError(kind)


def new_state(players: int = 2, spins: list[int] = (), *, options: dict | None = None, **seat0) -> GameState:
    """A fresh game with seat 0 to roll, the pile in published order and ``seat0`` fields set."""
    state = RULESET.new_game(players, options, seed=0)
    state.current = state.first_seat = 0
    state.phase = ROLL
    state.pile = list(range(len(CARDS)))
    state.rng = ScriptedSpins(list(spins), state.spinner)
    for name, value in seat0.items():
        setattr(state.seats[0], name, value)
    return state


def top_card(state: GameState, index: int) -> None:
    """Put Chance card ``index`` on top of the pile."""
    state.pile.remove(index)
    state.pile.insert(0, index)


def own(state: GameState, seat: int, *space_ids: str) -> None:
    for space_id in space_ids:
        state.owners[space(space_id)] = seat


def owned_by(state: GameState, seat: int) -> list[int]:
    return [index for index, owner in enumerate(state.owners) if owner == seat]


def play(state: GameState, seat: int, action: dict) -> list[Event]:
    return RULESET.apply(state, seat, action)


def types(events: list[Event]) -> list[str]:
    return [event.type for event in events]


def first(events: list[Event], event_type: str) -> dict:
    return next(event.data for event in events if event.type == event_type)


__all__ = ["NOBODY", "RULESET"]
