"""Checks every request the SDK sends and every answer it gets against openapi.yaml, with openapi-core.

It hooks into the ``requests.Session`` handed to the SDK's ``Client`` (the SDK itself knows
nothing of it) and hands each request/response pair to openapi-core through its ``requests``
adapters, which find the operation, cast and validate parameters, security, bodies, status codes,
media types and response headers.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import requests
from openapi_core import Config, OpenAPI
from openapi_core.contrib.requests import RequestsOpenAPIRequest, RequestsOpenAPIResponse
from openapi_core.templating.paths.finders import APICallPathFinder
from openapi_core.validation.response.exceptions import MissingData
from werkzeug.datastructures import Headers

SPEC_PATH = Path(__file__).resolve().parents[2] / "openapi.yaml"


def _json_loads(value: bytes, **parameters: str) -> Any:
    return json.loads(value)


def _text_loads(value: bytes, **parameters: str) -> str:
    return value.decode(parameters.get("charset", "utf-8"))


# openapi-core parses only the media types it knows; any other body reaches the schema as raw bytes
# and fails every schema. Problem documents (RFC 9457) are JSON, and the spec types an NDJSON
# stream as one string (its lines are documented in prose), so it is checked as text.
MEDIA_TYPE_DESERIALIZERS = {
    "application/problem+json": _json_loads,
    "application/x-ndjson": _text_loads,
    "text/markdown": _text_loads,
}
# Bodies the caller reads as they arrive: reading them in the hook would consume the stream.
STREAMED_MEDIA_TYPES = ("application/x-ndjson", "text/event-stream")


class SpecViolation(AssertionError):
    pass


def _describe(error: BaseException) -> str:
    """openapi-core wraps the useful part (the schema errors) in one or two layers of causes."""
    parts = [str(error)]
    seen = {id(error)}
    cause = error.__cause__ or error.__context__
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        parts.append(str(cause))
        parts.extend(getattr(schema_error, "message", str(schema_error))
                     for schema_error in getattr(cause, "schema_errors", ()))
        cause = cause.__cause__ or cause.__context__
    parts.extend(_describe(inner) for inner in getattr(error, "context", ()) or ())
    return "; ".join(dict.fromkeys(part for part in parts if part))


class _RecordedResponse:
    """A streamed answer as openapi-core sees it once the caller has read it all."""

    def __init__(self, response: requests.Response, body: bytes) -> None:
        self.data = body
        self.status_code = response.status_code
        self.content_type = response.headers.get("Content-Type", "")
        self.headers = Headers(dict(response.headers))


class _RecordingStream:
    """Stands in for ``response.raw``: passes the stream through to the caller, keeps a copy of it,
    and has the whole answer checked when the server ends it (an answer the caller abandons midway
    is not complete, so it is not checked)."""

    def __init__(self, raw: Any, on_end) -> None:
        self._raw = raw
        self._on_end = on_end
        self._chunks: list[bytes] = []

    def stream(self, *args: Any, **kwargs: Any) -> Iterator[bytes]:
        for chunk in self._raw.stream(*args, **kwargs):
            self._chunks.append(chunk)
            yield chunk
        self._on_end(b"".join(self._chunks))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._raw, name)


class OpenApiChecker:
    def __init__(self, openapi: OpenAPI) -> None:
        self.openapi = openapi
        self.path_finder = APICallPathFinder(openapi.spec)
        self.checked: list[tuple[str, str, int]] = []
        self._request_violations_allowed = 0

    @classmethod
    def from_file(cls, path: Path = SPEC_PATH) -> OpenApiChecker:
        config = Config(extra_media_type_deserializers=MEDIA_TYPE_DESERIALIZERS)
        return cls(OpenAPI.from_file_path(str(path), config=config))

    # -- use ------------------------------------------------------------------

    def session(self) -> requests.Session:
        """A session whose every response is checked (with the request that caused it)."""
        session = requests.Session()
        session.hooks["response"].append(self._hook)
        return session

    @contextlib.contextmanager
    def sending_invalid_requests(self):
        """For tests that break the contract on purpose: requests are not checked, answers still are."""
        self._request_violations_allowed += 1
        try:
            yield
        finally:
            self._request_violations_allowed -= 1

    def _hook(self, response: requests.Response, *args, **kwargs) -> None:
        self.check(response)

    # -- checks -----------------------------------------------------------------

    def check(self, response: requests.Response) -> None:
        request = RequestsOpenAPIRequest(response.request)
        where = f"{request.method.upper()} {request.path}"
        if not self._request_violations_allowed:
            self.check_request(where, request)
        media_type = response.headers.get("Content-Type", "").split(";")[0].strip()
        if media_type in STREAMED_MEDIA_TYPES:
            # Status and headers now (openapi-core looks at the media type only with a body in hand);
            # media type and body once the server has sent all of it.
            self.check_response(where, request, _RecordedResponse(response, b""), body_pending=True)
            response.raw = _RecordingStream(
                response.raw,
                lambda body: self.check_response(where, request, _RecordedResponse(response, body)))
        else:
            self.check_response(where, request, RequestsOpenAPIResponse(response))
        self.checked.append((response.request.method, self.template(request), response.status_code))

    def template(self, request: RequestsOpenAPIRequest) -> str:
        """The spec's path (``/v1/games/{game_id}``) the request was matched to."""
        return self.path_finder.find(request.method, request.host_url + request.path).path_result.pattern

    def check_request(self, where: str, request: RequestsOpenAPIRequest) -> None:
        result = self.openapi.unmarshal_request(request)
        if result.errors:
            raise SpecViolation(f"{where}: " + " | ".join(_describe(error) for error in result.errors))
        # openapi-core ignores query parameters the operation does not declare; the SDK must not send any.
        sent = set(parse_qs(urlsplit(request.request.url).query, keep_blank_values=True))
        undeclared = sent - set(result.parameters.query)
        if undeclared:
            raise SpecViolation(f"{where}: undeclared query parameters {sorted(undeclared)}")

    def check_response(self, where: str, request: RequestsOpenAPIRequest, response: Any, *,
                       body_pending: bool = False) -> None:
        result = self.openapi.unmarshal_response(request, response)
        errors = result.errors
        if body_pending:
            errors = [error for error in errors if not isinstance(error, MissingData)]
        if errors:
            raise SpecViolation(f"{where} {response.status_code}: "
                                + " | ".join(_describe(error) for error in errors))

