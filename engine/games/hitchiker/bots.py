"""The ``heuristic`` bot: saves steadily, deals contraband cautiously, plays basic blackjack.

It sees only its seat's view. It cannot steer its moves, so it sells contraband at the
first Sell city it reaches (Customs takes everything from anyone carrying goods).
"""

from __future__ import annotations

from engine.core.bot import Bot
from engine.core.decisions import Decision
from engine.core.rng import Rng

STICK = {"type": "stick"}
HIT = {"type": "hit"}
DOUBLE_DOWN = {"type": "double_down"}
SPLIT = {"type": "split"}

#: deal-chart prices (per unit) worth taking on the first two rolls
GOOD_PRICE = 3_000
#: the share of travelling cash risked at a Black Market and bet at a casino table
RISK_SHARE = 3
BET_SHARE = 4
HIGH_CARD_BET_SHARE = 2


def _pair_split(pair_value: int, up: int) -> bool:
    if pair_value in (1, 8):
        return True
    if pair_value in (2, 3, 7):
        return up <= 7
    if pair_value == 6:
        return up <= 6
    if pair_value == 9:
        return up <= 9 and up != 7
    return False


def basic_strategy(values: list[int], total: int, soft: bool, up: int, options: list[dict]) -> dict:
    """Basic strategy against the House's face-up card ``up`` (ace = 11)."""
    if SPLIT in options and len(values) == 2 and values[0] == values[1] and _pair_split(values[0], up):
        return SPLIT
    if DOUBLE_DOWN in options and not soft and (total == 11 or (total == 10 and up <= 9) or
                                                (total == 9 and 3 <= up <= 6)):
        return DOUBLE_DOWN
    if DOUBLE_DOWN in options and soft and 16 <= total <= 18 and 3 <= up <= 6:
        return DOUBLE_DOWN
    if soft:
        return STICK if total >= 19 or (total == 18 and up <= 8) else HIT
    if total >= 17:
        return STICK
    if total >= 13:
        return STICK if up <= 6 else HIT
    if total == 12:
        return STICK if 4 <= up <= 6 else HIT
    return HIT


class HeuristicBot(Bot):
    def act(self, view: dict | None, decision: Decision, rng: Rng) -> dict:
        kind = decision.kind
        me = view["players"][decision.seat]
        if kind == "deposit":
            return {"type": "deposit", "amount": decision.ranges["deposit"]["amount"][1]}
        if kind == "buy_hometown":
            return {"type": "buy_hometown"}
        if kind == "sell":
            return {"type": "sell"}
        if kind == "black_market":
            if me["savings"] > 0 and me["units"] == 0:
                amount = me["cash"] // RISK_SHARE
                if amount >= GOOD_PRICE:
                    return {"type": "risk", "amount": amount}
            return {"type": "pass"}
        if kind == "deal_choice":
            outcome = view["deal"]["outcome"]
            good = outcome["kind"] == "free_units" or (outcome["kind"] == "price" and outcome["value"] <= GOOD_PRICE)
            return {"type": "accept_deal"} if good else {"type": "decline_deal"}
        if kind == "bet":
            return self._bet(view, decision)
        if kind == "play_hand":
            table = view["casino"]
            hand = table["hands"][table["current"]]
            up = table["house_values"][0]
            return basic_strategy(hand["card_values"], hand["total"], hand["soft"], 11 if up == 1 else up,
                                  decision.options)
        return decision.default_action()

    @staticmethod
    def _bet(view: dict, decision: Decision) -> dict:
        table = view["casino"]
        low, high = decision.ranges["bet"]["amount"]
        first_card = table["hands"][table["current"]]["card_values"][0]
        share = HIGH_CARD_BET_SHARE if first_card in (1, 10) else BET_SHARE
        return {"type": "bet", "amount": max(low, high // share)}
