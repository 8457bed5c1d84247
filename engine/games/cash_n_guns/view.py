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
from engine.games.cash_n_guns.state import AIM, BULLETS, COURAGE, NOBODY, OVER, PRIVILEGE, RETARGET, CashNGunsState

#: phases in which the courage choices are still face down
COURAGE_HIDDEN = frozenset((BULLETS, AIM, PRIVILEGE, RETARGET, COURAGE))


def view(state: CashNGunsState, seat: int | None) -> dict:
    aims_public = state.phase != AIM
    courage_public = state.phase not in COURAGE_HIDDEN
    chart = state.painting_set_values
    players = []
    for index, g in enumerate(state.gangsters):
        mine = index == seat
        target = g.target if g.aimed and (aims_public or mine) else NOBODY
        players.append({
            "seat": index,
            "alive": g.alive,
            "wounds": g.wounds,
            "loot": list(g.loot),
            "loot_value": loot_value(g.loot, chart),
            "diamond_cards": diamond_cards(g.loot),
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


def resample_hidden(state: CashNGunsState, seat: int | None, rng: Rng) -> None:
    """Reshuffle, in place, everything ``seat`` cannot see (``None``: a spectator sees no secret)."""
    state.rng = Rng(rng.next64())
    undealt = [card for pile in state.piles for card in pile]
    rng.shuffle(undealt)
    start = 0
    for pile in state.piles:
        pile[:] = sorted(undealt[start:start + len(pile)], key=CARD_ORDER.__getitem__)
        start += len(pile)
    living = [index for index, g in enumerate(state.gangsters) if g.alive]
    for index, g in enumerate(state.gangsters):
        if index == seat:
            continue
        _reshuffle_bullets(g, rng)
        if state.phase == AIM and g.aimed:
            g.target = rng.choice([NOBODY, *(other for other in living if other != index)])
        if state.phase == COURAGE and g.decided:
            g.stands = rng.randint(0, 1) == 1


def _reshuffle_bullets(g, rng: Rng) -> None:
    """Deal the player's unseen bullet cards (hand, face-down choice, face-down discards) anew."""
    cards = [CLICK] * g.clicks + [BANG] * g.bangs + g.face_down + ([g.chosen] if g.chosen else [])
    rng.shuffle(cards)
    if g.chosen:
        g.chosen = cards.pop()
    for slot in range(len(g.face_down)):
        g.face_down[slot] = cards.pop()
    g.bangs = cards.count(BANG)
    g.clicks = len(cards) - g.bangs
