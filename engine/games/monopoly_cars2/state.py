"""The game state: plain slots dataclasses serialized by ``engine.core.serial``."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.core.rng import Rng

# Phases: what the active seat is asked next.
ROLL = "roll"  # spin the spinner (a jailed seat without a card pays the fine first)
JAIL = "jail"  # a jailed seat holding a card: pay the fine or use the card, then spin
CHOOSE_PROPERTY = "choose_property"  # a free_property card offers several spaces
CHOOSE_MOVE = "choose_move"  # a move_forward card: how many spaces
OVER = "over"

# How a game ended.
CANNOT_BUY = "cannot_buy"
CANNOT_PAY_RENT = "cannot_pay_rent"
CANNOT_PAY_BANK = "cannot_pay_bank"
TURN_CAP = "turn_cap"

NOBODY = -1


@dataclass(slots=True)
class Seat:
    money: int
    position: int = 0
    in_jail: bool = False
    #: indices of the get-out-of-jail cards this seat keeps (public: kept face up)
    jail_cards: list[int] = field(default_factory=list)


@dataclass(slots=True)
class OpeningSpin:
    """One spin of the spin-off that decides who goes first (ties spin again)."""

    round: int
    seat: int
    value: int


@dataclass(slots=True)
class GameState:
    players: int
    seats: list[Seat]
    #: per board space: the owning seat, or NOBODY
    owners: list[int]
    #: the Chance pile, top card first (indices into the deck)
    pile: list[int]
    #: the spinner's faces, each equally likely
    spinner: list[int]
    rng: Rng
    #: canonical JSON of a custom board/deck from the options; "" for the published data
    custom: str = ""
    current: int = 0
    #: who won the opening spin-off
    first_seat: int = 0
    phase: str = ROLL
    #: the Chance card waiting for the current seat's choice, else -1
    card: int = -1
    #: the current seat landed on Race Again: its next turn follows at once
    race_again: bool = False
    turn: int = 0
    #: 0 = no cap
    turn_cap: int = 0
    #: net money the bank has taken in since the deal (negative when it paid out more)
    bank: int = 0
    last_spin: int = 0
    opening_spins: list[OpeningSpin] = field(default_factory=list)
    end_reason: str = ""
    #: the seat that could not pay or buy, else NOBODY
    short_seat: int = NOBODY
