"""Bad Ride cities: draw the top card and do what it says.

Drawn cards go face up on a discard pile; the top card of the shuffled draw pile is a
random one of the cards not discarded. When every card has been drawn, the discards are
shuffled back into a new pile.
"""

from __future__ import annotations

from engine.core.events import Event
from engine.games.hitchiker import moves
from engine.games.hitchiker.money import die, from_bank, go_broke, owe, pay
from engine.games.hitchiker.state import NOBODY, HitchikerState
from engine.games.hitchiker.tables import Tables


def draw(state: HitchikerState, tables: Tables, seat: int, events: list[Event]) -> None:
    discards = state.bad_ride_discards
    if len(discards) >= len(tables.deck):
        discards.clear()
        events.append(Event("bad_ride_reshuffled", {}))
    pile = [card for card in range(len(tables.deck)) if card not in discards]
    index = pile[state.rng.randint(0, len(pile) - 1)]
    discards.append(index)
    card = tables.deck[index]
    events.append(Event("bad_ride", {"seat": seat, "card": index, "text": card.text}))
    EFFECTS[card.effect](state, tables, seat, card.param, events)


def _pay_bank(state, tables, seat, amount, events):
    owe(state, seat, amount, NOBODY, "bad_ride", events)


def _pay_dice(state, tables, seat, per_pip, events):
    roll = state.rng.die() + state.rng.die()
    events.append(Event("rolled_for_bill", {"seat": seat, "roll": roll}))
    owe(state, seat, roll * per_pip, NOBODY, "bad_ride", events)


def _pay_each(state, tables, seat, amount, events):
    for step in range(1, state.players):
        if not pay(state, seat, amount, (seat + step) % state.players, "bad_ride", events):
            go_broke(state, seat, events)
            return


def _collect(state, tables, seat, amount, events):
    from_bank(state, seat, amount, "bad_ride", events)


def _lose_cash_percent(state, tables, seat, percent, events):
    pay(state, seat, state.seats[seat].cash * percent // 100, NOBODY, "bad_ride", events)


def _savings_to_bank(state: HitchikerState, seat: int, amount: int, events: list[Event]) -> None:
    hitchiker = state.seats[seat]
    amount = min(amount, hitchiker.savings)
    hitchiker.savings -= amount
    state.bank += amount
    events.append(Event("savings_lost", {"seat": seat, "amount": amount}))


def _lose_savings(state, tables, seat, amount, events):
    _savings_to_bank(state, seat, amount, events)


def _lose_savings_percent(state, tables, seat, percent, events):
    _savings_to_bank(state, seat, state.seats[seat].savings * percent // 100, events)


def _savings_to_cash(state, tables, seat, amount, events):
    hitchiker = state.seats[seat]
    amount = min(amount, hitchiker.savings)
    hitchiker.savings -= amount
    hitchiker.cash += amount
    events.append(Event("savings_withdrawn", {"seat": seat, "amount": amount}))


def _lose_contraband(state, tables, seat, _param, events):
    events.append(Event("contraband_lost", {"seat": seat, "units": state.seats[seat].units}))
    state.seats[seat].units = 0


def _gain_units(state, tables, seat, units, events):
    state.seats[seat].units += units
    events.append(Event("contraband_found", {"seat": seat, "units": units}))


def _death(state, tables, seat, _param, events):
    die(state, tables, seat, NOBODY, "bad_ride", events)


def _move(state, tables, seat, steps, events):
    if steps > 0:
        moves.forward(state, len(tables.cities), seat, steps)
    else:
        moves.backward(state, len(tables.cities), seat, -steps)


def _advance_to_kind(state, tables, seat, kind, events):
    cities = tables.cities
    steps = moves.distance_to(state, len(cities), seat, lambda city: cities[city].kind == kind)
    moves.forward(state, len(cities), seat, steps)


def _advance_home(state, tables, seat, _param, events):
    homes = state.seats[seat].hometowns
    steps = moves.distance_to(state, len(tables.cities), seat, lambda city: city in homes)
    if steps:
        moves.forward(state, len(tables.cities), seat, steps)
    else:
        events.append(Event("no_hometown", {"seat": seat}))


EFFECTS = {
    "pay_bank": _pay_bank,
    "pay_dice": _pay_dice,
    "pay_each": _pay_each,
    "collect": _collect,
    "lose_cash_percent": _lose_cash_percent,
    "lose_savings": _lose_savings,
    "lose_savings_percent": _lose_savings_percent,
    "savings_to_cash": _savings_to_cash,
    "lose_contraband": _lose_contraband,
    "gain_units": _gain_units,
    "death": _death,
    "move": _move,
    "advance_to_kind": _advance_to_kind,
    "advance_home": _advance_home,
}
