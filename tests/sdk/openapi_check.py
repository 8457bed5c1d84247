"""Checks every request the SDK sends and every answer it gets against openapi.yaml.

It hooks into the ``requests.Session`` handed to the SDK's ``Client`` (the SDK itself knows
nothing of it). Schemas are checked with openapi-schema-validator's OpenAPI 3.0 validator,
the engine openapi-core uses; openapi-core itself is not used because no release of it
installs beside openapi-spec-validator 0.9 (see the SDK report).
"""

from __future__ import annotations

import contextlib
import json
import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import requests
import yaml
from jsonschema.exceptions import ValidationError
from openapi_schema_validator import OAS30Validator

SPEC_PATH = Path(__file__).resolve().parents[2] / "openapi.yaml"
STREAMED_MEDIA_TYPES = ("application/x-ndjson", "text/event-stream")


class SpecViolation(AssertionError):
    pass


class OpenApiChecker:
    def __init__(self, spec: dict) -> None:
        self.spec = spec
        self.routes: list[tuple[re.Pattern, str, dict]] = []
        for path, item in spec["paths"].items():
            parts = re.split(r"{[^}]+}", path)
            pattern = re.compile("^" + "[^/]+".join(re.escape(part) for part in parts) + "$")
            self.routes.append((pattern, path, item))
        self.checked: list[tuple[str, str, int]] = []
        self._request_violations_allowed = 0

    @classmethod
    def from_file(cls, path: Path = SPEC_PATH) -> OpenApiChecker:
        return cls(yaml.safe_load(path.read_text()))

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

    def validate(self, instance, schema: dict, where: str) -> None:
        root = {**schema, "components": self.spec.get("components", {})}
        try:
            OAS30Validator(root).validate(instance)
        except ValidationError as error:
            raise SpecViolation(f"{where}: {error.message} at {list(error.absolute_path)}") from None

    def operation(self, method: str, url_path: str) -> tuple[str, dict, list[dict]]:
        for pattern, path, item in self.routes:
            if pattern.match(url_path):
                operation = item.get(method.lower())
                if operation is None:
                    raise SpecViolation(f"{method} {path} is not in the spec")
                parameters = {(p["in"], p["name"]): p for p in item.get("parameters", [])}
                parameters.update({(p["in"], p["name"]): p for p in operation.get("parameters", [])})
                return path, operation, list(parameters.values())
        raise SpecViolation(f"no path of the spec matches {url_path}")

    def check(self, response: requests.Response) -> None:
        request = response.request
        url = urlsplit(request.url)
        path, operation, parameters = self.operation(request.method, url.path)
        where = f"{request.method} {path}"
        if not self._request_violations_allowed:
            self.check_request(where, request, url.query, operation, parameters)
        self.check_response(where, response, operation)
        self.checked.append((request.method, path, response.status_code))

    def check_request(self, where: str, request: requests.PreparedRequest, query_string: str, operation: dict,
                      parameters: list[dict]) -> None:
        query = {name: values[-1] for name, values in parse_qs(query_string, keep_blank_values=True).items()}
        declared_query = {p["name"] for p in parameters if p["in"] == "query"}
        if set(query) - declared_query:
            raise SpecViolation(f"{where}: undeclared query parameters {sorted(set(query) - declared_query)}")
        for parameter in parameters:
            location, name, schema = parameter["in"], parameter["name"], parameter.get("schema", {})
            if location == "path":
                continue
            value = query.get(name) if location == "query" else request.headers.get(name)
            if value is None:
                if parameter.get("required"):
                    raise SpecViolation(f"{where}: missing required {location} parameter {name}")
                continue
            if schema.get("type") == "integer":
                if not re.fullmatch(r"-?[0-9]+", value):
                    raise SpecViolation(f"{where}: {location} parameter {name}={value!r} is not an integer")
                value = int(value)
            self.validate(value, schema, f"{where} {location} parameter {name}")
        security = operation.get("security", self.spec.get("security", []))
        if security and {} not in security and "Authorization" not in request.headers:
            raise SpecViolation(f"{where}: needs a bearer token")
        body_spec = operation.get("requestBody")
        if request.body is None:
            if body_spec and body_spec.get("required"):
                raise SpecViolation(f"{where}: missing request body")
            return
        if body_spec is None:
            raise SpecViolation(f"{where}: sent a body the operation does not take")
        media_type = request.headers.get("Content-Type", "").split(";")[0].strip()
        if media_type not in body_spec["content"]:
            raise SpecViolation(f"{where}: request body as {media_type!r}, not {sorted(body_spec['content'])}")
        self.validate(json.loads(request.body), body_spec["content"][media_type]["schema"], f"{where} request body")

    def check_response(self, where: str, response: requests.Response, operation: dict) -> None:
        status = str(response.status_code)
        spec = operation["responses"].get(status) or operation["responses"].get("default")
        if spec is None:
            raise SpecViolation(f"{where}: undocumented status {status}")
        if "$ref" in spec:
            spec = self.spec["components"]["responses"][spec["$ref"].rsplit("/", 1)[-1]]
        content = spec.get("content")
        if not content:
            if response.content:
                raise SpecViolation(f"{where} {status}: a body where the spec has none")
            return
        media_type = response.headers.get("Content-Type", "").split(";")[0].strip()
        if media_type not in content:
            raise SpecViolation(f"{where} {status}: answered {media_type!r}, the spec says {sorted(content)}")
        if media_type in STREAMED_MEDIA_TYPES:
            return  # read by the caller as it arrives; reading it here would consume the stream
        self.validate(response.json(), content[media_type]["schema"], f"{where} {status} response")
