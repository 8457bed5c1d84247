"""Whipca$h: the turn, the spaces, Whipca$hing, the Pits and the Blind Justice Freeway.

Rule interpretations are written out in docs/rules/whipcash.md.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from types import MappingProxyType

from marshmallow import fields, validate

from engine.bots import GENERIC_BOTS
from engine.core.clone import cloner
from engine.core.decisions import Decision
from engine.core.events import Event
from engine.core.result import Result, best_seats
from engine.core.rng import Rng
from engine.core.ruleset import OptionsSchema, Ruleset, action_schema
from engine.core.strict import StrictBoolean
from engine.core.turn_order import roll_for_order
from engine.games.whipcash import board as spaces
from engine.games.whipcash.board import DEFAULT_BOARD_PATH, PRO_NAMES, PROS, Board, board_of, validate_board
from engine.games.whipcash.bots import HeuristicBot
from engine.games.whipcash.money import (
    CASH_PER_PIP,
    FREEWAY_LAND,
    FREEWAY_PASS,
    PIT_FEE,
    WHIPCASH_AMOUNTS,
    GameEnded,
    MoverOut,
    holder_of,
    party_name,
    pay,
)
from engine.games.whipcash.state import CARD, OUT, OVER, PIT_CHOICE, ROLL, STARTING_CASH, WhipcashState

ROLL_OPTIONS = [{"type": "roll", "dice": 1}, {"type": "roll", "dice": 2}]
CARD_OPTIONS = [{"type": "anti_fender_bender", "play": True}, {"type": "anti_fender_bender", "play": False}]
PIT_OPTIONS = [{"type": "send_to_pit", "pit": pro} for pro in PROS]


PLAY_CARD, KEEP_CARD = CARD_OPTIONS

#: decision kind -> (options, default): no decision's options depend on the state, and only the
#: card's default does (``card_decision``)
FIXED_DECISIONS = {
    "roll": (ROLL_OPTIONS, ROLL_OPTIONS[1]),
    "escape_pit": (ROLL_OPTIONS, ROLL_OPTIONS[1]),
    "anti_fender_bender": (CARD_OPTIONS, KEEP_CARD),
    "send_to_pit": (PIT_OPTIONS, PIT_OPTIONS[0]),
}


@functools.cache
def _fixed_decision(seat: int, kind: str) -> Decision:
    """One shared, never-mutated Decision per seat and kind: ``pending`` runs after every action."""
    options, default = FIXED_DECISIONS[kind]
    return Decision(seat, kind, options, default=default)


@functools.cache
def _saving_card_decision(seat: int) -> Decision:
    """The card decision against a payment the seat cannot make: its default plays the card."""
    return Decision(seat, "anti_fender_bender", CARD_OPTIONS, default=PLAY_CARD)


class WhipcashOptions(OptionsSchema):
    board = fields.Dict(
        load_default=None,
        allow_none=True,
        metadata={"description": "A custom board, in the format of `data.board` of GET /v1/rulesets/whipcash."},
    )


def whipcash_terms(state: WhipcashState) -> tuple[int, int, int]:
    """(payer, payee, amount) of the Whipca$h with the first car in the queue."""
    occupant = state.whipcash_queue[0]
    level = state.pros_bankrupt()
    amount = WHIPCASH_AMOUNTS[level]
    if level == 0:
        return state.current, occupant, amount
    return occupant, state.current, amount


def card_decision(state: WhipcashState) -> Decision:
    """The Anti-Fender Bender card against the Whipca$h payment now due. A seat too slow to decide keeps
    the card for later, unless the payment is more than it has: then the card saves it from bankruptcy."""
    payer, _, amount = whipcash_terms(state)
    return _saving_card_decision(payer) if amount > state.cash[payer] else _fixed_decision(payer, "anti_fender_bender")


class WhipcashRuleset(Ruleset):
    id = "whipcash"
    title = "Whipca$h"
    actions_public = True  # no hidden or simultaneous choices
    #: 2: the rules fixes of issue 11 (see "Rules versions" in the rules doc)
    rules_version = 2
    event_types = (
        "turn_order", "turn", "rolled", "stayed_in_pit", "escaped_pit", "moved", "entered_freeway", "in_pit",
        "whipcash", "sent_to_pit", "rolled_for_cash", "anti_fender_bender", "paid", "pro_bankrupted",
        "player_bankrupted", "game_over",
    )
    end_reasons = ("last_player_standing", "turn_cap")
    #: the search's evaluation hints (engine/bots/search.py): roll out with the heuristic;
    #: a few rounds: far enough to see a move's landing and what follows
    rollout_bot = "heuristic"
    search_horizon = 60
    #: the game analysis (docs/analysis.md, "The estimator"): a roll's worth shows in where the cars stand,
    #: which the value model does not read: 60-action play-outs, and many of them (a choice between one
    #: and two dice moves a seat's chance by little), agree with play-outs to the end where 20 did not
    analysis_method = MappingProxyType({"horizon": 60, "playouts": 96})
    min_players = 2
    max_players = 6
    options_schema = WhipcashOptions
    state_class = WhipcashState
    generic_bots = GENERIC_BOTS
    bots = {"heuristic": HeuristicBot}
    action_schemas = {
        "roll": action_schema("roll", dice=fields.Integer(required=True, strict=True, validate=validate.OneOf([1, 2]))),
        "anti_fender_bender": action_schema("anti_fender_bender", play=StrictBoolean(required=True)),
        "send_to_pit": action_schema("send_to_pit", pit=fields.String(required=True, validate=validate.OneOf(PROS))),
    }

    # -- setup -------------------------------------------------------------------

    def caches(self) -> dict[str, Callable[[], tuple[int, int]]]:
        return {"custom_boards": spaces.custom_boards.sizes}

    def default_data(self) -> dict:
        return {"board": json.loads(DEFAULT_BOARD_PATH.read_text())}

    def setup(self, players: int, options: dict, rng: Rng) -> WhipcashState:
        custom = options.get("board")
        if custom is not None:
            validate_board(custom)
        order, opening_rolls = self._roll_for_order(players, rng)
        parties = players + len(PROS) + 1
        cash = [STARTING_CASH] * (players + len(PROS)) + [0]
        return WhipcashState(
            players=players,
            rng=rng,
            order=order,
            opening_rolls=opening_rolls,
            cash=cash,
            alive=[True] * parties,
            holdings=[players + k for k in range(len(PROS))],
            position=[0] * players,
            card=[True] * players,
            board=custom,
            turn_cap=options.get("turn_cap"),
            current=order[0],
            bankrupted_by=[OUT] * parties,
        )

    @staticmethod
    def _roll_for_order(players: int, rng: Rng) -> tuple[list[int], list[dict]]:
        """Highest roll of two dice goes first; each group of tied seats re-rolls among itself."""
        order, rolls = roll_for_order(range(players), lambda: [rng.die(), rng.die()], score=sum)
        return order, [{"round": round_number, "seat": seat, "dice": dice} for round_number, seat, dice in rolls]

    def setup_events(self, state: WhipcashState) -> list[Event]:
        return [Event("turn_order", {"rolls": state.opening_rolls, "order": state.order})]

    # -- decisions -----------------------------------------------------------------

    def pending(self, state: WhipcashState) -> list[Decision]:
        phase = state.phase
        if phase == ROLL:
            board = board_of(state.board)
            kind = "escape_pit" if board.kind[state.position[state.current]] == spaces.PIT else "roll"
            return [_fixed_decision(state.current, kind)]
        if phase == CARD:
            return [card_decision(state)]
        if phase == PIT_CHOICE:
            return [_fixed_decision(state.current, "send_to_pit")]
        return []

    def play(self, state: WhipcashState, seat: int, action: dict) -> list[Event]:
        events: list[Event] = []
        board = board_of(state.board)
        kind = action["type"]
        try:
            try:
                if kind == "roll":
                    self._roll(state, board, action["dice"], events)
                elif kind == "anti_fender_bender":
                    self._settle_whipcash(state, events, card_played=action["play"])
                else:
                    self._send_to_pit(state, board, action["pit"], events)
                self._resolve(state, events)
            except MoverOut:
                self._next_turn(state, events)
        except GameEnded:
            events.append(Event("game_over", {"reason": state.end_reason, "winners": self.result(state).winners}))
        return events

    # -- a roll ----------------------------------------------------------------------

    def _roll(self, state: WhipcashState, board: Board, dice_count: int, events: list[Event]) -> None:
        seat = state.current
        die = state.rng.die
        dice = [die(), die()] if dice_count == 2 else [die()]
        total = sum(dice)
        state.dice_count = dice_count
        state.extra_roll = dice_count == 2 and dice[0] == dice[1]
        events.append(Event("rolled", {"seat": seat, "dice": dice, "doubles": state.extra_roll}))
        start = state.position[seat]
        if board.kind[start] == spaces.PIT:
            if total % 2:
                events.append(Event("stayed_in_pit", {"seat": seat, "pit": PROS[board.pro[start]]}))
                owner = state.holdings[board.pro[start]]
                pay(state, seat, [(owner, PIT_FEE)], events, "pit")
                return
            events.append(Event("escaped_pit", {"seat": seat, "pit": PROS[board.pro[start]]}))
        self._move(state, board, seat, total, events)

    def _move(self, state: WhipcashState, board: Board, seat: int, steps: int, events: list[Event]) -> None:
        position = state.position[seat]
        passed: list[int] = []
        following = board.next_position
        lane_start = board.lane_start
        for _ in range(steps - 1):
            position = following[position]
            if position >= lane_start:
                passed += [car for car in state.order if state.position[car] == position and car != seat]
        position = following[position]
        state.position[seat] = position
        events.append(Event("moved", {"seat": seat, "to": position}))
        for car in passed:
            if state.alive[car]:
                pay(state, car, [(seat, FREEWAY_PASS)], events, "freeway_pass")
        self._land(state, board, seat, position, events)

    def _land(self, state: WhipcashState, board: Board, seat: int, position: int, events: list[Event]) -> None:
        kind = board.kind[position]
        if kind == spaces.ONRAMP:
            position = state.position[seat] = board.lane_start
            events.append(Event("entered_freeway", {"seat": seat, "to": position}))
            kind = spaces.LANE
        if kind == spaces.PIT:
            events.append(Event("in_pit", {"seat": seat, "pit": PROS[board.pro[position]]}))
            return
        occupants = [car for car in state.order if state.position[car] == position and car != seat]
        if kind == spaces.LANE:
            for car in occupants:
                if pay(state, car, [(seat, FREEWAY_LAND)], events, "freeway_land"):
                    state.pit_queue.append(car)
            return
        if occupants:
            events.append(Event("whipcash", {"seat": seat, "cars": list(occupants), "level": state.pros_bankrupt()}))
            state.whipcash_queue = occupants
            state.extra_roll = True
            return
        self._do_space(state, board, seat, position, events)

    def _do_space(self, state: WhipcashState, board: Board, seat: int, position: int, events: list[Event]) -> None:
        kind = board.kind[position]
        amount = board.amount[position]
        if kind == spaces.PAY_PRO:
            pay(state, seat, [(state.holdings[board.pro[position]], amount)], events, "space")
        elif kind == spaces.PRO_PAYS:
            pay(state, state.holdings[board.pro[position]], [(seat, amount)], events, "space")
        elif kind == spaces.BANK_PAYS:
            pay(state, state.bank, [(seat, amount)], events, "space")
        elif kind == spaces.PAY_EACH_PRO:
            # In the Pros' payment order (Mr. Daily first), whoever now holds each Pro's spaces.
            pay(state, seat, [(holder, amount) for holder in state.holdings], events, "space")
        elif kind == spaces.MOVE:
            target = (position + board.steps[position]) % board.loop_len
            state.position[seat] = target
            events.append(Event("moved", {"seat": seat, "to": target, "by": "space"}))
            self._land(state, board, seat, target, events)
        elif kind == spaces.ROLL_FOR_CASH:
            dice = [state.rng.die() for _ in range(state.dice_count)]
            events.append(Event("rolled_for_cash", {"seat": seat, "dice": dice}))
            payer_code = board.payer[position]
            payer = state.bank if payer_code == spaces.BANK_PAYER else state.holdings[payer_code]
            pay(state, payer, [(seat, CASH_PER_PIP * sum(dice))], events, "roll_for_cash")

    # -- what waits on decisions -------------------------------------------------------

    def _settle_whipcash(self, state: WhipcashState, events: list[Event], card_played: bool = False) -> None:
        payer, payee, amount = whipcash_terms(state)
        state.whipcash_queue.pop(0)
        if card_played:
            state.card[payer] = False
            events.append(Event("anti_fender_bender", {"seat": payer, "cancelled": amount, "to": payee}))
            return
        pay(state, payer, [(payee, amount)], events, "whipcash")

    def _send_to_pit(self, state: WhipcashState, board: Board, pit: str, events: list[Event]) -> None:
        car = state.pit_queue.pop(0)
        state.position[car] = board.pit_of_pro[PROS.index(pit)]
        events.append(Event("sent_to_pit", {"seat": car, "by": state.current, "pit": pit}))

    def _resolve(self, state: WhipcashState, events: list[Event]) -> None:
        """Settle what needs no decision, stop at the next decision, or end the turn."""
        while state.whipcash_queue:
            payer = whipcash_terms(state)[0]
            if state.card[payer]:
                state.phase = CARD
                return
            self._settle_whipcash(state, events)
        if state.pit_queue:
            state.phase = PIT_CHOICE
            return
        if state.extra_roll:
            state.extra_roll = False
            state.phase = ROLL
            return
        self._next_turn(state, events)

    def _next_turn(self, state: WhipcashState, events: list[Event]) -> None:
        state.extra_roll = False
        state.whipcash_queue = []
        state.pit_queue = []
        if state.turn_cap is not None and state.turn >= state.turn_cap:
            state.phase = OVER
            state.end_reason = "turn_cap"
            raise GameEnded
        order = state.order
        index = order.index(state.current)
        for step in range(1, len(order) + 1):
            seat = order[(index + step) % len(order)]
            if state.alive[seat]:
                break
        state.current = seat
        state.turn += 1
        state.phase = ROLL
        events.append(Event("turn", {"seat": seat, "turn": state.turn}))

    # -- reading the state -------------------------------------------------------------

    def turn_order(self, state: WhipcashState) -> list[int]:
        """The order the opening rolls ranked every seat in (eliminated seats keep their place)."""
        return list(state.order)

    def result(self, state: WhipcashState) -> Result | None:
        if state.phase != OVER:
            return None
        standing = sorted(state.seats_alive(), key=lambda seat: -state.cash[seat])
        winners = sorted(best_seats(standing, key=state.cash.__getitem__))
        ranking = standing + state.eliminated[::-1]
        return Result(
            winners=winners,
            ranking=ranking,
            scores=[state.cash[seat] for seat in range(state.players)],
            reason=state.end_reason,
            turn_cap_hit=state.end_reason == "turn_cap",
            details={
                "pros_bankrupt": [pro for k, pro in enumerate(PROS) if not state.alive[state.players + k]],
                "holdings": {pro: holder_of(state, holder) for pro, holder in zip(PROS, state.holdings, strict=True)},
                "eliminated": list(state.eliminated),
            },
        )

    def result_from_format(self, result: dict, format_version: int) -> dict:
        """Records of format 1 named each holder as a seat number or a Pro's id (mixed types)."""
        details = result.get("details")
        holdings = details.get("holdings") if isinstance(details, dict) else None
        if format_version >= 2 or not isinstance(holdings, dict):
            return result
        restated = {pro: _holder_from_format_1(holder) for pro, holder in holdings.items()}
        return {**result, "details": {**details, "holdings": restated}}

    def view(self, state: WhipcashState, seat: int | None) -> dict:
        board = board_of(state.board)
        players = state.players
        return {
            "seat": seat,
            "turn": state.turn,
            "current": state.current,
            "phase": state.phase,
            "order": state.order,
            "opening_rolls": state.opening_rolls,
            "board": board.data,
            "players": [
                {"seat": s, "cash": state.cash[s], "position": state.position[s], "alive": state.alive[s],
                 "anti_fender_bender": state.card[s]}
                for s in range(players)
            ],
            "pros": [
                {"id": pro, "name": PRO_NAMES[pro], "cash": state.cash[players + k],
                 "bankrupt": not state.alive[players + k], "holdings_owner": party_name(state, state.holdings[k])}
                for k, pro in enumerate(PROS)
            ],
            "bank": state.cash[state.bank],
            "pros_bankrupt": state.pros_bankrupt(),
            "whipcash_queue": list(state.whipcash_queue),
            "pit_queue": list(state.pit_queue),
            "dice_count": state.dice_count,
            "extra_roll": state.extra_roll,
            "eliminated": list(state.eliminated),
            "turn_cap": state.turn_cap,
        }

    def standings(self, state: WhipcashState) -> list[float]:
        """The search's hint: cash; an eliminated player cannot win."""
        return [state.cash[seat] if state.alive[seat] else -1.0 for seat in range(state.players)]

    def eliminated_seats(self, state: WhipcashState) -> int:
        """Players out of the race (``state.eliminated``, in the order they went out)."""
        return len(state.eliminated)

    def money_in_play(self, state: WhipcashState) -> int:
        return sum(state.cash)

    def state_problems(self, state: WhipcashState) -> list[str]:
        """No party but the bank ledger below $0; a car on the board exactly while its seat is in (holding
        its card only then); every Pro's holdings with a party still in."""
        problems = [f"party {party_name(state, party)} has ${cash}"
                    for party, cash in enumerate(state.cash[:state.bank]) if cash < 0]
        size = board_of(state.board).size
        for seat in range(state.players):
            on_board = 0 <= state.position[seat] < size
            if state.alive[seat] != on_board or (state.card[seat] and not state.alive[seat]):
                problems.append(f"seat {seat}: alive {state.alive[seat]}, position {state.position[seat]}, "
                                f"card {state.card[seat]}")
        problems += [f"{pro}'s holdings are with {party_name(state, holder)}, who is out"
                     for pro, holder in zip(PROS, state.holdings, strict=True) if not state.alive[holder]]
        return problems

    copy = staticmethod(cloner(WhipcashState))


def _holder_from_format_1(holder):
    """A holder as format 1 wrote it (a seat number or a Pro's id) in today's shape; anything else as it is."""
    if isinstance(holder, int) and not isinstance(holder, bool):
        return {"seat": holder, "pro": None}
    if isinstance(holder, str):
        return {"seat": None, "pro": holder}
    return holder
