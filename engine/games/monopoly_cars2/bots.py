"""Bots for Monopoly: Cars 2 that read only their seat's view.

The game leaves few choices: use the jail card or pay, which free property to take, and
how far a "move forward" card goes. The heuristic values each reachable space in money:
what it costs or pays now, plus what a property is worth in future rent.
"""

from __future__ import annotations

from engine.core.bot import Bot
from engine.core.decisions import Decision
from engine.core.rng import Rng

#: a rough share of its price a property earns back per opponent over a typical game
RENT_YIELD_PER_OPPONENT = 0.4
#: a move that ends the game with this seat as the short one
LOSING = -1000.0
#: small flat values of the special spaces (a Chance card averages out near zero; another turn is worth one)
SPACE_VALUE = {"race_again": 1.5, "go_to_jail": -1.0, "chance": 0.2}


class HeuristicBot(Bot):
    def act(self, view: dict | None, decision: Decision, rng: Rng) -> dict:
        options = decision.options
        if len(options) == 1:
            return options[0]
        first_type = options[0]["type"]
        if decision.kind == "jail":
            # The card is only good for this; keep the money.
            return next((o for o in options if o["type"] == "use_jail_card"), options[0])
        if first_type == "choose_property":
            return max(options, key=lambda option: self.free_property_value(view, option["space"]))
        if first_type == "move_forward":
            return max(options, key=lambda option: self.move_value(view, option["spaces"]))
        return decision.default_action()

    # -- valuations (in money) -----------------------------------------------------

    @staticmethod
    def asset_value(view: dict, space: int) -> float:
        """What owning ``space`` is worth beyond its price: rent to come, doubled by a pair, or a pair denied."""
        board = view["board"]
        me = view["seat"]
        price = board[space]["price"]
        opponents = len(view["players"]) - 1
        value = RENT_YIELD_PER_OPPONENT * opponents * price
        partner = next(
            s["index"] for s in board
            if s.get("colour") == board[space]["colour"] and s["index"] != space
        )
        partner_owner = view["owners"][partner]
        if partner_owner == me:
            value *= 2  # completes the pair: chariot rent on both
        elif partner_owner is not None:
            value += 0.5 * price  # blocks an opponent's chariot
        return value

    @classmethod
    def rent_due(cls, view: dict, space: int) -> int:
        board = view["board"]
        owners = view["owners"]
        pair = [s["index"] for s in board if s.get("colour") == board[space]["colour"]]
        price = board[space]["price"]
        return price * 2 if all(owners[s] == owners[space] for s in pair) else price

    @classmethod
    def free_property_value(cls, view: dict, space: int) -> float:
        owner = view["owners"][space]
        if owner is None:
            return view["board"][space]["price"] + cls.asset_value(view, space)
        if owner == view["seat"]:
            return 0.0
        due = cls.rent_due(view, space)
        return LOSING if due > view["players"][view["seat"]]["money"] else -due

    @classmethod
    def move_value(cls, view: dict, steps: int) -> float:
        me = view["seat"]
        board = view["board"]
        position = view["players"][me]["position"]
        target = (position + steps) % len(board)
        money = view["players"][me]["money"]
        salary = view["go_salary"] * ((position + steps) // len(board))
        money += salary
        space = board[target]
        if space["kind"] != "property":
            return salary + SPACE_VALUE.get(space["kind"], 0.0)
        owner = view["owners"][target]
        if owner is None:
            if space["price"] > money:
                return LOSING
            return salary + cls.asset_value(view, target)
        if owner == me:
            return float(salary)
        due = cls.rent_due(view, target)
        return LOSING if due > money else salary - due
