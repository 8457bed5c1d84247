"""The state of a Hitchiker game: plain slots dataclasses, serialized generically."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.core.rng import Rng

NOBODY = -1


@dataclass(slots=True)
class Hitchiker:
    """One seat's hitchiker: travelling cash, the Bank Pouch, contraband and Hometowns."""

    cash: int = 0
    savings: int = 0
    units: int = 0
    position: int = 0
    hometowns: list[int] = field(default_factory=list)
    #: stuck in Remindya's pot hole: the next roll must be odd to leave
    in_pot_hole: bool = False


@dataclass(slots=True)
class Step:
    """Work left in this turn, done in order: ``pass`` an owned Hometown, ``land`` on a city."""

    kind: str
    city: int


@dataclass(slots=True)
class Deal:
    """A Black Market deal in progress: the risked money lies on the board."""

    buyer: int
    stake: int
    roller: int
    rolls: int = 0
    last_roll: int = 0


@dataclass(slots=True)
class Hand:
    seat: int
    cards: list[int]
    bet: int = 0
    #: a hand born of a split: no further split, and a two-card 21 is not a blackjack
    from_split: bool = False
    doubled: bool = False
    #: "" while in play, then blackjack / bust / win / push / lose
    outcome: str = ""
    #: this seat's second hand at a table (the dealer plays two)
    second: bool = False


@dataclass(slots=True)
class Casino:
    dealer: int
    round: int
    #: the cards not dealt, in no particular order (the burned card first); hidden
    deck: list[int]
    house: list[int]
    hands: list[Hand]
    #: the hand betting or playing now
    current: int = 0


@dataclass(slots=True)
class HitchikerState:
    players: int
    rng: Rng
    seats: list[Hitchiker]
    #: city index -> owning seat, NOBODY for unowned (only Hometowns are ever owned)
    owners: list[int]
    #: the Bad Ride draw pile (top last, order hidden) and its discards
    bad_ride_pile: list[int]
    bad_ride_discards: list[int]
    turn: int = 0
    active: int = 0
    first: int = 0
    #: what the engine waits for; "" means the engine keeps resolving the turn
    phase: str = "pick_hometown"
    #: the seat whose decision ``phase`` is
    decider: int = 0
    started: bool = False
    #: the signed bank ledger: what the bank has taken in minus what it has paid out
    bank: int = 0
    agenda: list[Step] = field(default_factory=list)
    pick_queue: list[int] = field(default_factory=list)
    deposit_limit: int = 0
    offer_price: int = 0
    deal: Deal | None = None
    casino: Casino | None = None
    opening_rolls: list[dict[str, int]] = field(default_factory=list)
    turn_cap: int = 0
    winners: list[int] = field(default_factory=list)
    end_reason: str = ""
    #: game-data overrides from the options (None: the default board, chart and deck)
    custom: dict | None = None
    data_key: str = ""
