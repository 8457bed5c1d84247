"""The ``heuristic`` bot: plays from its seat's view what a sensible gangster would.

It shoots Bang! cards at rich lineups, aims at the richest (or nearly dead) rival, lies
down when the guns pointed at it are likely loaded, and picks the loot worth the most
to it (painting sets grow, diamonds chase the bonus, first aid only when wounded).
"""

from __future__ import annotations

from engine.core.bot import Bot
from engine.core.decisions import Decision
from engine.core.rng import Rng
from engine.games.cash_n_guns.cards import BANG, CATALOG, CLICK, CLIP, DIAMOND, FIRST_AID, PAINTING
from engine.games.cash_n_guns.state import CashNGunsState
from engine.games.cash_n_guns.view import heuristic_view

#: a lineup worth at least this much deserves a Bang! card
RICH_LINEUP = 60_000
#: what being Godfather next round is worth (first pick, the privilege)
TOKEN_WORTH = 7_000
#: a diamond card's share of the diamond bonus race
DIAMOND_RACE = 8_000
#: what one wound healed is worth
WOUND_WORTH = 9_000
#: a painting in an unknown hand, for judging a lineup
PAINTING_GUESS = 8_000
DEADLY_WOUNDS = 2
#: a gun to face standing up: lie down above this expected number of hits
HIT_TOLERANCE = 0.7
#: with two wounds, lie down above this chance of being hit
DEADLY_HIT_TOLERANCE = 0.1


def _lineup_worth(lineup: list[str]) -> int:
    return sum(PAINTING_GUESS if CATALOG[c].kind == PAINTING else CATALOG[c].value for c in lineup)


def _bang_chance(player: dict) -> float:
    """The chance this player's face-down bullet is a Bang!, from the cards it has shown."""
    bangs_unseen = 3 + player["reloaded"] - player["shown"][BANG]
    cards_unseen = player["hand_size"] + player["face_down_discards"] + 1
    return max(0.0, min(1.0, bangs_unseen / cards_unseen))


class HeuristicBot(Bot):
    def choose(self, state: CashNGunsState, decision: Decision, rng: Rng) -> dict:
        # The full view costs most of an analysis' play-outs; this bot reads only the part of it
        # that ``heuristic_view`` builds (by the view's own rules: a test checks it is that part).
        return self.act(heuristic_view(state, decision.seat), decision, rng)

    def act(self, view: dict | None, decision: Decision, rng: Rng) -> dict:
        return dict(getattr(self, "_" + decision.kind)(view, decision))

    def _choose_bullet(self, view: dict, decision: Decision) -> dict:
        hand = view["hand"]
        # Only Bang! cards left: each remaining round must fire one anyway.
        fire = hand[BANG] > 0 and (not hand[CLICK] or _lineup_worth(view["lineup"]) >= RICH_LINEUP)
        return {"type": "choose_bullet", "card": BANG if fire else CLICK}

    @staticmethod
    def _victim_worth(player: dict) -> int:
        return player["loot_value"] + (30_000 if player["wounds"] >= DEADLY_WOUNDS else 0)

    def _best_target(self, view: dict, decision: Decision) -> dict:
        players = view["players"]
        aimed = [o for o in decision.options if o["target"] is not None]
        if not aimed:
            return decision.default_action()
        return max(aimed, key=lambda o: (self._victim_worth(players[o["target"]]), -o["target"]))

    _aim = _best_target
    _retarget = _best_target

    def _privilege(self, view: dict, decision: Decision) -> dict:
        me = view["you"]
        threats = [o for o in decision.options
                   if o["target"] is not None and view["players"][o["target"]]["target"] == me]
        if not threats:
            return decision.default_action()
        return max(threats, key=lambda o: _bang_chance(view["players"][o["target"]]))

    def _courage(self, view: dict, decision: Decision) -> dict:
        me = view["you"]
        chances = [_bang_chance(p) for p in view["players"] if p["alive"] and p["target"] == me]
        expected_hits = sum(chances)
        safe = 1.0
        for chance in chances:
            safe *= 1.0 - chance
        deadly = view["players"][me]["wounds"] >= DEADLY_WOUNDS and 1.0 - safe > DEADLY_HIT_TOLERANCE
        return {"type": "courage", "stand": not (deadly or expected_hits > HIT_TOLERANCE)}

    def _card_worth(self, view: dict, card_id: str) -> int:
        card = CATALOG[card_id]
        me = view["players"][view["you"]]
        if card.kind == PAINTING:
            chart = view["painting_set_values"]
            owned = sum(1 for c in me["loot"] if CATALOG[c].kind == PAINTING)
            have = chart[owned - 1] if owned else 0
            return chart[min(owned, len(chart) - 1)] - have
        if card.kind == DIAMOND:
            return card.value + DIAMOND_RACE
        if card.kind == FIRST_AID:
            return me["wounds"] * WOUND_WORTH
        if card.kind == CLIP:
            useful = view["discard"][BANG] and view["hand"][CLICK]
            return 3_000 if useful else 0
        return card.value

    def _take_loot(self, view: dict, decision: Decision) -> dict:
        def worth(option: dict) -> int:
            if option["type"] == "take_godfather_token":
                return TOKEN_WORTH if view["godfather"] != view["you"] else 0
            return self._card_worth(view, option["card"])

        return max(decision.options, key=worth)

    def _clip_discard(self, view: dict, decision: Decision) -> dict:
        # Toss a Click and keep the Bang! cards; a hand of Bang! cards only has nothing else to toss.
        return {"type": "clip_discard", "card": CLICK if view["hand"][CLICK] else BANG}
