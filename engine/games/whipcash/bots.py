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
        choice = _DiceChoice(view, board, self._threats(view, board))
        one, two = (choice.expected_roll(dice) for dice in (1, 2))
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
                threats[landed] = threats.get(landed, 0.0) + RIVAL_STEP_CHANCE[steps]
        return threats


#: the chance a rival moves exactly this many steps, assuming it picks one or two dice evenly
RIVAL_STEP_CHANCE = {steps: (TOTALS[1].get(steps, 0) + TOTALS[2].get(steps, 0)) / 2 for steps in range(1, 13)}


class _DiceChoice:
    """What one roll decision needs, read from the view once and shared by both dice counts.

    The bot prices every total of one die and of two dice (the play-outs of an analysis ask it
    millions of times): the rivals' cars, who holds each Pro's holdings and the walk from our
    space are the same for every total, so they are computed once here. The arithmetic is the
    same, operation by operation, as pricing each total on its own: the choices do not change.
    """

    def __init__(self, view: dict, board: Board, threats: dict[int, float]) -> None:
        me = view["seat"]
        self.board = board
        self.threats = threats
        self.me = me
        mine = view["players"][me]
        self.start = mine["position"]
        self.cash = mine["cash"]
        self.has_card = mine["anti_fender_bender"]
        self.level = view["pros_bankrupt"]
        #: how many rival cars sit on each position
        self.cars: dict[int, int] = {}
        for p in view["players"]:
            if p["alive"] and p["seat"] != me:
                self.cars[p["position"]] = self.cars.get(p["position"], 0) + 1
        self.holders = [pro["holdings_owner"] for pro in view["pros"]]
        self.pros_not_mine = sum(1 for holder in self.holders if holder != me)
        self._walk()

    def _walk(self) -> None:
        """For each total, the Freeway passing money on the way and the space we land on."""
        board = self.board
        lane_start = board.lane_start
        position = self.start
        passing = 0.0
        #: ``passed[t]``: the money for cars passed in the first ``t - 1`` steps, added step by step
        self.passed = [0.0] * 13
        #: ``landing[t]``: where ``t`` steps end (an on-ramp leads onto the Freeway)
        self.landing = [0] * 13
        for total in range(1, 13):
            self.passed[total] = passing
            position = board.next_position[position]
            self.landing[total] = lane_start if board.kind[position] == spaces.ONRAMP else position
            if position >= lane_start:
                passing += FREEWAY_PASS * self.cars.get(position, 0)
        #: ``exposed[t]``: what the rivals' next moves may cost us where ``t`` steps end
        self.exposed = [self.exposure(landing) for landing in self.landing]

    def expected_roll(self, dice: int) -> float:
        in_pit = self.board.kind[self.start] == spaces.PIT
        expected = 0.0
        for total, chance in TOTALS[dice].items():
            if in_pit and total % 2:
                continue  # an odd roll stays in the Pit whatever the dice: same for both choices
            expected += chance * self.move_value(total, dice)
        return expected

    def move_value(self, steps: int, dice: int) -> float:
        value = self.passed[steps] + self.landing_value(self.landing[steps], dice)
        if self.cash + value < 0:
            value -= RUIN_PENALTY
        return value + self.exposed[steps]

    def landing_value(self, position: int, dice: int) -> float:
        board = self.board
        me = self.me
        kind = board.kind[position]
        cars_here = self.cars.get(position, 0)
        if kind == spaces.LANE:
            return FREEWAY_LAND * cars_here
        if kind == spaces.PIT:
            mine = self.holders[board.pro[position]] == me
            return -PIT_TEMPO - (0 if mine else PIT_FEE)
        if cars_here:
            if self.level:
                return WHIPCASH_AMOUNTS[self.level] * cars_here
            if self.has_card:
                return -CARD_VALUE
            return -WHIPCASH_AMOUNTS[0] * cars_here
        amount = board.amount[position]
        if kind == spaces.PAY_PRO:
            return 0 if self.holders[board.pro[position]] == me else -amount
        if kind == spaces.PRO_PAYS:
            return 0 if self.holders[board.pro[position]] == me else amount
        if kind == spaces.BANK_PAYS:
            return amount
        if kind == spaces.PAY_EACH_PRO:
            return -amount * self.pros_not_mine
        if kind == spaces.MOVE:
            target = (position + board.steps[position]) % board.loop_len
            return self.landing_value(target, dice) if board.kind[target] != spaces.MOVE else 0
        if kind == spaces.ROLL_FOR_CASH:
            payer = board.payer[position]
            if payer != spaces.BANK_PAYER and self.holders[payer] == me:
                return 0
            return EXPECTED_CASH_PER_DIE * dice
        return 0

    def exposure(self, position: int) -> float:
        """What the rivals' next moves may cost or bring us sitting on ``position``."""
        chance = self.threats.get(position)
        if not chance or self.board.kind[position] == spaces.PIT:
            return 0.0
        level = self.level
        if self.board.is_lane(position):
            per_hit = -FREEWAY_LAND - PIT_TEMPO
        elif level == 0:
            per_hit = WHIPCASH_AMOUNTS[0] / 2  # they may cancel it with their card
        else:
            per_hit = 0 if self.has_card else -WHIPCASH_AMOUNTS[level]
        return per_hit * chance
