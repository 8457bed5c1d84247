"""The board and Chance deck a game uses: the published data, or a custom pair from the options.

Both are parsed and validated once per process; a state keeps only the canonical JSON of
a custom pair (``GameState.custom``), so it stays small and rebuilds its tables anywhere.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from marshmallow import ValidationError

from engine.core.bounded import BoundedCache
from engine.games.monopoly_cars2.board import Board, parse_board
from engine.games.monopoly_cars2.cards import Card, parse_deck

DATA = Path(__file__).parent / "data"
MAX_CACHED_CUSTOM = 64


@dataclass(slots=True)
class Tables:
    board: Board
    cards: list[Card]
    #: the cards as a view shows them (built once)
    public_cards: list[dict]


def _read(name: str) -> dict:
    with open(DATA / name, encoding="utf-8") as file:
        return json.load(file)


def build_tables(board_data: object, deck_data: object) -> Tables:
    """Validated tables; ``ValidationError`` keyed ``board`` / ``chance_deck`` on bad data."""
    try:
        board = parse_board(board_data)
    except ValidationError as error:
        raise ValidationError({"board": error.messages}) from None
    try:
        cards = parse_deck(deck_data, board)
    except ValidationError as error:
        raise ValidationError({"chance_deck": error.messages}) from None
    return Tables(board, cards, [card.public() for card in cards])


DEFAULT_BOARD = _read("board.json")
DEFAULT_DECK = _read("chance.json")
DEFAULT_TABLES = build_tables(DEFAULT_BOARD, DEFAULT_DECK)

#: the custom boards and decks validated in this process, by ``custom_key``
custom_tables: BoundedCache[str, Tables] = BoundedCache(MAX_CACHED_CUSTOM)


def custom_key(board_data: object | None, deck_data: object | None) -> str:
    """The canonical JSON a state stores for a custom board/deck; "" when both are the published ones."""
    if board_data is None and deck_data is None:
        return ""
    return json.dumps({"board": board_data, "chance_deck": deck_data}, sort_keys=True, separators=(",", ":"))


def tables_for(key: str) -> Tables:
    """The tables of a ``custom_key`` (validated on first use in this process)."""
    if not key:
        return DEFAULT_TABLES
    tables = custom_tables.get(key)
    if tables is None:
        data = json.loads(key)
        board = DEFAULT_BOARD if data["board"] is None else data["board"]
        deck = DEFAULT_DECK if data["chance_deck"] is None else data["chance_deck"]
        tables = build_tables(board, deck)
        custom_tables.put(key, tables)
    return tables
