"""Cash 'n Guns' value-model features (see ``engine.values``): loot, diamonds, wounds, bullets in hand.

The bullets in another seat's hand are secret: from a seat's view they come from the worlds
``resample_hidden`` deals, never from the real hands.
"""

from __future__ import annotations

from engine.games.cash_n_guns.cards import BANG, diamond_cards, loot_value
from engine.games.cash_n_guns.state import CashNGunsState
from engine.values.features import FeatureRows, SeatFeatures

#: About what one loot card is worth: leads are measured in it.
LOOT_SCALE = 10_000


def features(state: CashNGunsState) -> SeatFeatures:
    gangsters = state.gangsters
    alive = [g.alive for g in gangsters]
    table = FeatureRows(alive, state.turn / state.rounds if state.rounds else 0.0)
    table.add_relative("loot", [loot_value(g.loot, state.painting_set_values) for g in gangsters], LOOT_SCALE)
    table.add_relative("diamonds", [diamond_cards(g.loot) for g in gangsters], 1)
    table.add("wounds", [g.wounds for g in gangsters], late=True)
    # A third wound kills: two wounds is one shot from out.
    table.add("two_wounds", [g.wounds >= 2 for g in gangsters])
    # Bang! cards still to fire: those in hand and the one lying face down this round.
    table.add("bangs_left", [g.bangs + (g.chosen == BANG) for g in gangsters], late=True)
    table.add("cards_in_hand", [g.bangs + g.clicks for g in gangsters])
    table.add("godfather", [seat == state.godfather for seat in range(state.players)])
    return table.build()
