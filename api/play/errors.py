"""What a game refuses, as exceptions of the domain: raised here, answered as problem+json in one place
(api/http/play_errors.py), caught by class where a job or a sweep expects them.

Each carries a ``detail`` for people and, in ``extra``, the fields a client reads (``reason``,
``version``...). ``code`` names the refusal in metrics (``rulehouse_actions_total``).
"""

from __future__ import annotations


class PlayError(Exception):
    """A refusal of the game's room; ``code`` is its stable name."""

    code = "refused"

    def __init__(self, detail: str, **extra: object) -> None:
        super().__init__(detail)
        self.detail = detail
        self.extra = extra

    @property
    def reason(self) -> str | None:
        reason = self.extra.get("reason")
        return None if reason is None else str(reason)


class GameNotFound(PlayError):
    code = "not-found"

    def __init__(self, game_id: str) -> None:
        super().__init__(f"no game {game_id!r}")
        self.game_id = game_id


class SeatNotFound(PlayError):
    code = "not-found"

    def __init__(self, seat: int) -> None:
        super().__init__(f"no seat {seat} in this game")


class StaleVersion(PlayError):
    """The precondition no longer holds: the game is at ``version``; ``decisions`` are the caller's now."""

    code = "version-mismatch"

    def __init__(self, detail: str, *, version: int, seat: int, decisions: list[str]) -> None:
        super().__init__(detail, version=version, decisions=decisions)
        self.version = version
        self.seat = seat


class IllegalMove(PlayError):
    """The rules forbid the move now; ``reason`` is the engine's code."""

    code = "illegal-action"

    def __init__(self, detail: str, *, reason: str, version: int) -> None:
        super().__init__(detail, reason=reason, version=version)


class Invalid(PlayError):
    """What was asked does not fit: ``fields`` say where (``{"seats": {"0": {"bot": ["..."]}}}``)."""

    code = "validation-error"

    def __init__(self, detail: str, *, fields: dict, reason: str | None = None) -> None:
        super().__init__(detail, **({} if reason is None else {"reason": reason}))
        self.fields = fields


class MalformedAction(Invalid):
    """The body fits none of the ruleset's action schemas."""


class UnknownBot(Invalid):
    def __init__(self, bot: str | None, bots: list[str]) -> None:
        super().__init__(f"unknown bot {bot!r}", fields={"bot": [f"must be one of {bots}"]})


class RulesVersionGone(PlayError):
    """The game was created under rules this service no longer plays."""

    code = "rules-version"

    def __init__(self, detail: str, *, rules_version: int, current_rules_version: int) -> None:
        super().__init__(detail, rules_version=rules_version, current_rules_version=current_rules_version)


class SeatConflict(PlayError):
    """The seat change is not possible now; ``reason`` says why (``table_full``, ``game_started``...)."""

    code = "seat-conflict"

    def __init__(self, reason: str, detail: str, version: int | None = None) -> None:
        super().__init__(detail, reason=reason, **({} if version is None else {"version": version}))


class NotAllowed(PlayError):
    """The caller's token (or invite) may not do this to this game."""

    code = "forbidden"


class UnknownToken(PlayError):
    """The token is not one of this game's."""

    code = "unauthorized"


class IdempotencyKeyReused(PlayError):
    code = "idempotency-key-reused"

    def __init__(self) -> None:
        super().__init__("this Idempotency-Key was sent before with another action")


class KeptChanging(PlayError):
    """The game changed under every attempt of a change; the caller may try again at once."""

    code = "service-unavailable"
