"""Scripted rounds for the Cash 'n Guns scenario tests: every move goes through ``apply``."""

from __future__ import annotations

from engine.core.events import Event
from engine.core.registry import get_ruleset
from engine.games.cash_n_guns.state import CashNGunsState

RULES = get_ruleset("cash-n-guns")


def new_game(players: int = 4, lineup: list[str] | None = None, seed: int = 1, **options) -> CashNGunsState:
    state = RULES.new_game(players, options or None, seed)
    if lineup is not None:
        state.lineup = list(lineup)
    return state


def act(state: CashNGunsState, seat: int, action: dict) -> list[Event]:
    return RULES.apply(state, seat, action)


def choose_bullets(state: CashNGunsState, cards: dict[int, str]) -> list[Event]:
    events = []
    for seat, card in cards.items():
        events += act(state, seat, {"type": "choose_bullet", "card": card})
    return events


def aim(state: CashNGunsState, targets: dict[int, int | None]) -> list[Event]:
    events = []
    for seat, target in targets.items():
        events += act(state, seat, {"type": "aim", "target": target})
    return events


def decide(state: CashNGunsState, stands: dict[int, bool]) -> list[Event]:
    events = []
    for seat, stand in stands.items():
        events += act(state, seat, {"type": "courage", "stand": stand})
    return events


def shoot_out(
    state: CashNGunsState,
    cards: dict[int, str],
    targets: dict[int, int | None],
    stands: dict[int, bool] | None = None,
) -> list[Event]:
    """One round up to the loot: bullets, aims, the Godfather passes, courage (everyone stands by default)."""
    events = choose_bullets(state, cards) + aim(state, targets)
    if state.phase == "privilege":
        events += act(state, state.godfather, {"type": "privilege", "target": None})
    stands = {seat: True for seat in cards} | (stands or {})
    return events + decide(state, stands)


def take(state: CashNGunsState, seat: int, card: str) -> list[Event]:
    return act(state, seat, {"type": "take_loot", "card": card})


def of_type(events: list[Event], kind: str) -> list[dict]:
    return [e.data for e in events if e.type == kind]


def pending_seats(state: CashNGunsState) -> list[int]:
    return [d.seat for d in RULES.pending(state)]
