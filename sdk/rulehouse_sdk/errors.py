"""One exception class per kind of problem the service reports (RFC 9457 ``type``)."""

from __future__ import annotations

from typing import Any

PROBLEM_BASE = "https://rulehouse.dev/problems/"


class RulehouseError(Exception):
    """Anything the SDK raises. ``status`` is None when no HTTP answer arrived."""

    def __init__(self, title: str, *, status: int | None = None, type: str | None = None,
                 detail: str | None = None, reason: str | None = None, version: int | None = None,
                 errors: list[dict[str, Any]] | None = None, problem: dict[str, Any] | None = None,
                 response: Any = None) -> None:
        super().__init__(_message(title, status, detail, errors))
        self.status, self.type, self.title, self.detail = status, type, title, detail
        #: the engine's machine-readable reason code (illegal actions, invalid action bodies)
        self.reason = reason
        #: the game's current version (stale version, illegal action)
        self.version = version
        #: one ``{"pointer", "detail"}`` per invalid field (invalid requests)
        self.errors = errors or []
        #: the whole problem document as the server sent it
        self.problem = problem or {}
        self.response = response

    @property
    def kind(self) -> str | None:
        """The last part of ``type``, e.g. ``illegal-action``."""
        return self.type.rsplit("/", 1)[-1] if self.type else None


def _message(title: str, status: int | None, detail: str | None, errors: list[dict[str, Any]] | None) -> str:
    """``422 The request does not fit its schema: /seats/1/bot: must be one of [...]; /seed: ...``."""
    parts = [f"{status} {title}" if status else title]
    if detail and detail.strip().lower() != title.strip().lower():
        parts.append(detail)
    fields = "; ".join(f"{error.get('pointer', '/')}: {error.get('detail', '')}" for error in errors or []
                       if isinstance(error, dict))
    if fields:
        parts.append(fields)
    return ": ".join(parts)


class BadRequest(RulehouseError):
    """400, 406, 413, 415 (and another 4xx of the HTTP layer): the request could not be read."""


class InvalidRequest(RulehouseError):
    """422: the request does not fit its schema (``errors`` says where)."""


class IdempotencyKeyReused(InvalidRequest):
    """422: this Idempotency-Key was used with another request."""


class Unauthorized(RulehouseError):
    """401: no token, or not one of this game's."""


class Forbidden(RulehouseError):
    """403: this token may not do that (e.g. act for another seat)."""


class NotFound(RulehouseError):
    """404: no such game, ruleset or simulation (or it expired)."""


class QuotaExceeded(Forbidden):
    """403: over one of the app's quotas (``reason`` names it, e.g. ``quota_live_games``)."""


class MethodNotAllowed(RulehouseError):
    """405."""


class IllegalAction(RulehouseError):
    """409: well-formed, but the rules forbid it now; ``reason`` is the engine's code."""


class StaleVersion(RulehouseError):
    """412: the If-Match precondition no longer holds; ``version`` is the current one and
    ``decisions`` the caller's current decision ids."""

    @property
    def decisions(self) -> list[str]:
        return list(self.problem.get("decisions") or [])


class SeatConflict(RulehouseError):
    """409: the seat change is not possible now (``reason``: table_full, seat_taken, ...)."""


class RulesVersionGone(RulehouseError):
    """410: the game was created under an older rules version of its ruleset; the service does not
    play it on under other rules (``rules_version`` and ``current_rules_version`` are in ``problem``)."""


class PreconditionRequired(RulehouseError):
    """428: If-Match is missing."""


class RateLimited(RulehouseError):
    """429, after the client's retries."""


class ServerError(RulehouseError):
    """500 and any other 5xx."""


class ServiceUnavailable(ServerError):
    """503 (a backing service is down), after the client's retries."""


class ConnectionFailed(RulehouseError):
    """No HTTP answer (refused, reset, timed out), after the client's retries."""


class SimulationFailed(RulehouseError):
    """A simulation waited for ended with status ``failed``; ``problem`` holds the simulation."""


class WaitTimeout(RulehouseError, TimeoutError):
    """A wait ran out of time before the resource was done."""


BY_KIND: dict[str, type[RulehouseError]] = {
    "bad-request": BadRequest,
    "malformed-json": BadRequest,
    "payload-too-large": BadRequest,
    "unsupported-media-type": BadRequest,
    "uri-too-long": BadRequest,
    "headers-too-large": BadRequest,
    "unauthorized": Unauthorized,
    "forbidden": Forbidden,
    "not-found": NotFound,
    "method-not-allowed": MethodNotAllowed,
    "not-acceptable": BadRequest,
    "illegal-action": IllegalAction,
    "seat-conflict": SeatConflict,
    "version-mismatch": StaleVersion,
    "rules-version": RulesVersionGone,
    "validation-error": InvalidRequest,
    "idempotency-key-reused": IdempotencyKeyReused,
    "precondition-required": PreconditionRequired,
    "too-many-requests": RateLimited,
    "too-many-streams": RateLimited,
    "chat-rate-limited": RateLimited,
    "request-timeout": BadRequest,
    "quota-exceeded": QuotaExceeded,
    "service-unavailable": ServiceUnavailable,
    "internal-error": ServerError,
    "not-implemented": ServerError,
}

BY_STATUS: dict[int, type[RulehouseError]] = {
    400: BadRequest, 401: Unauthorized, 403: Forbidden, 404: NotFound, 405: MethodNotAllowed, 406: BadRequest,
    408: BadRequest,
    409: IllegalAction, 410: RulesVersionGone,
    412: StaleVersion, 413: BadRequest, 414: BadRequest, 415: BadRequest, 422: InvalidRequest,
    428: PreconditionRequired, 429: RateLimited, 431: BadRequest, 503: ServiceUnavailable,
}


def error_class(kind: str | None, status: int) -> type[RulehouseError]:
    """The class for a problem kind; an unknown kind falls back on its status."""
    if kind in BY_KIND:
        return BY_KIND[kind]
    if status in BY_STATUS:
        return BY_STATUS[status]
    return ServerError if status >= 500 else RulehouseError


def from_problem(status: int, problem: dict[str, Any], response: Any = None) -> RulehouseError:
    type_uri = problem.get("type") if isinstance(problem.get("type"), str) else None
    kind = type_uri[len(PROBLEM_BASE):] if type_uri and type_uri.startswith(PROBLEM_BASE) else None
    cls = error_class(kind, status)
    return cls(str(problem.get("title") or f"HTTP {status}"), status=status, type=type_uri,
               detail=problem.get("detail"), reason=problem.get("reason"), version=problem.get("version"),
               errors=problem.get("errors"), problem=problem, response=response)
