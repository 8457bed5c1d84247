"""The state of a Cash 'n Guns game: plain slots dataclasses, serialized generically."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.core.rng import Rng

# Phases of a round, in order (see docs/rules/cash-n-guns.md).
BULLETS = "bullets"
AIM = "aim"
PRIVILEGE = "privilege"
RETARGET = "retarget"
COURAGE = "courage"
LOOT = "loot"
CLIP_PHASE = "clip"
OVER = "over"

NOBODY = -1


@dataclass(slots=True)
class Gangster:
    """One seat. ``clicks``/``bangs`` count the bullet cards still in hand (secret)."""

    clicks: int
    bangs: int
    alive: bool = True
    wounds: int = 0
    #: the bullet card lying face down in front of the player this round ("" = none yet)
    chosen: str = ""
    aimed: bool = False
    target: int = NOBODY
    decided: bool = False
    stands: bool = True
    #: the card turned face up at this round's reveal ("" when lying down or not revealed yet)
    revealed: str = ""
    #: wounds taken at this round's reveal (a wounded player shares no loot)
    hit: int = 0
    loot: list[str] = field(default_factory=list)
    #: bullet cards this player discarded face down (lying down, clip discards): secret
    face_down: list[str] = field(default_factory=list)
    shown_clicks: int = 0
    shown_bangs: int = 0
    #: Bang! cards taken back from the discard with clips (public)
    reloaded: int = 0
    #: the round in which the player died (0 = alive)
    died_in: int = 0


@dataclass(slots=True)
class CashNGunsState:
    players: int
    rng: Rng
    gangsters: list[Gangster]
    #: undealt loot piles; the next round reveals piles[0]
    piles: list[list[str]]
    rounds: int
    painting_set_values: list[int]
    diamond_bonus: int
    #: rounds played so far
    turn: int = 0
    phase: str = BULLETS
    lineup: list[str] = field(default_factory=list)
    #: loot out of the game: lineups nobody could take (every player lay down or was wounded), lost clips
    lost_loot: list[str] = field(default_factory=list)
    godfather: int = 0
    #: who flipped the New Godfather token this round (NOBODY = still available)
    token_taker: int = NOBODY
    #: the seat the Godfather ordered to change target
    forced: int = NOBODY
    #: the seat whose loot pick (or clip discard) is awaited
    picker: int = NOBODY
    #: face-up bullet cards in the discard pile; only these Bang! cards can be taken by a clip
    discard_bangs: int = 0
    discard_clicks: int = 0
    turn_cap: int | None = None
    #: how the game ended ("" while it goes on)
    ended: str = ""
    #: house rule ``reveal_wasted_bullets``: a standing player's card that cannot hit (his target
    #: lay down, or he aims at nobody) is turned face up too (by default it is discarded face down)
    reveal_wasted: bool = False
