"""Scenario helpers: a game set up by hand, scripted dice, stacked casino cards."""

from __future__ import annotations

from engine.core.registry import get_ruleset
from engine.core.rng import Rng
from engine.games.hitchiker import casino
from engine.games.hitchiker.money import take_hometown

RULES = get_ruleset("hitchiker")
TABLES = RULES.tables(RULES.new_game(2, None, 0))


def city(name: str) -> int:
    return TABLES.index_by_name[name]


class ScriptedRng(Rng):
    """Returns the scripted values in order (each checked against the asked range).

    With ``then_random`` it falls back to real draws once the script is used up; otherwise
    running out is a test failure, so every chance a scenario meets is accounted for.
    """

    def __init__(self, values, *, then_random: bool = False) -> None:
        super().__init__(12345)
        self.values = list(values)
        self.then_random = then_random

    def randint(self, low: int, high: int) -> int:
        if not self.values:
            assert self.then_random, "the scripted dice ran out"
            return super().randint(low, high)
        value = self.values.pop(0)
        assert low <= value <= high, f"scripted {value} outside [{low}, {high}]"
        return value


def game(players: int = 4, homes: list[str] | None = None, cash: int | None = None, dice=()):
    """A started game with seat ``i`` owning ``homes[i]`` and standing on it; seat 0 to roll."""
    state = RULES.new_game(players, None, 1)
    homes = homes or ["Vancougar", "Sasquatoon", "Torontoe", "Montreel", "Halifacts", "Saint Johns"][:players]
    for seat, name in enumerate(homes):
        take_hometown(state, seat, city(name))
        state.seats[seat].position = city(name)
        if cash is not None:
            state.bank += state.seats[seat].cash - cash
            state.seats[seat].cash = cash
    state.pick_queue = []
    state.started = True
    state.phase = "roll"
    state.active = state.decider = state.first = 0
    state.rng = ScriptedRng(dice)
    return state


def script(state, *values) -> None:
    state.rng = ScriptedRng(values)


def place(state, seat: int, name: str) -> None:
    state.seats[seat].position = city(name)


def give(state, seat: int, cash: int | None = None, savings: int | None = None, units: int | None = None) -> None:
    """Set a seat's money, balancing the bank ledger so money stays conserved."""
    hitchiker = state.seats[seat]
    if cash is not None:
        state.bank += hitchiker.cash - cash
        hitchiker.cash = cash
    if savings is not None:
        state.bank += hitchiker.savings - savings
        hitchiker.savings = savings
    if units is not None:
        hitchiker.units = units


def act(state, seat: int, action_type: str, **params):
    return RULES.apply(state, seat, {"type": action_type, **params})


def types(events) -> list[str]:
    return [event.type for event in events]


def first(events, event_type: str):
    return next(event for event in events if event.type == event_type)


def stack_cards(monkeypatch, names: list[str]) -> None:
    """Deal exactly these cards (e.g. "AS", "10H") in this order at the casino."""
    cards = [casino.CARD_NAMES.index(name) for name in names]

    def draw(state):
        assert cards, "the stacked cards ran out"
        return cards.pop(0)

    monkeypatch.setattr(casino, "_draw", draw)


def pending_kind(state) -> tuple[int, str]:
    decision = RULES.pending(state)[0]
    return decision.seat, decision.kind


def money(state) -> int:
    return RULES.money_in_play(state)
