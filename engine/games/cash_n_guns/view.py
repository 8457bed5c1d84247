"""What a seat at the table knows, and states it could not tell apart from the real one.

Public: the lineup, every player's taken loot, wounds, who is alive, the Godfather and the
token, how many bullet cards each player holds, the cards turned face up at each reveal,
the face-up discard, and who has already chosen / aimed / decided.
Secret until the reveal of its phase: each bullet card chosen, each aim, each
stand-or-lie-down choice. Secret for good: the cards in another player's hand, the cards
discarded face down (lying down, clip discards), the order of the undealt piles.
"""

from __future__ import annotations

from engine.core.rng import Rng
from engine.games.cash_n_guns.cards import BANG, CARD_ORDER, CLICK, diamond_cards, loot_value
from engine.games.cash_n_guns.state import (
    AIM,
    BULLETS,
    COURAGE,
    NOBODY,
    OVER,
    PRIVILEGE,
    RETARGET,
    CashNGunsState,
    Gangster,
)

#: phases in which the courage choices are still face down
COURAGE_HIDDEN = frozenset((BULLETS, AIM, PRIVILEGE, RETARGET, COURAGE))


def view(state: CashNGunsState, seat: int | None) -> dict:
    aims_public = state.phase != AIM
    courage_public = state.phase not in COURAGE_HIDDEN
    chart = state.painting_set_values
    chart_key = tuple(chart)  # built once: the memoised loot value is keyed on tuples
    players = []
    for index, g in enumerate(state.gangsters):
        mine = index == seat
        target = _visible_target(g, mine, aims_public)
        loot = tuple(g.loot)
        players.append({
            "seat": index,
            "alive": g.alive,
            "wounds": g.wounds,
            "loot": list(loot),
            "loot_value": loot_value(loot, chart_key),
            "diamond_cards": diamond_cards(loot),
            "hand_size": g.clicks + g.bangs,
            "has_chosen": bool(g.chosen),
            "has_aimed": g.aimed,
            "target": None if target == NOBODY else target,
            "has_decided": g.decided,
            "standing": g.stands if g.decided and (courage_public or mine) else None,
            "revealed": g.revealed or None,
            "shown": {CLICK: g.shown_clicks, BANG: g.shown_bangs},
            "face_down_discards": len(g.face_down),
            "reloaded": g.reloaded,
            "died_in_round": g.died_in or None,
        })
    body = {
        "round": min(state.turn + 1, state.rounds) if state.phase != OVER else state.turn,
        "rounds": state.rounds,
        "phase": state.phase,
        "godfather": state.godfather,
        "token_available": state.token_taker == NOBODY,
        "token_taker": None if state.token_taker == NOBODY else state.token_taker,
        "forced": None if state.forced == NOBODY else state.forced,
        "picker": None if state.picker == NOBODY else state.picker,
        "lineup": list(state.lineup),
        "piles_left": len(state.piles),
        "discard": {CLICK: state.discard_clicks, BANG: state.discard_bangs,
                    "face_down": sum(len(g.face_down) for g in state.gangsters)},
        "painting_set_values": list(chart),
        "diamond_bonus": state.diamond_bonus,
        "players": players,
        "you": seat,
    }
    if seat is not None:
        me = state.gangsters[seat]
        body["hand"] = {CLICK: me.clicks, BANG: me.bangs}
        body["bullet"] = me.chosen or None
    return body


def _visible_target(g: Gangster, mine: bool, aims_public: bool) -> int:
    """Whom ``g`` aims at as the viewer may know it (``NOBODY`` while another's aim is face down)."""
    return g.target if g.aimed and (aims_public or mine) else NOBODY


def heuristic_view(state: CashNGunsState, seat: int) -> dict:
    """The part of ``view(state, seat)`` the ``heuristic`` bot reads, built by the same rules.

    The play-outs of a game analysis build millions of views, and the full one costs most of a
    play-out while the heuristic bot reads a few of its fields: it is given this part instead.
    Every key here is a key of the full view with the same value (a dict here holds some of the
    full dict's keys): a test checks it, so the bot still sees nothing the seat may not know.
    """
    aims_public = state.phase != AIM
    chart_key = tuple(state.painting_set_values)
    players = []
    for index, g in enumerate(state.gangsters):
        target = _visible_target(g, index == seat, aims_public)
        loot = tuple(g.loot)
        players.append({
            "alive": g.alive,
            "wounds": g.wounds,
            "loot": list(loot),
            "loot_value": loot_value(loot, chart_key),
            "hand_size": g.clicks + g.bangs,
            "target": None if target == NOBODY else target,
            "shown": {CLICK: g.shown_clicks, BANG: g.shown_bangs},
            "face_down_discards": len(g.face_down),
            "reloaded": g.reloaded,
        })
    me = state.gangsters[seat]
    return {
        "godfather": state.godfather,
        "lineup": list(state.lineup),
        "discard": {BANG: state.discard_bangs},
        "painting_set_values": list(state.painting_set_values),
        "players": players,
        "you": seat,
        "hand": {CLICK: me.clicks, BANG: me.bangs},
    }


def resample_hidden(state: CashNGunsState, seat: int | None, rng: Rng) -> None:
    """Re-deal, in place, everything ``seat`` cannot see (``None``: a spectator sees no secret).

    The world dealt depends only on what ``seat`` sees and on ``rng``: whatever is re-dealt is
    first put in a canonical order (or only counted), so states that differ in secrets alone
    give the same worlds.
    """
    redeal_piles(state, rng)
    living = [index for index, g in enumerate(state.gangsters) if g.alive]
    for index, g in enumerate(state.gangsters):
        if index == seat:
            g.face_down.sort()  # which of its own face-down cards came first is in no view
            continue
        _redeal_bullets(g, rng)
        if state.phase == AIM and g.aimed:
            g.target = rng.choice([NOBODY, *(other for other in living if other != index)])
        if state.phase == COURAGE and g.decided:
            g.stands = rng.randint(0, 1) == 1


def redeal_piles(state: CashNGunsState, rng: Rng) -> None:
    """Re-seed the generator and re-deal the undealt loot piles, in place (nobody sees either)."""
    state.rng = Rng(rng.next64())
    piles = state.piles
    if len(piles) > 1:  # a single pile is kept sorted: its cards are known by elimination
        undealt = sorted([card for pile in piles for card in pile])
        rng.quick_shuffle(undealt)
        start = 0
        for pile in piles:
            end = start + len(pile)
            pile[:] = sorted(undealt[start:end], key=CARD_ORDER.__getitem__)
            start = end


def _redeal_bullets(g: Gangster, rng: Rng) -> None:
    """Deal the player's unseen bullet cards (hand, face-down choice, face-down discards) anew.

    Only their numbers are public (hand size, and the Bang! cards from what was shown and
    reloaded), so the face-down cards are drawn one by one from all of them and the hand keeps
    the rest: a uniform deal. The draws are the digits of a 64-bit draw in the radices left,
    left - 1...; a fresh one comes before their product passes 2**26, so the bias stays below
    2**-38 (with the published deck a player holds 11 cards at most, 11! < 2**26: one draw).
    """
    face_down = g.face_down
    chosen = 1 if g.chosen else 0
    if not face_down and not chosen:
        return  # a hand alone: what it holds follows from what the player has shown
    left = g.clicks + g.bangs + len(face_down) + chosen
    bangs = g.bangs + face_down.count(BANG) + (g.chosen == BANG)
    number = rng.next64()
    used = 1
    drawn = []
    for _ in range(len(face_down) + chosen):
        used *= left
        if used >> 26:
            number, used = rng.next64(), left
        number, pick = divmod(number, left)
        if pick < bangs:
            drawn.append(BANG)
            bangs -= 1
        else:
            drawn.append(CLICK)
        left -= 1
    if chosen:
        g.chosen = drawn.pop()
    face_down[:] = drawn
    g.bangs = bangs
    g.clicks = left - bangs
