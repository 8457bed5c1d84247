"""Black Market cities: risk travelling cash, let the players to your left roll for you.

Up to three rolls on the Deal Chart, each made by the next player to the buyer's left
(skipping the buyer, so with two players the other one rolls every time). After the first
and second roll the buyer accepts or declines; the third is taken whatever it says.
"""

from __future__ import annotations

from engine.core.decisions import Decision
from engine.core.events import Event
from engine.games.hitchiker.money import die
from engine.games.hitchiker.state import Deal, HitchikerState
from engine.games.hitchiker.tables import Tables

MAX_ROLLS = 3
PASS = {"type": "pass"}
ROLL = {"type": "roll"}
ACCEPT = {"type": "accept_deal"}
DECLINE = {"type": "decline_deal"}


def offer(state: HitchikerState, seat: int, events: list[Event]) -> None:
    if state.seats[seat].cash > 0:
        state.phase = "black_market"
        state.decider = seat
    else:
        events.append(Event("black_market_skipped", {"seat": seat, "why": "no travelling cash"}))


def _left_of(state: HitchikerState, seat: int, buyer: int) -> int:
    nxt = (seat + 1) % state.players
    return (nxt + 1) % state.players if nxt == buyer else nxt


def risk(state: HitchikerState, seat: int, amount: int, events: list[Event]) -> None:
    state.seats[seat].cash -= amount
    state.deal = Deal(buyer=seat, stake=amount, roller=_left_of(state, seat, seat))
    events.append(Event("deal_opened", {"seat": seat, "stake": amount}))
    state.phase = "deal_roll"
    state.decider = state.deal.roller


def roll(state: HitchikerState, tables: Tables, events: list[Event]) -> None:
    deal = state.deal
    dice = [state.rng.die(), state.rng.die()]
    deal.rolls += 1
    deal.last_roll = dice[0] + dice[1]
    outcome = tables.chart[deal.last_roll]
    events.append(Event("deal_rolled", {
        "seat": deal.buyer, "roller": deal.roller, "dice": dice, "roll": deal.rolls, "outcome": outcome.label(),
    }))
    if deal.rolls == MAX_ROLLS:
        take(state, tables, events)
    else:
        state.phase = "deal_choice"
        state.decider = deal.buyer


def decline(state: HitchikerState, events: list[Event]) -> None:
    deal = state.deal
    events.append(Event("deal_declined", {"seat": deal.buyer, "roll": deal.rolls}))
    deal.roller = _left_of(state, deal.roller, deal.buyer)
    state.phase = "deal_roll"
    state.decider = deal.roller


def take(state: HitchikerState, tables: Tables, events: list[Event]) -> None:
    deal = state.deal
    buyer = state.seats[deal.buyer]
    outcome = tables.chart[deal.last_roll]
    state.phase = ""
    if outcome.kind == "shootout":
        die(state, tables, deal.buyer, deal.roller, "police_shootout", events)
        return
    state.deal = None
    if outcome.kind == "price":
        units = deal.stake // outcome.value
        cost = units * outcome.value
        buyer.units += units
        buyer.cash += deal.stake - cost
        state.bank += cost
        events.append(Event("contraband_bought", {"seat": deal.buyer, "units": units, "cost": cost,
                                                  "change": deal.stake - cost}))
    elif outcome.kind == "free_units":
        buyer.units += outcome.value
        buyer.cash += deal.stake
        events.append(Event("contraband_free", {"seat": deal.buyer, "units": outcome.value}))
    else:
        state.seats[deal.roller].cash += deal.stake
        events.append(Event("ripped_off", {"seat": deal.buyer, "by": deal.roller, "amount": deal.stake}))


def risk_decision(state: HitchikerState) -> Decision:
    seat = state.decider
    cash = state.seats[seat].cash
    options = [PASS, {"type": "risk", "amount": 1}]
    if cash > 1:
        options.append({"type": "risk", "amount": cash})
    return Decision(seat, "black_market", options, {"risk": {"amount": [1, cash]}}, PASS)


def roll_decision(state: HitchikerState) -> Decision:
    return Decision(state.decider, "deal_roll", [ROLL], default=ROLL)


#: outcomes a buyer too slow to choose declines rather than accepts (death, losing the stake)
_DECLINED_BY_DEFAULT = frozenset(("shootout", "ripped_off"))


def choice_decision(state: HitchikerState, tables: Tables) -> Decision:
    """Accept or decline rolls 1 and 2; a timeout declines a Police Shootout or a Ripped Off."""
    outcome = tables.chart[state.deal.last_roll]
    default = DECLINE if outcome.kind in _DECLINED_BY_DEFAULT else ACCEPT
    return Decision(state.decider, "deal_choice", [ACCEPT, DECLINE], default=default)


def view(deal: Deal | None, tables: Tables) -> dict | None:
    if deal is None:
        return None
    outcome = tables.chart[deal.last_roll] if deal.rolls else None
    return {
        "buyer": deal.buyer, "stake": deal.stake, "roller": deal.roller, "rolls": deal.rolls,
        "last_roll": deal.last_roll,
        "outcome": None if outcome is None else {"kind": outcome.kind, "value": outcome.value},
    }
