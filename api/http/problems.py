"""RFC 9457 problem details: one stable ``type`` URI per kind of error."""

from __future__ import annotations

import json

from flask import Response, g, has_request_context
from marshmallow import Schema, fields

PROBLEM_BASE = "https://rulehouse.dev/problems/"
PROBLEM_CONTENT_TYPE = "application/problem+json"

#: kind -> (HTTP status, title). The kinds are part of the public API and never change.
KINDS: dict[str, tuple[int, str]] = {
    "bad-request": (400, "Bad request"),
    "malformed-json": (400, "The body is not valid JSON"),
    "unauthorized": (401, "Missing or unknown token"),
    "forbidden": (403, "This token may not do that"),
    "not-found": (404, "Not found"),
    "method-not-allowed": (405, "Method not allowed"),
    "not-acceptable": (406, "Not acceptable"),
    "illegal-action": (409, "The rules forbid this action now"),
    "seat-conflict": (409, "This seat change is not possible now"),
    "version-mismatch": (412, "The game has moved on since that version"),
    "rules-version": (410, "The game was created under rules this service no longer plays"),
    "payload-too-large": (413, "The body is too large"),
    "uri-too-long": (414, "The request line is too long"),
    "unsupported-media-type": (415, "The body must be JSON"),
    "validation-error": (422, "The request does not fit its schema"),
    "idempotency-key-reused": (422, "This Idempotency-Key was used with another request"),
    "precondition-required": (428, "If-Match is required"),
    "too-many-requests": (429, "Over this app's rate limit"),
    "quota-exceeded": (403, "Over one of this app's quotas"),
    "headers-too-large": (431, "The request headers are too large"),
    "too-many-streams": (429, "Too many open streams"),
    "chat-rate-limited": (429, "This seat posts chat messages too fast"),
    "request-timeout": (408, "The request took too long to arrive"),
    "service-unavailable": (503, "A backing service is unavailable"),
    "internal-error": (500, "Internal error"),
    "not-implemented": (501, "The server does not support this request"),
}

_KIND_BY_STATUS = {
    400: "bad-request",
    401: "unauthorized",
    403: "forbidden",
    404: "not-found",
    405: "method-not-allowed",
    406: "not-acceptable",
    408: "request-timeout",
    409: "illegal-action",
    412: "version-mismatch",
    413: "payload-too-large",
    414: "uri-too-long",
    415: "unsupported-media-type",
    422: "validation-error",
    428: "precondition-required",
    429: "too-many-requests",
    431: "headers-too-large",
    501: "not-implemented",
    503: "service-unavailable",
}


class ApiProblem(Exception):
    """Raise anywhere in a request to answer with this problem."""

    def __init__(self, kind: str, detail: str | None = None, *, status: int | None = None,
                 headers: dict | None = None, **extra) -> None:
        """``status`` overrides the kind's own, for HTTP errors without a kind of their own (e.g. 408)."""
        super().__init__(detail or kind)
        self.kind = kind
        default_status, self.title = KINDS[kind]
        self.status = status or default_status
        self.detail = detail
        self.headers = headers or {}
        if self.status == 503:
            # A restarting or failing-over Redis is back within seconds; nothing was written.
            self.headers.setdefault("Retry-After", "1")
        self.extra = extra

    def body(self) -> dict:
        body = {"type": PROBLEM_BASE + self.kind, "title": self.title, "status": self.status}
        if self.detail:
            body["detail"] = self.detail
        body.update(self.extra)
        if has_request_context() and g.get("request_id"):
            body["request_id"] = g.request_id  # set by api/observability/requests.py
        return body

    def response(self) -> Response:
        response = Response(json.dumps(self.body()), status=self.status, content_type=PROBLEM_CONTENT_TYPE)
        for name, value in self.headers.items():
            response.headers[name] = value
        return response


def kind_for_status(status: int) -> str:
    if status in _KIND_BY_STATUS:
        return _KIND_BY_STATUS[status]
    return "internal-error" if status >= 500 else "bad-request"


def escape_pointer_token(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def field_errors(messages, prefix: str = "") -> list[dict]:
    """Marshmallow's nested error messages as a flat list of ``{"pointer", "detail"}`` (RFC 6901)."""
    errors: list[dict] = []
    if isinstance(messages, dict):
        for key, value in messages.items():
            token = "" if key == "_schema" else "/" + escape_pointer_token(str(key))
            errors.extend(field_errors(value, prefix + token))
    elif isinstance(messages, list) and all(isinstance(m, str) for m in messages):
        errors.extend({"pointer": prefix or "/", "detail": message} for message in messages)
    elif isinstance(messages, list):
        for message in messages:
            errors.extend(field_errors(message, prefix))
    else:
        errors.append({"pointer": prefix or "/", "detail": str(messages)})
    return errors


def validation_problem(messages, detail: str = "the request does not fit its schema", prefix: str = "",
                       **extra) -> ApiProblem:
    return ApiProblem("validation-error", detail, errors=field_errors(messages, prefix), **extra)


def problem_response(status: int, description: str) -> dict:
    """The arguments of ``Blueprint.alt_response`` documenting a problem+json answer."""
    return {"status_code": status, "description": description, "schema": ProblemSchema,
            "content_type": PROBLEM_CONTENT_TYPE}


class FieldErrorSchema(Schema):
    pointer = fields.String(required=True, metadata={"description": "JSON Pointer (RFC 6901) into the body, or "
                                                     "the parameter name for a query or header parameter."})
    detail = fields.String(required=True)


class ProblemSchema(Schema):
    """An RFC 9457 problem; documentation only (responses are built by ``ApiProblem``)."""

    type = fields.String(required=True, metadata={"description": "Stable URI of the kind of error, e.g. "
                                                  "`https://rulehouse.dev/problems/illegal-action`."})
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    detail = fields.String()
    reason = fields.String(metadata={"description": "The engine's machine-readable reason (409, and 422 for "
                                     "an action body)."})
    version = fields.Integer(metadata={"description": "The game's current version (409, 412)."})
    decisions = fields.List(fields.String(), metadata={"description": "The caller's current decision ids (412): "
                                                       "answer one with `If-Match: \"d:<id>\"`."})
    header = fields.String(metadata={"description": "The request header that is wrong (400)."})
    errors = fields.List(fields.Nested(FieldErrorSchema), metadata={"description": "One entry per invalid field "
                                                                     "(422)."})
    scope = fields.String(metadata={"description": "The scope the app key lacks (403 `scope_missing`)."})
    quota = fields.String(metadata={"description": "The quota that would be passed (403 `quota-exceeded`)."})
    allowed = fields.Integer(metadata={"description": "That quota's figure (403 `quota-exceeded`)."})
    used = fields.Integer(metadata={"description": "What the app uses of it now (403 `quota-exceeded`)."})
    request_id = fields.String(metadata={"description": "This request's id: the `X-Request-Id` it was sent with, "
                                         "or one the service made up. Quote it when reporting a problem."})
    limit_class = fields.String(metadata={"description": "The class of requests whose rate limit was passed "
                                          "(429): `moves`, `writes`, `reads` or `streams`."})
