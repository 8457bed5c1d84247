"""A Whipca$h game's state.

Money holders ("parties") share one index space so every payment is ``cash[a] -> cash[b]``:
seats ``0 .. players - 1``, then the three Pros in payment order (``players + k`` for
``PROS[k]``), then the bank (``players + 3``), whose entry is a signed ledger.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.core.clone import SHARED
from engine.core.rng import Rng
from engine.games.whipcash.board import PROS

STARTING_CASH = 24_000
OUT = -1

# Phases: what the pending decision is.
ROLL = "roll"
CARD = "card"
PIT_CHOICE = "pit_choice"
OVER = "over"


@dataclass(slots=True)
class WhipcashState:
    players: int
    rng: Rng
    #: seats in order of play (decided by the opening rolls)
    order: list[int]
    #: every opening roll, round by round: {"round", "seat", "dice"}
    opening_rolls: list[dict]
    #: one entry per party: seats, the Pros, then the bank ledger
    cash: list[int]
    #: one entry per party; the bank never goes out
    alive: list[bool]
    #: the party controlling each Pro's spaces and Pit (the Pro itself until bankrupted)
    holdings: list[int]
    #: board position per seat (``OUT`` once eliminated)
    position: list[int]
    #: whether each seat still holds its Anti-Fender Bender card
    card: list[bool]
    #: a custom board from the options; ``None`` is the shipped board. Read-only, and its parsed ``Board``
    #: is cached by the dict's identity, so copies share it
    board: dict | None = field(default=None, metadata=SHARED)
    turn_cap: int | None = None
    turn: int = 1
    #: the seat whose turn it is
    current: int = 0
    phase: str = ROLL
    #: dice chosen for the roll being resolved (Roll Dice for $ rolls as many)
    dice_count: int = 2
    #: the seat rolls again once this roll is resolved (doubles or a Whipca$h)
    extra_roll: bool = False
    #: cars still to settle a Whipca$h with, in order of play
    whipcash_queue: list[int] = field(default_factory=list)
    #: cars landed on on the Freeway still to be sent to a Pit
    pit_queue: list[int] = field(default_factory=list)
    #: seats in the order they went out
    eliminated: list[int] = field(default_factory=list)
    #: per party: who bankrupted it (``OUT`` if nobody)
    bankrupted_by: list[int] = field(default_factory=list)
    end_reason: str = ""

    @property
    def bank(self) -> int:
        return self.players + len(PROS)

    def pro_party(self, pro_index: int) -> int:
        return self.players + pro_index

    def pros_bankrupt(self) -> int:
        return sum(1 for k in range(len(PROS)) if not self.alive[self.players + k])

    def seats_alive(self) -> list[int]:
        return [seat for seat in self.order if self.alive[seat]]
