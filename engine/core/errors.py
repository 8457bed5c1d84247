"""The engine's typed errors. ``reason`` codes are stable and machine-readable."""

from __future__ import annotations


class ReasonedError(Exception):
    """An error with a stable machine-readable ``reason``, a message, and per-field details."""

    def __init__(self, reason: str, message: str, *, fields: dict | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message
        self.fields = fields or {}

    def to_dict(self) -> dict:
        body = {"reason": self.reason, "message": self.message}
        if self.fields:
            body["fields"] = self.fields
        return body


class IllegalAction(ReasonedError):
    """An action the rules forbid now. Nothing was changed in the state.

    Stable reason codes used by the core (games add their own, documented in
    ``docs/rules/<id>.md``): ``game_over``, ``not_your_turn``, ``invalid_action``
    (the body does not fit any action schema), ``action_not_allowed`` (a known action
    type that is not among this seat's choices now), ``option_not_allowed`` (right
    type, but parameters outside the offered options or bounds).
    """


class InvalidOptions(Exception):
    """Game options (house rules, board or deck overrides) that fail validation."""

    def __init__(self, message: str, *, fields: dict | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.fields = fields or {}
