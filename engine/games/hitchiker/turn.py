"""A player's turn: roll, move clockwise, then do everything in the order it occurs.

The turn's remaining work is the agenda (owned Hometowns passed, then the landing city).
The engine works through it until a seat must decide (``state.phase`` is set) or the
turn ends.
"""

from __future__ import annotations

from engine.core.events import Event
from engine.core.result import best_seats
from engine.games.hitchiker import bad_ride, black_market, casino, moves
from engine.games.hitchiker.money import WELFARE, customs, die, from_bank, owe, take_hometown
from engine.games.hitchiker.state import NOBODY, HitchikerState, owner_of
from engine.games.hitchiker.tables import Tables

SAVINGS_GOAL = 250_000
CASH_GOAL = 50_000_000
PASS_DEPOSIT = 20_000
LAND_DEPOSIT = 50_000
BUY_DEPOSIT = 50_000
RENT_PER_PIP = 1_000
HOMETOWN_PRICE_PER_PIP = 5_000


def roll_dice(state: HitchikerState) -> tuple[int, int]:
    return state.rng.die(), state.rng.die()


def take_turn_roll(state: HitchikerState, tables: Tables, events: list[Event]) -> None:
    seat = state.active
    hitchiker = state.seats[seat]
    first, second = roll_dice(state)
    total = first + second
    events.append(Event("rolled", {"seat": seat, "dice": [first, second]}))
    state.phase = ""
    if hitchiker.in_pot_hole:
        if total % 2 == 0:
            events.append(Event("still_in_pot_hole", {"seat": seat, "roll": total}))
            return
        hitchiker.in_pot_hole = False
        events.append(Event("escaped_pot_hole", {"seat": seat, "roll": total}))
    moves.forward(state, len(tables.cities), seat, total)
    events.append(Event("moving", {"seat": seat, "from": hitchiker.position, "steps": total}))


def advance(state: HitchikerState, tables: Tables, events: list[Event]) -> None:
    """Resolve the turn until a decision is needed or the game is over."""
    while state.phase == "":
        if check_winners(state, events):
            return
        if not state.agenda:
            end_turn(state, events)
            return
        step = state.agenda.pop(0)
        if step.kind == "pass":
            pass_hometown(state, step.city, events)
        else:
            land(state, tables, step.city, events)


def end_turn(state: HitchikerState, events: list[Event]) -> None:
    state.turn += 1
    if state.turn_cap and state.turn >= state.turn_cap:
        finish_at_turn_cap(state, events)
        return
    state.active = (state.active + 1) % state.players
    while state.active in state.joining:  # a player who joined plays once they have a Hometown
        state.active = (state.active + 1) % state.players
    state.decider = state.active
    state.phase = "roll"


def offer_deposit(state: HitchikerState, seat: int, limit: int) -> None:
    cash = state.seats[seat].cash
    if cash > 0:
        state.phase = "deposit"
        state.decider = seat
        state.deposit_limit = limit if cash > limit else cash


def deposit(state: HitchikerState, seat: int, amount: int, events: list[Event]) -> None:
    hitchiker = state.seats[seat]
    hitchiker.cash -= amount
    hitchiker.savings += amount
    state.phase = ""
    events.append(Event("deposited", {"seat": seat, "amount": amount, "savings": hitchiker.savings}))


def pass_hometown(state: HitchikerState, city: int, events: list[Event]) -> None:
    seat = state.active
    state.seats[seat].position = city
    events.append(Event("passed_hometown", {"seat": seat, "city": city}))
    from_bank(state, seat, WELFARE, "welfare", events)
    offer_deposit(state, seat, PASS_DEPOSIT)


def land(state: HitchikerState, tables: Tables, city_index: int, events: list[Event]) -> None:
    seat = state.active
    hitchiker = state.seats[seat]
    hitchiker.position = city_index
    city = tables.cities[city_index]
    kind = city.kind
    events.append(Event("landed", {"seat": seat, "city": city_index, "name": city.name}))
    if kind == "hometown":
        land_on_hometown(state, seat, city_index, events)
    elif kind == "casino":
        casino.open_casino(state, seat, events)
    elif kind == "black_market":
        black_market.offer(state, seat, events)
    elif kind == "sell":
        if hitchiker.units > 0:
            state.phase = "sell"
            state.decider = seat
    elif kind == "customs":
        customs(state, seat, events)
    elif kind == "bad_ride":
        bad_ride.draw(state, tables, seat, events)
    elif kind == "collect":
        from_bank(state, seat, city.value, city.name, events)
    elif kind == "collect_dice":
        from_bank(state, seat, sum(roll_dice(state)) * city.value, city.name, events)
    elif kind == "shark_attack":
        roll = sum(roll_dice(state))
        events.append(Event("shark_roll", {"seat": seat, "roll": roll}))
        if roll in city.deadly_rolls:
            die(state, tables, seat, NOBODY, "shark_attack", events)
    elif kind == "pay_right":
        owe(state, seat, city.value, (seat - 1) % state.players, city.name, events)
    elif kind == "pot_hole":
        hitchiker.in_pot_hole = True
        events.append(Event("in_pot_hole", {"seat": seat}))
    elif kind == "found_contraband":
        units = sum(roll_dice(state)) * city.value
        hitchiker.units += units
        events.append(Event("contraband_found", {"seat": seat, "units": units}))


def land_on_hometown(state: HitchikerState, seat: int, city: int, events: list[Event]) -> None:
    owner = owner_of(state, city)
    if owner == seat:
        from_bank(state, seat, WELFARE, "welfare", events)
        offer_deposit(state, seat, LAND_DEPOSIT)
    elif owner == NOBODY:
        price = state.rng.die() * HOMETOWN_PRICE_PER_PIP
        events.append(Event("hometown_priced", {"seat": seat, "city": city, "price": price}))
        if state.seats[seat].cash >= price:
            state.offer_price = price
            state.phase = "buy_hometown"
            state.decider = seat
    else:
        roll = sum(roll_dice(state))
        events.append(Event("rent_roll", {"seat": seat, "owner": owner, "roll": roll}))
        owe(state, seat, roll * RENT_PER_PIP, owner, "rent", events)


def buy_hometown(state: HitchikerState, seat: int, events: list[Event]) -> None:
    city = state.seats[seat].position
    state.seats[seat].cash -= state.offer_price
    state.bank += state.offer_price
    take_hometown(state, seat, city)
    events.append(Event("hometown_bought", {"seat": seat, "city": city, "price": state.offer_price}))
    state.phase = ""
    offer_deposit(state, seat, BUY_DEPOSIT)


def sell(state: HitchikerState, tables: Tables, seat: int, events: list[Event]) -> None:
    hitchiker = state.seats[seat]
    price = tables.cities[hitchiker.position].value
    units = hitchiker.units
    hitchiker.units = 0
    events.append(Event("contraband_sold", {"seat": seat, "units": units, "price": price}))
    from_bank(state, seat, units * price, "sale", events)


def check_winners(state: HitchikerState, events: list[Event]) -> bool:
    for hitchiker in state.seats:
        if hitchiker.savings >= SAVINGS_GOAL or hitchiker.cash >= CASH_GOAL:
            break
    else:
        return False
    savers = [s for s, h in enumerate(state.seats) if h.savings >= SAVINGS_GOAL]
    rich = [s for s, h in enumerate(state.seats) if h.cash >= CASH_GOAL]
    state.winners = sorted({*savers, *rich})
    state.end_reason = "savings" if savers and not rich else "travelling_cash" if rich and not savers else "both"
    state.phase = "over"
    state.agenda.clear()
    events.append(Event("game_won", {"winners": state.winners, "reason": state.end_reason}))
    return True


def score(state: HitchikerState, seat: int) -> int:
    hitchiker = state.seats[seat]
    return hitchiker.savings + hitchiker.cash


def finish_at_turn_cap(state: HitchikerState, events: list[Event]) -> None:
    scores = [score(state, seat) for seat in range(state.players)]
    state.winners = best_seats(range(state.players), key=scores.__getitem__)
    state.end_reason = "turn_cap"
    state.phase = "over"
    events.append(Event("turn_cap_reached", {"winners": state.winners, "scores": scores}))
