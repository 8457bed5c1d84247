"""The one place where the game room's refusals (api/play/errors.py) become problem+json answers."""

from __future__ import annotations

from flask import Response

from api.http.etags import read_etag
from api.http.problems import ApiProblem, validation_problem
from api.play import errors

#: refusal -> problem kind (docs/http-api.md lists the kinds); the first class an error is an instance of wins
KINDS: dict[type[errors.PlayError], str] = {
    errors.GameNotFound: "not-found",
    errors.SeatNotFound: "not-found",
    errors.StaleVersion: "version-mismatch",
    errors.IllegalMove: "illegal-action",
    errors.Invalid: "validation-error",
    errors.RulesVersionGone: "rules-version",
    errors.SeatConflict: "seat-conflict",
    errors.NotAllowed: "forbidden",
    errors.UnknownToken: "unauthorized",
    errors.IdempotencyKeyReused: "idempotency-key-reused",
    errors.KeptChanging: "service-unavailable",
}


def problem_for(error: errors.PlayError) -> ApiProblem:
    if isinstance(error, errors.Invalid):
        return validation_problem(error.fields, error.detail, **error.extra)
    kind = next(kind for kind_of, kind in KINDS.items() if isinstance(error, kind_of))
    problem = ApiProblem(kind, error.detail, **error.extra)
    if isinstance(error, errors.StaleVersion):
        # the caller's own ETag of the current version, to send back as If-Match
        problem.headers["ETag"] = read_etag(error.version, str(error.seat))
    elif isinstance(error, errors.UnknownToken):
        problem.headers["WWW-Authenticate"] = 'Bearer error="invalid_token"'
    return problem


def play_error_response(error: errors.PlayError) -> Response:
    """The Flask error handler of every ``PlayError`` (registered by the app factory)."""
    return problem_for(error).response()
