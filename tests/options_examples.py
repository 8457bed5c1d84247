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
            "reveal_wasted_bullets": True, "turn_cap": 8}


_FULL = {
    "monopoly-cars2": lambda: {"board": _data("monopoly_cars2", "board.json"),
                               "chance_deck": _data("monopoly_cars2", "chance.json"),
                               "spinner_faces": [1, 2, 3, 4, 5, 6], "starting_money": 18, "turn_cap": 500},
    "cash-n-guns": _cash_n_guns,
    "whipcash": lambda: {"board": _data("whipcash", "board.json"), "turn_cap": 300},
    "hitchiker": lambda: {"board": _data("hitchiker", "board.json"),
                          "deal_chart": _data("hitchiker", "deal_chart.json"),
                          "bad_ride_deck": _data("hitchiker", "bad_ride.json"), "savings_to_pouch": True,
                          "turn_cap": 300},
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


# -- hypothesis: the full options, bent in a few places -----------------------------------------

def _strategies():
    from hypothesis import strategies as st

    scalars = st.one_of(
        st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
        st.sampled_from([0, -1, 1, 2**63, 2**64, -(2**64), 10**9]),
        st.floats(allow_nan=False, allow_infinity=False, width=32),
        st.text(max_size=12), st.sampled_from(["", "²", "\x00", "hometown", "pay_bank", "move", "casino"]),
    )
    junk = st.recursive(scalars, lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)), max_leaves=8)
    return st, junk


def bent_options(ruleset_id: str):
    """A hypothesis strategy: the full options of ``ruleset_id`` with one to three values replaced by
    JSON of any type or size, keys removed, or unknown keys added (anywhere, nested or top level)."""
    st, junk = _strategies()

    @st.composite
    def strategy(draw) -> dict:
        options = full_options(ruleset_id)
        for _ in range(draw(st.integers(min_value=1, max_value=3))):
            paths = [path for path, _ in _all_nodes(options)]
            path = draw(st.sampled_from(paths))
            parent = _at(options, path[:-1]) if path else None
            operation = draw(st.sampled_from(["replace", "replace", "delete", "add"]))
            if not path or operation == "add":
                target = _at(options, path)
                if isinstance(target, dict):
                    target[draw(st.text(max_size=8))] = draw(junk)
                    continue
                if not path:
                    continue
            if operation == "delete" and (isinstance(parent, dict) or len(parent) > 1):
                del parent[path[-1]]
            else:
                parent[path[-1]] = draw(junk)
        return options

    return strategy()


def _all_nodes(value, path: tuple = ()):
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _all_nodes(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _all_nodes(item, (*path, index))


def _at(value, path: tuple):
    for key in path:
        value = value[key]
    return value
