"""Hitchiker's value-model features (see ``engine.values``): savings against the goal, travelling cash,
contraband, Hometowns."""

from __future__ import annotations

from engine.games.hitchiker.money import START_CASH
from engine.games.hitchiker.state import HitchikerState
from engine.games.hitchiker.turn import SAVINGS_GOAL
from engine.values.features import FeatureRows, SeatFeatures


def features(state: HitchikerState) -> SeatFeatures:
    hitchikers = state.seats
    table = FeatureRows([True] * state.players, state.turn / state.turn_cap if state.turn_cap else 0.0)
    savings = [h.savings for h in hitchikers]
    table.add_relative("savings", savings, SAVINGS_GOAL)
    # Reaching the goal wins at once: how near each seat is, and near squared (the last stretch counts most).
    table.add("savings_of_goal", [min(1.0, value / SAVINGS_GOAL) for value in savings])
    table.add("savings_of_goal_squared", [min(1.0, value / SAVINGS_GOAL) ** 2 for value in savings])
    table.add_relative("cash", [h.cash for h in hitchikers], SAVINGS_GOAL)
    # At the turn cap savings and cash count alike.
    table.add_relative("score", [h.savings + h.cash for h in hitchikers], SAVINGS_GOAL)
    table.add("cash_of_start", [min(10.0, h.cash / START_CASH) for h in hitchikers])
    table.add("contraband", [h.units for h in hitchikers])
    table.add("hometowns", [len(h.hometowns) for h in hitchikers])
    table.add("in_pot_hole", [h.in_pot_hole for h in hitchikers])
    return table.build()
