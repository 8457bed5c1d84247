"""Payments, the payment order, and bankruptcy (of players and of Pros)."""

from __future__ import annotations

from engine.core.events import Event
from engine.games.whipcash.board import PROS
from engine.games.whipcash.state import OUT, OVER, WhipcashState

#: Whipca$h payments by the number of bankrupt Pros: with none, the car landing pays the car there
WHIPCASH_AMOUNTS = (15_000, 5_000, 15_000, 25_000)
PIT_FEE = 1_000
FREEWAY_PASS = 5_000
FREEWAY_LAND = 10_000
#: "Roll Dice for $": each pip is $1,000
CASH_PER_PIP = 1_000


class GameEnded(Exception):
    """Only one player is left: nothing else in this action happens."""


class MoverOut(Exception):
    """The seat whose turn it is went bankrupt: the rest of its turn is skipped."""


def party_name(state: WhipcashState, party: int) -> int | str:
    """How events and views name a party: a seat number, a Pro's id, or ``"bank"``."""
    if party < state.players:
        return party
    if party == state.bank:
        return "bank"
    return PROS[party - state.players]


def holder_of(state: WhipcashState, party: int) -> dict:
    """Who holds a Pro's holdings, as the result tells it: ``{"seat": n, "pro": None}`` for a player,
    ``{"seat": None, "pro": id}`` for a Pro (its own, or one that bankrupted their holder). Never the
    bank: it is owed nothing, so it bankrupts nobody and inherits nothing."""
    if party < state.players:
        return {"seat": party, "pro": None}
    return {"seat": None, "pro": PROS[party - state.players]}


def pay(state: WhipcashState, debtor: int, debts: list[tuple[int, int]], events: list[Event], why: str) -> bool:
    """Pay each ``(creditor, amount)`` in the order given; False if the debtor went bankrupt.

    Callers list several debts in the rulebook's payment order ("1st - Mr.Daily, 2nd - Mr.
    Chasinbucks, 3rd - Dr. Overbilled, next the players in their order of play"), which follows
    the Pro a debt comes from, also when a player now holds that Pro's spaces. A debtor short
    of money gives all it has to the first creditor it cannot pay in full, and that creditor
    bankrupts it; the later ones get nothing.
    """
    cash = state.cash
    for creditor, amount in debts:
        if creditor == debtor or amount <= 0:
            continue
        if debtor == state.bank or cash[debtor] >= amount:
            cash[debtor] -= amount
            cash[creditor] += amount
            events.append(Event("paid", {"from": party_name(state, debtor), "to": party_name(state, creditor),
                                         "amount": amount, "for": why}))
            continue
        short = cash[debtor]
        cash[creditor] += short
        cash[debtor] = 0
        events.append(Event("paid", {"from": party_name(state, debtor), "to": party_name(state, creditor),
                                     "amount": short, "owed": amount, "for": why}))
        bankrupt(state, debtor, creditor, events)
        return False
    return True


def bankrupt(state: WhipcashState, party: int, creditor: int, events: list[Event]) -> None:
    """``creditor`` bankrupts ``party`` and takes over every Pro's holdings ``party`` controlled.

    Raises ``GameEnded`` when one player is left and ``MoverOut`` when the bankrupt party
    is the seat whose turn it is.
    """
    state.alive[party] = False
    state.bankrupted_by[party] = creditor
    inherited = []
    for pro_index, holder in enumerate(state.holdings):
        if holder == party:
            state.holdings[pro_index] = creditor
            inherited.append(PROS[pro_index])
    if party >= state.players:
        events.append(Event("pro_bankrupted", {"pro": party_name(state, party), "by": party_name(state, creditor),
                                               "inherits": inherited}))
        return
    state.position[party] = OUT
    state.card[party] = False
    state.eliminated.append(party)
    if party in state.whipcash_queue:
        state.whipcash_queue.remove(party)
    if party in state.pit_queue:
        state.pit_queue.remove(party)
    events.append(Event("player_bankrupted", {"seat": party, "by": party_name(state, creditor),
                                              "inherits": inherited}))
    if len(state.seats_alive()) <= 1:
        state.phase = OVER
        state.end_reason = "last_player_standing"
        raise GameEnded
    if party == state.current:
        raise MoverOut
