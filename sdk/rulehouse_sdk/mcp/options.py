"""Stable ids for the options of a decision.

Decisions have ids (``<seat>.<since>``), their options do not: an option's id is the decision's id,
the action type and every fixed field of the action (``2.14:aim:target=3``). It names the same
option for as long as the decision is pending, whatever order the options are listed in. A ranged
choice (a bet, a deposit) is one option whose id leaves the ranged field out: its amount is a
parameter of ``act``, checked against the range here and by the service.
"""

from __future__ import annotations

import json
from typing import Any

from rulehouse_sdk.mcp.words import Words


def option_id(decision_id: str, action: dict[str, Any], ranged: frozenset[str] = frozenset()) -> str:
    fields = [f"{key}={json.dumps(value, separators=(',', ':'))}" for key, value in sorted(action.items())
              if key != "type" and key not in ranged]
    return ":".join([decision_id, str(action["type"]), *fields])


def decision_of(option: str) -> str:
    """The decision id an option id starts with."""
    return option.split(":", 1)[0]


def offered(decision: dict[str, Any], words: Words) -> list[dict[str, Any]]:
    """Each option of ``decision`` once: ``{id, label, action}``, and ``parameters`` for a ranged one
    (parameter -> ``{min, max}``; ``action`` then holds the lowest values)."""
    ranges: dict[str, dict[str, list[int]]] = decision.get("ranges") or {}
    options: dict[str, dict[str, Any]] = {}
    for action in decision["options"]:
        ranged = ranges.get(action["type"], {})
        key = option_id(decision["id"], action, frozenset(ranged))
        if key in options:
            continue  # the other extreme of a range already listed
        option: dict[str, Any] = {"id": key, "action": action}
        if ranged:
            option["parameters"] = {name: {"min": low, "max": high} for name, (low, high) in ranged.items()}
            option["action"] = {**action, **{name: low for name, (low, _) in ranged.items()}}
            option["label"] = "; ".join(words.ranged(action["type"], name, low, high)
                                        for name, (low, high) in ranged.items())
        else:
            option["label"] = words.action(action)
        options[key] = option
    return list(options.values())


class OptionRefused(ValueError):
    """The option id names nothing on offer, or its amount is out of range: says why."""


def chosen_action(decision: dict[str, Any], option: str, amounts: dict[str, int] | None,
                  words: Words) -> dict[str, Any]:
    """The action body that option ``option`` (with ``amounts`` for a ranged one) sends."""
    for candidate in offered(decision, words):
        if candidate["id"] != option:
            continue
        parameters = candidate.get("parameters", {})
        unknown = set(amounts or {}) - set(parameters)
        if unknown:
            raise OptionRefused(f"option {option} takes no parameter {', '.join(sorted(unknown))}"
                                + (f" (it takes {', '.join(parameters)})" if parameters else ""))
        action = dict(candidate["action"])
        for name, bounds in parameters.items():
            if not amounts or name not in amounts:
                raise OptionRefused(f"option {option} needs {name}: a whole number from {bounds['min']} to "
                                    f"{bounds['max']}")
            value = amounts[name]
            if not bounds["min"] <= value <= bounds["max"]:
                raise OptionRefused(f"{name} {value} is out of range: from {bounds['min']} to {bounds['max']}")
            action[name] = value
        return action
    raise OptionRefused(f"no option {option!r} is on offer in decision {decision['id']}")
