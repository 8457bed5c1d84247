"""The board as data: a loop from START plus the Blind Justice Freeway, validated and parsed once.

Positions are one index space: ``0 .. len(loop) - 1`` are loop spaces, and the Freeway's
lanes follow them (``len(loop) .. len(loop) + lanes - 1``). ``next_position`` says where one
step leads: round the loop, along the Freeway, and off its last lane back onto the loop.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

from engine.core.bounded import BoundedCache
from engine.core.errors import InvalidOptions

#: The Pros in payment order (Mr. Daily first, then Mr. Chasinbucks, then Dr. Overbilled).
PROS = ("daily", "chasinbucks", "overbilled")
PRO_NAMES = {"daily": "Mr. Daily", "chasinbucks": "Mr. Chasinbucks", "overbilled": "Dr. Overbilled"}
BANK_PAYER = -1

# Space kinds, as ints on the hot path. No kind pays the bank: the parties are the players and
# the Pros, and the winner ends up with all the money (see docs/rules/whipcash.md).
START, PAY_PRO, PRO_PAYS, BANK_PAYS, PAY_EACH_PRO, ROLL_FOR_CASH, PIT, ONRAMP, MOVE, LANE = range(10)
KIND_CODES = {
    "start": START,
    "pay_pro": PAY_PRO,
    "pro_pays": PRO_PAYS,
    "bank_pays": BANK_PAYS,
    "pay_each_pro": PAY_EACH_PRO,
    "roll_for_cash": ROLL_FOR_CASH,
    "pit": PIT,
    "onramp": ONRAMP,
    "move": MOVE,
}
#: the keys each kind needs beside ``kind`` (``label`` is always optional)
KIND_FIELDS = {
    "start": (),
    "pay_pro": ("pro", "amount"),
    "pro_pays": ("pro", "amount"),
    "bank_pays": ("amount",),
    "pay_each_pro": ("amount",),
    "roll_for_cash": ("payer",),
    "pit": ("pro",),
    "onramp": (),
    "move": ("steps",),
}
MAX_AMOUNT = 1_000_000
MIN_LOOP = 8
MAX_LOOP = 200
MAX_LANES = 50
MAX_TEXT = 80

DEFAULT_BOARD_PATH = Path(__file__).parent / "data" / "board.json"


class Board:
    """A validated board, parsed into flat per-position lists for speed."""

    __slots__ = ("amount", "data", "kind", "lane_start", "loop_len", "next_position", "onramp", "payer",
                 "pit_of_pro", "pro", "size", "steps")

    def __init__(self, data: dict) -> None:
        validate_board(data)
        self.data = data
        loop = data["loop"]
        lanes = data["freeway"]["lanes"]
        self.loop_len = len(loop)
        self.lane_start = self.loop_len
        self.size = self.loop_len + lanes
        self.kind = [KIND_CODES[space["kind"]] for space in loop] + [LANE] * lanes
        self.pro = [PROS.index(space["pro"]) if "pro" in space else -1 for space in loop] + [-1] * lanes
        self.amount = [space.get("amount", 0) for space in loop] + [0] * lanes
        #: a ``move`` space's steps (negative: back), 0 elsewhere
        self.steps = [space.get("steps", 0) for space in loop] + [0] * lanes
        self.payer = [_payer_code(space.get("payer")) for space in loop] + [BANK_PAYER] * lanes
        self.next_position = [(i + 1) % self.loop_len for i in range(self.loop_len)]
        self.next_position += [self.lane_start + j + 1 for j in range(lanes - 1)] + [data["freeway"]["rejoin"]]
        self.onramp = self.kind.index(ONRAMP)
        self.pit_of_pro = [0] * len(PROS)
        for position, kind in enumerate(self.kind):
            if kind == PIT:
                self.pit_of_pro[self.pro[position]] = position

    def is_lane(self, position: int) -> bool:
        return position >= self.lane_start


def _payer_code(payer: str | None) -> int:
    return BANK_PAYER if payer in (None, "bank") else PROS.index(payer)


def _check_amount(space: dict, where: str, errors: dict) -> None:
    amount = space.get("amount")
    if isinstance(amount, bool) or not isinstance(amount, int) or not 1 <= amount <= MAX_AMOUNT:
        errors[f"{where}.amount"] = [f"must be an integer from 1 to {MAX_AMOUNT}"]


def _short_text(value: object) -> bool:
    return isinstance(value, str) and len(value) <= MAX_TEXT


def _check_steps(loop: list, index: int, errors: dict) -> None:
    """A ``move`` space moves a car 1 or more spaces ahead or back, onto a space that is not a ``move`` too."""
    steps = loop[index].get("steps")
    where = f"board.loop.{index}.steps"
    if isinstance(steps, bool) or not isinstance(steps, int) or steps == 0 or abs(steps) >= len(loop):
        errors[where] = [f"must be a non-zero integer between {1 - len(loop)} and {len(loop) - 1}"]
        return
    target = loop[(index + steps) % len(loop)]
    if isinstance(target, dict) and target.get("kind") == "move":
        errors[where] = ["must not lead onto another 'move' space"]


def validate_board(data: object) -> None:
    """Raise ``InvalidOptions`` naming every bad field (keys like ``board.loop.3.amount``)."""
    errors: dict[str, list[str]] = {}
    if not isinstance(data, dict):
        raise InvalidOptions("invalid board", fields={"board": ["must be an object with 'loop' and 'freeway'"]})
    unknown = set(data) - {"id", "name", "loop", "freeway"}
    if unknown:
        errors["board"] = [f"unknown keys: {sorted(unknown)}"]
    for key in ("id", "name"):
        if key in data and not _short_text(data[key]):
            errors[f"board.{key}"] = [f"must be a string of up to {MAX_TEXT} characters"]
    loop = data.get("loop")
    if not isinstance(loop, list) or not MIN_LOOP <= len(loop) <= MAX_LOOP:
        errors["board.loop"] = [f"must be a list of {MIN_LOOP} to {MAX_LOOP} spaces"]
        loop = []
    pits: list[str] = []
    onramps: list[int] = []
    for index, space in enumerate(loop):
        where = f"board.loop.{index}"
        if not isinstance(space, dict) or not isinstance(space.get("kind"), str) or space["kind"] not in KIND_FIELDS:
            errors[f"{where}.kind"] = [f"must be one of {sorted(KIND_FIELDS)}"]
            continue
        kind = space["kind"]
        needed = KIND_FIELDS[kind]
        extra = set(space) - {"kind", "label", *needed}
        if extra:
            errors[where] = [f"unknown keys for a {kind!r} space: {sorted(extra)}"]
        if "label" in space and not _short_text(space["label"]):
            errors[f"{where}.label"] = [f"must be a string of up to {MAX_TEXT} characters"]
        if "pro" in needed and space.get("pro") not in PROS:
            errors[f"{where}.pro"] = [f"must be one of {list(PROS)}"]
        if "amount" in needed:
            _check_amount(space, where, errors)
        if "steps" in needed:
            _check_steps(loop, index, errors)
        if "payer" in needed and space.get("payer") not in (*PROS, "bank"):
            errors[f"{where}.payer"] = [f"must be 'bank' or one of {list(PROS)}"]
        if kind == "pit" and space.get("pro") in PROS:
            pits.append(space["pro"])
        if kind == "onramp":
            onramps.append(index)
        if kind == "start" and index != 0:
            errors[f"{where}.kind"] = ["START must be the first space (index 0) and only there"]
    if loop and (not isinstance(loop[0], dict) or loop[0].get("kind") != "start"):
        errors.setdefault("board.loop.0.kind", ["the first space must be START"])
    if loop and sorted(pits) != sorted(PROS):
        errors["board.loop"] = [f"needs exactly one pit per Pro {list(PROS)}; found {pits}"]
    if loop and len(onramps) != 1:
        errors.setdefault("board.loop", []).append(f"needs exactly one 'onramp' space; found {len(onramps)}")
    freeway = data.get("freeway")
    if not isinstance(freeway, dict) or set(freeway) != {"lanes", "rejoin"}:
        errors["board.freeway"] = ["must be an object with exactly 'lanes' and 'rejoin'"]
    else:
        lanes, rejoin = freeway["lanes"], freeway["rejoin"]
        if isinstance(lanes, bool) or not isinstance(lanes, int) or not 1 <= lanes <= MAX_LANES:
            errors["board.freeway.lanes"] = [f"must be an integer from 1 to {MAX_LANES}"]
        if isinstance(rejoin, bool) or not isinstance(rejoin, int) or not 0 <= rejoin < max(len(loop), 1):
            errors["board.freeway.rejoin"] = ["must be the index of a loop space"]
        elif loop and isinstance(loop[rejoin], dict) and loop[rejoin].get("kind") == "onramp":
            errors["board.freeway.rejoin"] = ["must not be the on-ramp (a car would never leave the Freeway)"]
    if errors:
        raise InvalidOptions("invalid board", fields=errors)


@functools.cache  # a cached call costs no Python frame: every action reads the board
def default_board() -> Board:
    """The shipped board, read and validated once per process."""
    return Board(json.loads(DEFAULT_BOARD_PATH.read_text()))


#: custom boards by the identity of their dict in a state (a board in options is parsed once per game;
#: the Board holds its dict, so an id is not reused while its entry lives)
MAX_CACHED_CUSTOM = 256
custom_boards: BoundedCache[int, Board] = BoundedCache(MAX_CACHED_CUSTOM)


def board_of(custom: dict | None) -> Board:
    """The parsed board of a state: the default one, or its custom board from the options."""
    if custom is None:
        return default_board()
    board = custom_boards.get(id(custom))
    if board is None or board.data is not custom:
        board = Board(custom)
        custom_boards.put(id(custom), board)
    return board
