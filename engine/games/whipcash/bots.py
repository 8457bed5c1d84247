"""The ``heuristic`` bot: one or two dice by the expected value of the spaces in reach.

It reads only its seat's view (board, positions, money, who controls each Pro's holdings).
"""

from __future__ import annotations

from engine.core.bot import Bot
from engine.core.decisions import Decision
from engine.core.rng import Rng
from engine.games.whipcash import board as spaces
from engine.games.whipcash.board import PROS, Board
from engine.games.whipcash.money import FREEWAY_LAND, FREEWAY_PASS, PIT_FEE, WHIPCASH_AMOUNTS

#: probability of each total with one die and with two dice
TOTALS = {
    1: {t: 1 / 6 for t in range(1, 7)},
    2: {t: (6 - abs(t - 7)) / 36 for t in range(2, 13)},
}
#: what landing in a Pit costs beside its fees: lost turns while the others move on
PIT_TEMPO = 3_000
#: what keeping the Anti-Fender Bender card is worth while a Whipca$h could still cost us
CARD_VALUE = 6_000
#: being broke ends the game for us: far worse than the money itself
RUIN_PENALTY = 60_000
EXPECTED_CASH_PER_DIE = 3_500


class HeuristicBot(Bot):
    def __init__(self, ruleset) -> None:
        super().__init__(ruleset)
        self._board_data: dict | None = None
        self._board: Board | None = None

    def board(self, view: dict) -> Board:
        if view["board"] is not self._board_data:
            self._board_data = view["board"]
            self._board = Board(view["board"])
        return self._board

    def act(self, view: dict | None, decision: Decision, rng: Rng) -> dict:
        if decision.kind == "anti_fender_bender":
            return {"type": "anti_fender_bender", "play": self._plays_card(view)}
        if decision.kind == "send_to_pit":
            return {"type": "send_to_pit", "pit": self._pit_choice(view)}
        board = self.board(view)
        threats = self._threats(view, board)
        one, two = (self._expected_roll(view, board, dice, threats) for dice in (1, 2))
        return {"type": "roll", "dice": 1 if one > two else 2}

    # -- the card and the Pit ---------------------------------------------------------

    def _plays_card(self, view: dict) -> bool:
        me = view["seat"]
        amount = WHIPCASH_AMOUNTS[view["pros_bankrupt"]]
        return amount >= 15_000 or amount >= view["players"][me]["cash"]

    def _pit_choice(self, view: dict) -> str:
        """Our own Pit; else a Pro's (its fees help no rival); else the poorest rival's."""
        me = view["seat"]
        owners = {pro["id"]: pro["holdings_owner"] for pro in view["pros"]}
        if any(owner == me for owner in owners.values()):
            return next(pro for pro, owner in owners.items() if owner == me)
        cash = {pro["id"]: pro["cash"] for pro in view["pros"]}

        def preference(pro: str) -> tuple[int, int]:
            owner = owners[pro]
            if owner in PROS:
                return (0, -cash[owner])
            if owner == "bank":
                return (1, 0)
            return (2, view["players"][owner]["cash"])

        return min(PROS, key=preference)

    # -- the dice ---------------------------------------------------------------------

    def _expected_roll(self, view: dict, board: Board, dice: int, threats: dict[int, float]) -> float:
        me = view["seat"]
        start = view["players"][me]["position"]
        in_pit = board.kind[start] == spaces.PIT
        expected = 0.0
        for total, chance in TOTALS[dice].items():
            if in_pit and total % 2:
                continue  # an odd roll stays in the Pit whatever the dice: same for both choices
            expected += chance * self._move_value(view, board, start, total, dice, threats)
        return expected

    def _move_value(self, view: dict, board: Board, position: int, steps: int, dice: int,
                    threats: dict[int, float]) -> float:
        me = view["seat"]
        cars = [p["position"] for p in view["players"] if p["alive"] and p["seat"] != me]
        value = 0.0
        for _ in range(steps - 1):
            position = board.next_position[position]
            if position >= board.lane_start:
                value += FREEWAY_PASS * cars.count(position)
        position = board.next_position[position]
        if board.kind[position] == spaces.ONRAMP:
            position = board.lane_start
        value += self._landing_value(view, board, position, cars, dice)
        cash = view["players"][me]["cash"]
        if cash + value < 0:
            value -= RUIN_PENALTY
        return value + self._exposure(view, board, position, threats)

    def _holder(self, view: dict, pro_index: int) -> int | str:
        return view["pros"][pro_index]["holdings_owner"]

    def _landing_value(self, view: dict, board: Board, position: int, cars: list[int], dice: int) -> float:
        me = view["seat"]
        kind = board.kind[position]
        if kind == spaces.LANE:
            return FREEWAY_LAND * cars.count(position)
        if kind == spaces.PIT:
            mine = self._holder(view, board.pro[position]) == me
            return -PIT_TEMPO - (0 if mine else PIT_FEE)
        if position in cars:
            level = view["pros_bankrupt"]
            if level:
                return WHIPCASH_AMOUNTS[level] * cars.count(position)
            if view["players"][me]["anti_fender_bender"]:
                return -CARD_VALUE
            return -WHIPCASH_AMOUNTS[0] * cars.count(position)
        amount = board.amount[position]
        if kind == spaces.PAY_PRO:
            return 0 if self._holder(view, board.pro[position]) == me else -amount
        if kind == spaces.PRO_PAYS:
            return 0 if self._holder(view, board.pro[position]) == me else amount
        if kind == spaces.BANK_PAYS:
            return amount
        if kind == spaces.PAY_EACH_PRO:
            return -amount * sum(1 for k in range(len(PROS)) if self._holder(view, k) != me)
        if kind == spaces.MOVE:
            target = (position + board.steps[position]) % board.loop_len
            return self._landing_value(view, board, target, cars, dice) if board.kind[target] != spaces.MOVE else 0
        if kind == spaces.ROLL_FOR_CASH:
            payer = board.payer[position]
            if payer != spaces.BANK_PAYER and self._holder(view, payer) == me:
                return 0
            return EXPECTED_CASH_PER_DIE * dice
        return 0

    def _threats(self, view: dict, board: Board) -> dict[int, float]:
        """Per position, how many rivals are expected to land there on their next roll."""
        me = view["seat"]
        threats: dict[int, float] = {}
        for rival in view["players"]:
            if not rival["alive"] or rival["seat"] == me or board.kind[rival["position"]] == spaces.PIT:
                continue
            where = rival["position"]
            for steps in range(1, 13):
                where = board.next_position[where]
                landed = board.lane_start if board.kind[where] == spaces.ONRAMP else where
                # rivals are assumed to pick one or two dice evenly
                threats[landed] = threats.get(landed, 0.0) + (TOTALS[1].get(steps, 0) + TOTALS[2].get(steps, 0)) / 2
        return threats

    def _exposure(self, view: dict, board: Board, position: int, threats: dict[int, float]) -> float:
        """What the rivals' next moves may cost or bring us sitting on ``position``."""
        chance = threats.get(position)
        if not chance or board.kind[position] == spaces.PIT:
            return 0.0
        level = view["pros_bankrupt"]
        if board.is_lane(position):
            per_hit = -FREEWAY_LAND - PIT_TEMPO
        elif level == 0:
            per_hit = WHIPCASH_AMOUNTS[0] / 2  # they may cancel it with their card
        else:
            per_hit = 0 if view["players"][view["seat"]]["anti_fender_bender"] else -WHIPCASH_AMOUNTS[level]
        return per_hit * chance
