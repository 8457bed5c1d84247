"""The board, the Black Market Deal Chart and the Bad Ride deck: JSON data, validated on load.

The defaults are parsed once per process. A game may override any of the three through
its options; an override is validated the same way and a bad one raises ``InvalidOptions``
naming the field. Parsed overrides are cached by a digest stored in the state, so a state
restored in another process finds (or rebuilds) the same tables.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from engine.core.bounded import BoundedCache
from engine.core.errors import InvalidOptions

DATA = Path(__file__).parent / "data"

#: city kind -> the integer parameters it needs (all must be positive)
CITY_PARAMS: dict[str, tuple[str, ...]] = {
    "hometown": (),
    "casino": (),
    "black_market": (),
    "customs": (),
    "bad_ride": (),
    "sell": ("price",),
    "collect": ("amount",),
    "collect_dice": ("per_pip",),
    "shark_attack": (),
    "pay_right": ("amount",),
    "pot_hole": (),
    "found_contraband": ("units_per_pip",),
}

#: deal chart kind -> its integer parameter, if any
DEAL_PARAMS: dict[str, tuple[str, ...]] = {
    "price": ("price",),
    "free_units": ("units",),
    "ripped_off": (),
    "shootout": (),
}

#: Bad Ride effect -> its parameters (ints unless named in CARD_TEXT_PARAMS)
CARD_PARAMS: dict[str, tuple[str, ...]] = {
    "pay_bank": ("amount",),
    "pay_dice": ("per_pip",),
    "pay_each": ("amount",),
    "collect": ("amount",),
    "lose_cash_percent": ("percent",),
    "lose_savings": ("amount",),
    "lose_savings_percent": ("percent",),
    "savings_to_cash": ("amount",),
    "lose_contraband": (),
    "gain_units": ("units",),
    "death": (),
    "move": ("steps",),
    "advance_to_kind": ("kind",),
    "advance_home": (),
}
CARD_TEXT_PARAMS = {"kind"}

#: Bounds of the integer parameters, wide enough for any house rule a table plays (the cash
#: goal is $50,000,000) and narrow enough that no value makes a move or a payment run away.
MAX_AMOUNT = 10_000_000
MAX_UNITS = 1_000
PARAM_RANGES: dict[str, tuple[int, int]] = {
    "price": (1, MAX_AMOUNT),
    "amount": (1, MAX_AMOUNT),
    "per_pip": (1, MAX_AMOUNT),
    "units": (1, MAX_UNITS),
    "units_per_pip": (1, MAX_UNITS),
    "percent": (1, 100),
}
#: A Bad Ride ``move`` goes at most this many laps of the board, either way.
MAX_LAPS = 2

DICE_ROLLS = range(2, 13)
MIN_CITIES = 12
MAX_CITIES = 100
MAX_CARDS = 100
MAX_NAME = 64
MAX_TEXT = 300


class City:
    __slots__ = ("deadly_rolls", "index", "kind", "name", "value")

    def __init__(self, index: int, name: str, kind: str, value: int, deadly_rolls: frozenset[int]) -> None:
        self.index = index
        self.name = name
        self.kind = kind
        #: the kind's one integer parameter (sell price, amount, per-pip rate), else 0
        self.value = value
        self.deadly_rolls = deadly_rolls


class DealOutcome:
    __slots__ = ("kind", "value")

    def __init__(self, kind: str, value: int) -> None:
        self.kind = kind
        self.value = value

    def label(self) -> str:
        if self.kind == "price":
            return f"${self.value:,} a unit"
        if self.kind == "free_units":
            return f"{self.value} free units"
        return {"ripped_off": "ripped off", "shootout": "killed in a police shootout"}[self.kind]


class Card:
    __slots__ = ("effect", "param", "text")

    def __init__(self, text: str, effect: str, param: int | str | None) -> None:
        self.text = text
        self.effect = effect
        self.param = param


class Tables:
    """Everything a game reads but never changes."""

    __slots__ = ("chart", "cities", "deck", "hometowns", "index_by_name")

    def __init__(self, board: dict, chart: dict, deck: dict) -> None:
        self.cities = _parse_board(board)
        self.hometowns = [c.index for c in self.cities if c.kind == "hometown"]
        self.index_by_name = {c.name: c.index for c in self.cities}
        self.chart = _parse_chart(chart)
        self.deck = _parse_deck(deck, {c.kind for c in self.cities}, len(self.cities))


def _fail(field: str, where: str, message: str):
    raise InvalidOptions(f"invalid {field}: {where}: {message}", fields={field: {where: [message]}})


def _int_within(value, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _param_ok(name: str, value) -> bool:
    return _int_within(value, *PARAM_RANGES[name])


def _param_rule(name: str) -> str:
    low, high = PARAM_RANGES[name]
    return f"an integer {name!r} from {low} to {high:,}"


def _one_of(value, table) -> bool:
    """``value in table`` for JSON of any type (a list or an object is in no table)."""
    return isinstance(value, str) and value in table


def _parse_board(board) -> list[City]:
    cities = board.get("cities") if isinstance(board, dict) else None
    if not isinstance(cities, list) or not MIN_CITIES <= len(cities) <= MAX_CITIES:
        _fail("board", "cities", f"a list of {MIN_CITIES} to {MAX_CITIES} cities")
    parsed: list[City] = []
    seen: set[str] = set()
    for index, entry in enumerate(cities):
        where = str(index)
        if not isinstance(entry, dict):
            _fail("board", where, "a city is an object with a name and a kind")
        name, kind = entry.get("name"), entry.get("kind")
        if not isinstance(name, str) or not 1 <= len(name) <= MAX_NAME or name in seen:
            _fail("board", where, f"needs a unique name of 1 to {MAX_NAME} characters")
        seen.add(name)
        if not _one_of(kind, CITY_PARAMS):
            _fail("board", where, f"kind must be one of {sorted(CITY_PARAMS)}")
        value = 0
        for param in CITY_PARAMS[kind]:
            if not _param_ok(param, entry.get(param)):
                _fail("board", where, f"{kind} needs {_param_rule(param)}")
            value = entry[param]
        deadly: frozenset[int] = frozenset()
        if kind == "shark_attack":
            rolls = entry.get("deadly_rolls")
            if (not isinstance(rolls, list) or not 1 <= len(rolls) <= len(DICE_ROLLS)
                    or not all(_int_within(r, 2, 12) for r in rolls)):
                _fail("board", where, "shark_attack needs 'deadly_rolls', a list of up to 11 dice totals 2..12")
            deadly = frozenset(rolls)
        parsed.append(City(index, name, kind, value, deadly))
    if sum(1 for c in parsed if c.kind == "hometown") < 2:
        _fail("board", "cities", "at least 2 hometowns")
    return parsed


def _parse_chart(chart) -> list[DealOutcome]:
    rolls = chart.get("rolls") if isinstance(chart, dict) else None
    if not isinstance(rolls, dict):
        _fail("deal_chart", "rolls", "an object mapping every dice total '2'..'12' to an outcome")
    outcomes: list[DealOutcome] = [DealOutcome("ripped_off", 0)] * 13
    for roll in DICE_ROLLS:
        entry = rolls.get(str(roll))
        if not isinstance(entry, dict) or not _one_of(entry.get("kind"), DEAL_PARAMS):
            _fail("deal_chart", str(roll), f"needs an outcome whose kind is one of {sorted(DEAL_PARAMS)}")
        value = 0
        for param in DEAL_PARAMS[entry["kind"]]:
            if not _param_ok(param, entry.get(param)):
                _fail("deal_chart", str(roll), f"{entry['kind']} needs {_param_rule(param)}")
            value = entry[param]
        outcomes[roll] = DealOutcome(entry["kind"], value)
    return outcomes


def _parse_deck(deck, city_kinds: set[str], city_count: int) -> list[Card]:
    cards = deck.get("cards") if isinstance(deck, dict) else None
    if not isinstance(cards, list) or not 1 <= len(cards) <= MAX_CARDS:
        _fail("bad_ride_deck", "cards", f"a list of 1 to {MAX_CARDS} cards")
    max_steps = MAX_LAPS * city_count
    parsed: list[Card] = []
    for index, entry in enumerate(cards):
        where = str(index)
        if not isinstance(entry, dict) or not isinstance(entry.get("text"), str) or len(entry["text"]) > MAX_TEXT:
            _fail("bad_ride_deck", where, f"a card is an object with a 'text' (up to {MAX_TEXT} characters) "
                                          "and an 'effect'")
        effect = entry.get("effect")
        if not _one_of(effect, CARD_PARAMS):
            _fail("bad_ride_deck", where, f"effect must be one of {sorted(CARD_PARAMS)}")
        param = None
        for name in CARD_PARAMS[effect]:
            param = entry.get(name)
            if name in CARD_TEXT_PARAMS:
                if not _one_of(param, city_kinds):
                    _fail("bad_ride_deck", where, f"{name!r} must be a city kind on this board")
            elif name == "steps":
                if not _int_within(param, -max_steps, max_steps) or param == 0:
                    _fail("bad_ride_deck", where, f"'steps' must be a non-zero integer from {-max_steps} to "
                                                  f"{max_steps} ({MAX_LAPS} laps of this board)")
            elif not _param_ok(name, param):
                _fail("bad_ride_deck", where, f"{effect} needs {_param_rule(name)}")
        parsed.append(Card(entry["text"], effect, param))
    return parsed


def _load(name: str) -> dict:
    with open(DATA / name, encoding="utf-8") as handle:
        return json.load(handle)


DEFAULT_DATA = {
    "board": _load("board.json"),
    "deal_chart": _load("deal_chart.json"),
    "bad_ride_deck": _load("bad_ride.json"),
}
DEFAULT_TABLES = Tables(DEFAULT_DATA["board"], DEFAULT_DATA["deal_chart"], DEFAULT_DATA["bad_ride_deck"])
#: the custom tables (``data_key``) a process keeps; without a bound, every custom board a client
#: ever sent would stay in memory
MAX_CACHED_CUSTOM = 64
custom_tables: BoundedCache[str, Tables] = BoundedCache(MAX_CACHED_CUSTOM)


def custom_data(options: dict) -> dict | None:
    """The overrides given in ``options`` (missing parts filled from the defaults), or ``None``."""
    given = {key: options.get(key) for key in DEFAULT_DATA if options.get(key) is not None}
    if not given:
        return None
    return {key: given.get(key, DEFAULT_DATA[key]) for key in DEFAULT_DATA}


def data_key(custom: dict | None) -> str:
    if custom is None:
        return ""
    return hashlib.sha256(json.dumps(custom, sort_keys=True).encode()).hexdigest()[:24]


def tables_for(key: str, custom: dict | None) -> Tables:
    """The tables of a game: the defaults, or its validated overrides (cached by ``key``)."""
    if custom is None:
        return DEFAULT_TABLES
    tables = custom_tables.get(key)
    if tables is None:
        tables = Tables(custom["board"], custom["deal_chart"], custom["bad_ride_deck"])
        custom_tables.put(key, tables)
    return tables
