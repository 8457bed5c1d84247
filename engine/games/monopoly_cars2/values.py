"""Monopoly: Cars 2's value-model features (see ``engine.values``): money, properties and their rents."""

from __future__ import annotations

from engine.games.monopoly_cars2.state import NOBODY, GameState
from engine.games.monopoly_cars2.tables import tables_for
from engine.games.monopoly_cars2.turn import rent
from engine.values.features import FeatureRows, SeatFeatures

#: The game's length the progress is measured against when no turn cap is set (heuristic games
#: of four players last 33 turns on average).
TYPICAL_TURNS = 60
#: Money is counted in M1: a lead is measured in this many.
MONEY_SCALE = 10


def features(state: GameState) -> SeatFeatures:
    players = state.players
    tables = tables_for(state.custom)
    properties = [0] * players
    rents = [0] * players
    for space, owner in enumerate(state.owners):
        if owner != NOBODY:
            properties[owner] += 1
            rents[owner] += rent(state, tables, space)
    seats = state.seats
    table = FeatureRows([True] * players, state.turn / (state.turn_cap or TYPICAL_TURNS))
    money = [seat.money for seat in seats]
    table.add_relative("money", money, MONEY_SCALE)
    table.add_relative("rents", rents, MONEY_SCALE)
    table.add("properties", properties)
    # The game ends when a seat cannot pay: a seat with little money left is the one likely to lose it.
    table.add("short_of_money", [max(0, 5 - value) for value in money])
    table.add("in_prison", [seat.in_jail for seat in seats])
    table.add("jail_cards", [len(seat.jail_cards) for seat in seats])
    return table.build()
