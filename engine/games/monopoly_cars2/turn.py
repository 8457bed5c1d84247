"""The rules of a turn, one function per rulebook paragraph.

Every function appends what happened to ``events``; a payment that cannot be made
ends the game (``end_game``) and the caller stops there.
"""

from __future__ import annotations

from engine.core.events import Event
from engine.core.turn_order import roll_for_first
from engine.games.monopoly_cars2.board import CHANCE, GO_TO_JAIL, PROPERTY, RACE_AGAIN
from engine.games.monopoly_cars2.cards import (
    ADVANCE_TO_GO,
    COLLECT,
    FREE_PROPERTY,
    GET_OUT_OF_JAIL,
    GO_TO_SPACE,
    MOVE_FORWARD,
    PAY_BANK,
    Card,
)
from engine.games.monopoly_cars2.state import (
    CANNOT_BUY,
    CANNOT_PAY_BANK,
    CANNOT_PAY_RENT,
    CHOOSE_MOVE,
    CHOOSE_PROPERTY,
    JAIL,
    NOBODY,
    OVER,
    ROLL,
    TURN_CAP,
    GameState,
)
from engine.games.monopoly_cars2.tables import Tables

# -- the spinner and the start of a turn ---------------------------------------


def spin(state: GameState) -> int:
    faces = state.spinner
    value = faces[state.rng.randint(0, len(faces) - 1)]
    state.last_spin = value
    return value


def spin_off(state: GameState, events: list[Event]) -> int:
    """Everyone spins, the highest goes first; tied highest seats spin again."""
    tied, spins = roll_for_first(range(state.players), lambda: spin(state), max_rounds=100)
    for round_number, seat, value in spins:
        events.append(Event("opening_spin", {"round": round_number, "seat": seat, "value": value}))
    # Only a spinner whose faces are all equal leaves a tie: draw lots among the tied seats.
    return tied[0] if len(tied) == 1 else state.rng.choice(tied)


def roll(state: GameState, tables: Tables, events: list[Event]) -> None:
    """The ``roll`` action: a jailed seat without a card pays its way out first."""
    seat = state.current
    if state.seats[seat].in_jail:
        if not pay_bank(state, seat, tables.board.jail_fine, "jail_fine", events):
            return
        release(state, seat, "paid_fine", events)
    spin_and_move(state, tables, events)


def use_jail_card(state: GameState, tables: Tables, events: list[Event]) -> None:
    seat = state.current
    card = state.seats[seat].jail_cards.pop(0)
    state.pile.append(card)  # a used card goes to the bottom of the pile
    release(state, seat, "used_card", events)
    spin_and_move(state, tables, events)


def release(state: GameState, seat: int, how: str, events: list[Event]) -> None:
    state.seats[seat].in_jail = False
    events.append(Event("left_prison", {"seat": seat, "how": how}))


def spin_and_move(state: GameState, tables: Tables, events: list[Event]) -> None:
    seat = state.current
    value = spin(state)
    events.append(Event("spun", {"seat": seat, "value": value}))
    advance(state, tables, seat, value, events)


# -- moving and landing ----------------------------------------------------------


def advance(state: GameState, tables: Tables, seat: int, steps: int, events: list[Event], *, land_there: bool = True):
    """Move ``steps`` spaces forward; GO pays its salary each time it is passed or landed on."""
    player = state.seats[seat]
    size = len(tables.board.spaces)
    target = player.position + steps
    player.position = target % size
    events.append(Event("moved", {"seat": seat, "to": player.position, "spaces": steps}))
    laps = target // size
    if laps:
        receive_from_bank(state, seat, laps * tables.board.go_salary, "go", events)
    if land_there:
        land(state, tables, seat, events)


def advance_to(state: GameState, tables: Tables, seat: int, space: int, events: list[Event], *, land_there=True):
    """Move forward (never backward) to ``space``."""
    steps = (space - state.seats[seat].position) % len(tables.board.spaces)
    advance(state, tables, seat, steps, events, land_there=land_there)


def land(state: GameState, tables: Tables, seat: int, events: list[Event]) -> None:
    space = tables.board.spaces[state.seats[seat].position]
    kind = space.kind
    if kind == PROPERTY:
        land_on_property(state, tables, seat, space.index, events)
    elif kind == CHANCE:
        draw_chance(state, tables, seat, events)
    elif kind == GO_TO_JAIL:
        send_to_jail(state, tables, seat, events)
    elif kind == RACE_AGAIN:
        state.race_again = True
        events.append(Event("race_again", {"seat": seat}))
    # GO (already paid by advance), Prison / just visiting and Free Parking: nothing happens.


def send_to_jail(state: GameState, tables: Tables, seat: int, events: list[Event]) -> None:
    player = state.seats[seat]
    player.position = tables.board.jail
    player.in_jail = True
    events.append(Event("sent_to_prison", {"seat": seat, "to": player.position}))


# -- properties -----------------------------------------------------------------


def rent(state: GameState, tables: Tables, space: int) -> int:
    """The price, doubled (the chariot rent) when one owner holds both properties of the colour."""
    price = tables.board.spaces[space].price
    return price * 2 if state.owners[tables.board.partner[space]] == state.owners[space] else price


def land_on_property(state: GameState, tables: Tables, seat: int, space: int, events: list[Event]) -> None:
    owner = state.owners[space]
    if owner == NOBODY:
        buy(state, tables, seat, space, events)
    elif owner != seat:
        pay_rent(state, tables, seat, space, events)


def buy(state: GameState, tables: Tables, seat: int, space: int, events: list[Event]) -> None:
    """Buying is compulsory; a seat that cannot afford the price ends the game (and pays nothing)."""
    price = tables.board.spaces[space].price
    player = state.seats[seat]
    if player.money < price:
        events.append(Event("cannot_buy", {"seat": seat, "space": space, "price": price, "money": player.money}))
        end_game(state, CANNOT_BUY, seat, events)
        return
    player.money -= price
    state.bank += price
    events.append(Event("bought", {"seat": seat, "space": space, "price": price}))
    take_property(state, tables, seat, space, events)


def take_property(state: GameState, tables: Tables, seat: int, space: int, events: list[Event]) -> None:
    state.owners[space] = seat
    if state.owners[tables.board.partner[space]] == seat:
        # The chariot straddles the pair: cosmetic on the table, the rent doubling follows from ownership.
        events.append(Event("chariot", {"seat": seat, "colour": tables.board.spaces[space].colour}))


def pay_rent(state: GameState, tables: Tables, seat: int, space: int, events: list[Event]) -> None:
    """A seat short of the rent pays all it has to the owner, and the game ends."""
    owner = state.owners[space]
    due = rent(state, tables, space)
    payer = state.seats[seat]
    paid = min(due, payer.money)
    payer.money -= paid
    state.seats[owner].money += paid
    events.append(Event("paid_rent", {"seat": seat, "owner": owner, "space": space, "amount": paid, "due": due}))
    if paid < due:
        end_game(state, CANNOT_PAY_RENT, seat, events)


# -- the bank -------------------------------------------------------------------


def pay_bank(state: GameState, seat: int, amount: int, why: str, events: list[Event]) -> bool:
    """Pay the bank; a seat that cannot pays all it has and the game ends (returns False)."""
    player = state.seats[seat]
    paid = min(amount, player.money)
    player.money -= paid
    state.bank += paid
    events.append(Event("paid_bank", {"seat": seat, "amount": paid, "due": amount, "for": why}))
    if paid < amount:
        end_game(state, CANNOT_PAY_BANK, seat, events)
        return False
    return True


def receive_from_bank(state: GameState, seat: int, amount: int, why: str, events: list[Event]) -> None:
    state.seats[seat].money += amount
    state.bank -= amount
    events.append(Event("collected", {"seat": seat, "amount": amount, "for": why}))


# -- Chance -----------------------------------------------------------------------


def draw_chance(state: GameState, tables: Tables, seat: int, events: list[Event]) -> None:
    if not state.pile:  # every card is held as a get-out-of-jail card (custom decks only)
        events.append(Event("chance_pile_empty", {"seat": seat}))
        return
    index = state.pile.pop(0)
    card = tables.cards[index]
    events.append(Event("chance", {"seat": seat, "card": index, "kind": card.kind}))
    if card.kind == GET_OUT_OF_JAIL:
        state.seats[seat].jail_cards.append(index)  # kept until used, then to the bottom
        return
    state.pile.append(index)  # once read, the card goes to the bottom
    resolve_card(state, tables, seat, card, events)


def resolve_card(state: GameState, tables: Tables, seat: int, card: Card, events: list[Event]) -> None:
    kind = card.kind
    if kind == ADVANCE_TO_GO:
        advance_to(state, tables, seat, 0, events)
    elif kind == GO_TO_SPACE:
        advance_to(state, tables, seat, card.space, events)
    elif kind == PAY_BANK:
        pay_bank(state, seat, card.amount, "chance", events)
    elif kind == COLLECT:
        receive_from_bank(state, seat, card.amount, "chance", events)
    elif kind == FREE_PROPERTY:
        choices = free_property_choices(state, tables, card)
        if len(choices) == 1:
            go_for_free_property(state, tables, seat, choices[0], events)
        else:
            await_choice(state, CHOOSE_PROPERTY, card)
    elif kind == MOVE_FORWARD:
        if card.max_spaces == 1:
            advance(state, tables, seat, 1, events)
        else:
            await_choice(state, CHOOSE_MOVE, card)


def await_choice(state: GameState, phase: str, card: Card) -> None:
    state.phase = phase
    state.card = card.index


def free_property_choices(state: GameState, tables: Tables, card: Card) -> list[int]:
    """The unsold properties of the card's colours; when all are sold, any of them (rent is due)."""
    spaces = [space for colour in card.colours for space in tables.board.colours[colour]]
    unsold = [space for space in spaces if state.owners[space] == NOBODY]
    return sorted(unsold or spaces)


def move_cost(state: GameState, tables: Tables, seat: int, steps: int, *,
              free_property: bool = False) -> tuple[bool, int]:
    """What moving ``steps`` forward surely costs ``seat``, from what every seat sees: (whether the game ends
    with it short, the money it loses beyond what it buys). GO's salary counts; a compulsory purchase it can
    afford loses nothing (the money becomes the property); ``free_property``: the move of a free-property
    card, which takes an unsold property for nothing. The next Chance card is face down, so landing on
    Chance costs nothing sure. What a seat too slow to choose its move goes by (``ruleset.pending``)."""
    player = state.seats[seat]
    size = len(tables.board.spaces)
    salary = (player.position + steps) // size * tables.board.go_salary
    space = tables.board.spaces[(player.position + steps) % size]
    if space.kind != PROPERTY:
        return False, 0
    owner = state.owners[space.index]
    money = player.money + salary
    if owner == NOBODY:
        return (not free_property and space.price > money), 0
    if owner == seat:
        return False, 0
    due = rent(state, tables, space.index)
    return due > money, max(0, due - salary)


def go_for_free_property(state: GameState, tables: Tables, seat: int, space: int, events: list[Event]) -> None:
    """Move to the chosen space: an unsold one is taken for free; a sold one is landed on as usual."""
    advance_to(state, tables, seat, space, events, land_there=False)
    if state.owners[space] == NOBODY:
        events.append(Event("took_free_property", {"seat": seat, "space": space}))
        take_property(state, tables, seat, space, events)
    else:
        land_on_property(state, tables, seat, space, events)


# -- turns and the end ------------------------------------------------------------


def finish_action(state: GameState, events: list[Event]) -> None:
    """After an action: wait for a pending card choice, or close the turn and open the next."""
    if state.phase in (CHOOSE_PROPERTY, CHOOSE_MOVE):
        return
    state.card = -1
    state.turn += 1
    if state.phase == OVER:
        return
    if state.turn_cap and state.turn >= state.turn_cap:
        end_game(state, TURN_CAP, NOBODY, events)
        return
    if state.race_again:
        state.race_again = False  # "race Flash McQueen again and play again": the same seat goes on
    else:
        state.current = (state.current + 1) % state.players
    start_turn(state, events)


def start_turn(state: GameState, events: list[Event]) -> None:
    player = state.seats[state.current]
    state.phase = JAIL if player.in_jail and player.jail_cards else ROLL
    events.append(Event("turn", {"seat": state.current, "turn": state.turn}))


def end_game(state: GameState, reason: str, short_seat: int, events: list[Event]) -> None:
    state.phase = OVER
    state.end_reason = reason
    state.short_seat = short_seat
    events.append(Event("game_over", {"reason": reason, "seat": short_seat}))
