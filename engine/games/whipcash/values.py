"""Whipca$h's value-model features (see ``engine.values``): cash, the Pros' holdings, the card."""

from __future__ import annotations

from engine.games.whipcash.board import PROS
from engine.games.whipcash.state import STARTING_CASH, WhipcashState
from engine.values.features import FeatureRows, SeatFeatures

#: The game's length the progress is measured against when no turn cap is set: about the 90th
#: percentile of four heuristic players' games (81 turns on average).
TYPICAL_TURNS = 160


def features(state: WhipcashState) -> SeatFeatures:
    players = state.players
    seats = range(players)
    alive = [state.alive[seat] for seat in seats]
    table = FeatureRows(alive, state.turn / (state.turn_cap or TYPICAL_TURNS))
    table.add_relative("cash", [state.cash[seat] for seat in seats], STARTING_CASH)
    holdings = [sum(1 for holder in state.holdings if holder == seat) for seat in seats]
    table.add("holdings", holdings, late=True)
    table.add("anti_fender_bender", [state.card[seat] for seat in seats])
    # Once Pros are bankrupt their money is with the seats, and a lead in cash is harder to take back.
    bankrupt = state.pros_bankrupt() / len(PROS)
    table.add("cash_share_x_pros_bankrupt", [share * bankrupt for share in table.columns[0]])
    return table.build()
