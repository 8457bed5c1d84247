"""The state of a Hitchiker game: plain slots dataclasses, serialized generically."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.core.clone import SHARED
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
    #: the card burned to the bottom of the deck this round (never shown)
    burned: int
    house: list[int]
    hands: list[Hand]
    #: the hand betting or playing now
    current: int = 0


@dataclass(slots=True)
class HitchikerState:
    players: int
    rng: Rng
    seats: list[Hitchiker]
    #: Bad Ride cards drawn since the last reshuffle, face up; the rest form the draw pile,
    #: drawn from at random (which is what a shuffled pile is), so no hidden order is stored
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
    #: game-data overrides from the options (None: the default board, chart and deck); read-only once
    #: the game is set up, so copies share it
    custom: dict | None = field(default=None, metadata=SHARED)
    data_key: str = ""
    #: seats that joined the running game and have not picked their Hometown yet (their turns wait)
    joining: list[int] = field(default_factory=list)
    #: house rule ``savings_to_pouch``: inherited and confiscated savings go into the receiver's
    #: Bank Pouch (by default they arrive as travelling cash: only deposits fill a pouch)
    savings_to_pouch: bool = False


def owner_of(state: HitchikerState, city: int) -> int:
    """The seat owning this Hometown, or NOBODY (the bank)."""
    for seat, hitchiker in enumerate(state.seats):
        if city in hitchiker.hometowns:
            return seat
    return NOBODY


def state_to_jsonable(state: HitchikerState) -> dict:
    """Exactly what ``engine.core.serial.to_jsonable`` makes of the state, written out for speed."""
    deal = state.deal
    table = state.casino
    return {
        "players": state.players,
        "rng": {"seed": state.rng.seed, "counter": state.rng.counter},
        "seats": [
            {"cash": h.cash, "savings": h.savings, "units": h.units, "position": h.position,
             "hometowns": h.hometowns[:], "in_pot_hole": h.in_pot_hole}
            for h in state.seats
        ],
        "bad_ride_discards": state.bad_ride_discards[:],
        "turn": state.turn,
        "active": state.active,
        "first": state.first,
        "phase": state.phase,
        "decider": state.decider,
        "started": state.started,
        "bank": state.bank,
        "agenda": [{"kind": step.kind, "city": step.city} for step in state.agenda],
        "pick_queue": state.pick_queue[:],
        "deposit_limit": state.deposit_limit,
        "offer_price": state.offer_price,
        "deal": None if deal is None else {
            "buyer": deal.buyer, "stake": deal.stake, "roller": deal.roller, "rolls": deal.rolls,
            "last_roll": deal.last_roll,
        },
        "casino": None if table is None else {
            "dealer": table.dealer, "round": table.round, "burned": table.burned, "house": table.house[:],
            "hands": [
                {"seat": h.seat, "cards": h.cards[:], "bet": h.bet, "from_split": h.from_split, "doubled": h.doubled,
                 "outcome": h.outcome, "second": h.second}
                for h in table.hands
            ],
            "current": table.current,
        },
        "opening_rolls": [dict(roll) for roll in state.opening_rolls],
        "turn_cap": state.turn_cap,
        "winners": state.winners[:],
        "end_reason": state.end_reason,
        "custom": state.custom,
        "data_key": state.data_key,
        "joining": state.joining[:],
        "savings_to_pouch": state.savings_to_pouch,
    }


def state_from_jsonable(data: dict) -> HitchikerState:
    """The inverse of ``state_to_jsonable`` (and of the generic serializer)."""
    deal = data["deal"]
    table = data["casino"]
    return HitchikerState(
        players=data["players"],
        rng=Rng(data["rng"]["seed"], data["rng"]["counter"]),
        seats=[Hitchiker(h["cash"], h["savings"], h["units"], h["position"], list(h["hometowns"]), h["in_pot_hole"])
               for h in data["seats"]],
        bad_ride_discards=list(data["bad_ride_discards"]),
        turn=data["turn"],
        active=data["active"],
        first=data["first"],
        phase=data["phase"],
        decider=data["decider"],
        started=data["started"],
        bank=data["bank"],
        agenda=[Step(step["kind"], step["city"]) for step in data["agenda"]],
        pick_queue=list(data["pick_queue"]),
        deposit_limit=data["deposit_limit"],
        offer_price=data["offer_price"],
        deal=None if deal is None else Deal(deal["buyer"], deal["stake"], deal["roller"], deal["rolls"],
                                            deal["last_roll"]),
        casino=None if table is None else Casino(
            table["dealer"], table["round"], table["burned"], list(table["house"]),
            [Hand(h["seat"], list(h["cards"]), h["bet"], h["from_split"], h["doubled"], h["outcome"], h["second"])
             for h in table["hands"]],
            table["current"],
        ),
        opening_rolls=[dict(roll) for roll in data["opening_rolls"]],
        turn_cap=data["turn_cap"],
        winners=list(data["winners"]),
        end_reason=data["end_reason"],
        custom=data["custom"],
        data_key=data["data_key"],
        joining=list(data.get("joining", ())),  # states stored before mid-game joins have none
        savings_to_pouch=data["savings_to_pouch"],
    )
