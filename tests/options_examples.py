"""For every ruleset: options that spell out every house rule and data table it accepts
(the shipped data, passed as a custom override), so tests can bend each value in turn."""

from __future__ import annotations

import copy
import json
from pathlib import Path

GAMES = Path(__file__).resolve().parents[1] / "engine" / "games"


def _data(game: str, name: str) -> dict:
    return json.loads((GAMES / game / "data" / name).read_text())


def _cash_n_guns() -> dict:
    loot = _data("cash_n_guns", "loot.json")
    return {"deck": {card["id"]: card["count"] for card in loot["cards"]},
            "painting_set_values": loot["painting_set_values"], "diamond_bonus": loot["diamond_bonus"],
            "turn_cap": 8}


_FULL = {
    "monopoly-cars2": lambda: {"board": _data("monopoly_cars2", "board.json"),
                               "chance_deck": _data("monopoly_cars2", "chance.json"),
                               "spinner_faces": [1, 2, 3, 4, 5, 6], "starting_money": 18, "turn_cap": 500},
    "cash-n-guns": _cash_n_guns,
    "whipcash": lambda: {"board": _data("whipcash", "board.json"), "turn_cap": 300},
    "hitchiker": lambda: {"board": _data("hitchiker", "board.json"),
                          "deal_chart": _data("hitchiker", "deal_chart.json"),
                          "bad_ride_deck": _data("hitchiker", "bad_ride.json"), "turn_cap": 300},
}

RULESETS = sorted(_FULL)


def full_options(ruleset_id: str) -> dict:
    """A fresh copy: every option of ``ruleset_id`` set, to the published values."""
    return copy.deepcopy(_FULL[ruleset_id]())


def leaves(value, path: tuple = ()):
    """(path, value) of every number, string and list inside ``value`` (lists too, as containers)."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from leaves(item, (*path, key))
    elif isinstance(value, list):
        yield path, value
        for index, item in enumerate(value):
            yield from leaves(item, (*path, index))
    else:
        yield path, value


def replaced(options: dict, path: tuple, value) -> dict:
    """A copy of ``options`` with the value at ``path`` replaced."""
    result = copy.deepcopy(options)
    target = result
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return result
