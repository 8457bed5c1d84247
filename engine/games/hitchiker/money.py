"""Money moving between hitchikers and the bank, going broke, customs, death and reincarnation.

The bank is a signed ledger (``state.bank``): whatever it pays out it goes down by, whatever
it takes in it goes up by, so players' money + the ledger + money on the table never changes.
"""

from __future__ import annotations

from engine.core.events import Event
from engine.games.hitchiker.state import NOBODY, HitchikerState, owner_of
from engine.games.hitchiker.tables import Tables

START_CASH = 25_000
WELFARE = 10_000


def from_bank(state: HitchikerState, seat: int, amount: int, why: str, events: list[Event]) -> None:
    state.seats[seat].cash += amount
    state.bank -= amount
    events.append(Event("collected", {"seat": seat, "amount": amount, "why": why}))


def pay(state: HitchikerState, seat: int, amount: int, payee: int, why: str, events: list[Event]) -> bool:
    """Pay ``amount`` to ``payee`` (NOBODY: the bank); pay what there is when short.

    True when the obligation was met in full; the caller then sends a short payer broke.
    """
    payer = state.seats[seat]
    paid = amount if payer.cash >= amount else payer.cash
    payer.cash -= paid
    if payee == NOBODY:
        state.bank += paid
    else:
        state.seats[payee].cash += paid
    events.append(Event("paid", {"seat": seat, "to": payee, "amount": paid, "owed": amount, "why": why}))
    return paid == amount


def owe(state: HitchikerState, seat: int, amount: int, payee: int, why: str, events: list[Event]) -> None:
    """An obligation: pay it, or pay what you have and go broke."""
    if not pay(state, seat, amount, payee, why, events):
        go_broke(state, seat, events)


def go_broke(state: HitchikerState, seat: int, events: list[Event]) -> None:
    """Welfare buys a bus ticket to a Hometown you own (your choice) and $10,000; the turn ends there."""
    state.agenda.clear()
    homes = state.seats[seat].hometowns
    events.append(Event("went_broke", {"seat": seat}))
    if len(homes) == 1:
        bus_home(state, seat, homes[0], events)
    elif homes:
        state.phase = "go_home"
        state.decider = seat


def bus_home(state: HitchikerState, seat: int, city: int, events: list[Event]) -> None:
    hitchiker = state.seats[seat]
    hitchiker.position = city
    hitchiker.in_pot_hole = False
    events.append(Event("bussed_home", {"seat": seat, "to": city}))
    from_bank(state, seat, WELFARE, "welfare", events)


def least_cash_seat(state: HitchikerState, besides: int) -> int:
    """The other seat with the least travelling cash; a tie goes to the first of them to ``besides``'s left."""
    best = NOBODY
    for step in range(1, state.players):
        seat = (besides + step) % state.players
        if best == NOBODY or state.seats[seat].cash < state.seats[best].cash:
            best = seat
    return best


def receive_savings(state: HitchikerState, seat: int, amount: int) -> None:
    """Savings changing hands (an inheritance, a Customs bust).

    Money enters a Bank Pouch only by a deposit ("You may ONLY put money in your Bank Pouch
    under the following conditions: ... PASS THROUGH ... LAND RIGHT ON"), so by default
    they arrive as the receiver's travelling cash; the ``savings_to_pouch`` house rule puts
    them into the receiver's pouch.
    """
    if state.savings_to_pouch:
        state.seats[seat].savings += amount
    else:
        state.seats[seat].cash += amount


def customs(state: HitchikerState, seat: int, events: list[Event]) -> None:
    hitchiker = state.seats[seat]
    if hitchiker.units == 0:
        events.append(Event("customs_cleared", {"seat": seat}))
        return
    receiver = least_cash_seat(state, seat)
    half_savings = hitchiker.savings // 2
    events.append(Event("busted", {
        "seat": seat, "units_lost": hitchiker.units, "cash": hitchiker.cash, "savings": half_savings, "to": receiver,
        "savings_to": "savings" if state.savings_to_pouch else "cash",
    }))
    state.seats[receiver].cash += hitchiker.cash
    receive_savings(state, receiver, half_savings)
    hitchiker.units = 0
    hitchiker.cash = 0
    hitchiker.savings -= half_savings


def die(state: HitchikerState, tables: Tables, seat: int, responsible: int, cause: str, events: list[Event]) -> None:
    """Lose everything to the heir, give the Hometowns back, and come back with $25,000."""
    heir = responsible if responsible != NOBODY else least_cash_seat(state, seat)
    dead = state.seats[seat]
    stake = 0
    if state.deal is not None and state.deal.buyer == seat:
        stake = state.deal.stake
        state.deal = None
    inheritor = state.seats[heir]
    inheritor.cash += dead.cash + stake
    receive_savings(state, heir, dead.savings)
    inheritor.units += dead.units
    events.append(Event("died", {
        "seat": seat, "cause": cause, "heir": heir, "responsible": responsible,
        "cash": dead.cash + stake, "savings": dead.savings, "units": dead.units, "hometowns": list(dead.hometowns),
        "savings_to": "savings" if state.savings_to_pouch else "cash",
    }))
    dead.cash = dead.savings = dead.units = 0
    dead.hometowns = []
    dead.in_pot_hole = False
    state.agenda.clear()
    from_bank(state, seat, START_CASH, "reincarnation", events)
    if any(owner_of(state, city) == NOBODY for city in tables.hometowns):
        state.pick_queue = [seat]
        state.phase = "pick_hometown"
        state.decider = seat
    else:
        events.append(Event("reincarnated_homeless", {"seat": seat, "at": dead.position}))


def take_hometown(state: HitchikerState, seat: int, city: int) -> None:
    state.seats[seat].hometowns.append(city)
