"""Decisions: who must act now, and every legal action they may send."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class Decision:
    """A choice pending for one seat.

    ``options`` are complete, legal action bodies, e.g. ``{"type": "roll"}``.
    A numeric parameter is offered by its extremes in ``options`` and its inclusive
    bounds in ``ranges``: ``{"deposit": {"amount": [0, 20000]}}`` means any
    ``{"type": "deposit", "amount": n}`` with ``0 <= n <= 20000`` is legal.
    ``default`` is what a seat whose time ran out plays (``Ruleset.timeout_action``), and what a
    bot plays when it has no better idea: the game works it out from the state when it builds
    the decision, from what the seat may see (its rules doc says how, kind by kind), so the
    ``default`` published in ``to_dict`` is exactly what a timeout plays. A ``secret`` decision
    (a face-down choice, hidden from the other seats until its reveal) has no fixed default: a
    known default would tell everyone what a timed-out seat played, so a timeout draws what it
    plays from what the seat holds with a private generator instead
    (``Ruleset.draw_secret_default``), and ``to_dict`` shows no default.
    """

    seat: int
    kind: str
    options: list[dict]
    ranges: dict[str, dict[str, list[int]]] = field(default_factory=dict)
    default: dict | None = None
    secret: bool = False

    def allows(self, action: dict) -> bool:
        if action in self.options:
            return True
        bounds = self.ranges.get(action.get("type"))
        if not bounds:
            return False
        for key, value in action.items():
            if key == "type":
                continue
            if key in bounds:
                low, high = bounds[key]
                if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                    return False
        # Non-ranged parameters must match one offered option of that type.
        fixed = {k: v for k, v in action.items() if k not in bounds}
        return any(
            option.get("type") == action["type"]
            and {k: v for k, v in option.items() if k not in bounds} == fixed
            for option in self.options
        )

    def default_action(self) -> dict:
        return self.default if self.default is not None else self.options[0]

    def to_dict(self) -> dict:
        body = {"seat": self.seat, "kind": self.kind, "options": self.options}
        if self.ranges:
            body["ranges"] = self.ranges
        body["default"] = None if self.secret else self.default_action()
        if self.secret:
            body["secret"] = True
        return body

    @classmethod
    def from_dict(cls, body: dict) -> Decision:
        """A decision as ``to_dict`` (or the service, which adds its ``id``) wrote it; a secret one
        comes back without its default, which ``to_dict`` never shows."""
        return cls(body["seat"], body["kind"], body["options"], ranges=body.get("ranges") or {},
                   default=body.get("default"), secret=bool(body.get("secret", False)))
