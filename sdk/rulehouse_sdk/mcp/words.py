"""Actions and decisions in words: the templates the service serves per ruleset
(``GET /v1/rulesets/{id}/labels``; the grammar is in docs/http-api.md, "Labels"), filled the way
the web table fills them (api/web/static/js/words.js), so an agent reads the words a player sees.

Only what option labels need is here: a template that cannot be filled falls back on plain words.
"""

from __future__ import annotations

import json
import re
from typing import Any

_HOLES = re.compile(r"\[([^\]]*)\]|\{([^}]*)\}")


class Words:
    """The labels of one ruleset, and the seats' names of one game."""

    def __init__(self, labels: dict[str, Any], seat_names: list[str] | None = None) -> None:
        self.labels = labels
        self.seat_names = seat_names or []

    # -- what the MCP tools show ----------------------------------------------------

    def decision(self, kind: str) -> str:
        return self.labels.get("decisions", {}).get(kind) or kind.replace("_", " ").capitalize()

    def action(self, action: dict[str, Any]) -> str:
        template = self.labels.get("actions", {}).get(action.get("type"))
        try:
            return self.render(template, action)
        except (KeyError, TypeError, ValueError, IndexError):
            return plain(action)

    def ranged(self, action_type: str, parameter: str, low: int, high: int) -> str:
        """The label of a ranged choice: its button and its input, with the range."""
        ranged = self.labels.get("ranged", {}).get(action_type, {})
        button = ranged.get("button") or action_type.replace("_", " ").capitalize()
        field = ranged.get(parameter) or parameter.replace("_", " ")
        return f"{button} ({field}: {low} to {high})"

    def seat(self, seat: Any) -> str:
        if seat is None:
            return self.labels.get("seats", {}).get("nobody", "nobody")
        parties = self.labels.get("terms", {}).get("parties", {})
        if str(seat) in parties:
            return parties[str(seat)]
        if isinstance(seat, int) and 0 <= seat < len(self.seat_names):
            return self.seat_names[seat]
        return f"Seat {seat + 1}" if isinstance(seat, int) else str(seat)

    # -- the template language --------------------------------------------------------

    def render(self, template: Any, values: dict[str, Any]) -> str:
        if isinstance(template, dict):
            key = _key(values.get(template["case"]))
            chosen = template.get("values", {})
            return self.render(chosen[key] if key in chosen else template["else"], values)
        if not isinstance(template, str):
            raise TypeError("no template")
        return _HOLES.sub(lambda match: self._optional(match[1], values) if match[1] is not None
                          else self._fill(match[2], values), template)

    def _optional(self, inner: str, values: dict[str, Any]) -> str:
        text = inner
        if inner.startswith("?"):
            condition, _, text = inner[1:].partition(" ")
            left, greater, right = condition.partition(">")
            if greater:
                shown = _operand(left, values) > _operand(right, values)
            elif condition.startswith("!"):
                shown = not _present(values.get(condition[1:]))
            else:
                shown = _present(values.get(condition))
        else:
            shown = all(_present(values.get(field)) for field in re.findall(r"\{([^|}]*)", inner))
        return re.sub(r"\{([^}]*)\}", lambda match: self._fill(match[1], values), text) if shown else ""

    def _fill(self, hole: str, values: dict[str, Any]) -> str:
        field, _, format_ = hole.partition("|")
        if field not in values:
            raise KeyError(field)
        return self._formatted(values[field], format_ or "text")

    def _formatted(self, value: Any, format_: str) -> str:
        name, *args = format_.split(":")
        one = {"seat": self.seat, "money": _money, "space": lambda v: f"space {v}",
               "term": lambda v: self._term(v, args)}.get(name)
        if one is not None:
            return _join_and([one(item) for item in value]) if isinstance(value, list) else one(value)
        if name == "text":
            return ", ".join(map(_number, value)) if isinstance(value, list) else _number(value)
        if name == "count":
            return f"{_number(value)} {args[0] if value == 1 else args[1]}"
        if name == "seats":
            return _join_and([self.seat(item) for item in value]) if value else self.seat(None)
        if name == "dice":
            return " + ".join(map(str, value))
        raise ValueError(f"no formatter {name}")

    def _term(self, code: Any, args: list[str]) -> str:
        table = self.labels.get("terms", {}).get(args[0], {})
        if str(code) not in table:
            if args[1:] == ["as_is"]:
                return str(code)
            raise KeyError(code)
        return self.render(table[str(code)], {})


def plain(action: dict[str, Any]) -> str:
    """An action without a label, in plain terms: its type and its fields."""
    fields = ", ".join(f"{key} {json.dumps(value)}" for key, value in action.items() if key != "type")
    words = str(action.get("type", "action")).replace("_", " ").capitalize()
    return f"{words} ({fields})" if fields else words


def _key(value: Any) -> str:
    return json.dumps(value) if value is None or isinstance(value, bool) else str(value)


def _present(value: Any) -> bool:
    return value not in (None, False, "", [])


def _operand(name: str, values: dict[str, Any]) -> Any:
    return int(name) if re.fullmatch(r"-?\d+", name) else values.get(name)


def _number(value: Any) -> str:
    return f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else str(value)


def _money(value: Any) -> str:
    return f"-${-value:,}" if isinstance(value, int) and value < 0 else (f"${value:,}" if isinstance(value, int)
                                                                          else str(value))


def _join_and(items: list[str]) -> str:
    return f"{', '.join(items[:-1])} and {items[-1]}" if len(items) > 1 else (items[0] if items else "")
