"""Generate the SDK's operation layer from the service's OpenAPI document.

    python sdk/generate.py            # rewrite sdk/rulehouse_sdk/_generated.py from openapi.yaml
    python sdk/generate.py --check    # exit 1 if the committed file is stale

The output has one TypedDict per component schema and one method per operation on
``Operations``; the hand-written ``Client`` supplies the transport. The generator may use
PyYAML; the module it writes needs nothing but the standard library.
"""

from __future__ import annotations

import argparse
import keyword
import re
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
SPEC_PATH = ROOT / "openapi.yaml"
OUTPUT_PATH = ROOT / "sdk" / "rulehouse_sdk" / "_generated.py"

HTTP_METHODS = ("get", "put", "post", "delete", "patch", "head", "options")
#: Headers the client manages itself; the generated method only lets a caller override them.
CLIENT_HEADERS = {"Idempotency-Key"}
STREAM_MEDIA_TYPES = ("application/x-ndjson", "text/event-stream")


class SpecError(Exception):
    """The OpenAPI document has something the generator cannot name or type."""


def snake(name: str) -> str:
    name = re.sub(r"[^0-9A-Za-z]+", "_", name)
    name = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name)
    return name.strip("_").lower()


def method_name(method: str, path: str, operation: dict) -> str:
    """The operation's ``operationId`` (the service gives every operation one: api/http/operation_ids.py)."""
    if not operation.get("operationId"):
        raise SpecError(f"{method.upper()} {path} has no operationId")
    return snake(operation["operationId"])


class Types:
    """Python annotations for JSON Schemas of the spec."""

    def __init__(self, spec: dict) -> None:
        self.schemas: dict[str, dict] = spec.get("components", {}).get("schemas", {})

    def ref_name(self, schema: dict) -> str | None:
        ref = schema.get("$ref")
        return ref.rsplit("/", 1)[-1] if ref else None

    def resolve(self, schema: dict) -> dict:
        name = self.ref_name(schema)
        return self.schemas[name] if name else schema

    def annotation(self, schema: dict | None) -> str:
        if not schema:
            return "Any"
        name = self.ref_name(schema)
        if name:
            target = self.schemas[name]
            named = self.is_typed_dict(target) or "oneOf" in target or "anyOf" in target
            return name if named else self.annotation(target)
        if "anyOf" in schema or "oneOf" in schema:
            parts: list[str] = []
            for branch in schema.get("anyOf") or schema["oneOf"]:
                for part in self.annotation(branch).split(" | "):
                    if part not in parts:
                        parts.append(part)
            # A bare object branch adds nothing to a typed one beside it.
            if "dict[str, Any]" in parts and len([p for p in parts if p != "None"]) > 1:
                parts.remove("dict[str, Any]")
            if "None" in parts:
                parts.append(parts.pop(parts.index("None")))
            return " | ".join(parts)
        kind = schema.get("type")
        if "enum" in schema:
            text = f"Literal[{', '.join(repr(value) for value in schema['enum'])}]"
        elif kind == "string":
            text = "str"
        elif kind == "integer":
            text = "int"
        elif kind == "number":
            text = "float"
        elif kind == "boolean":
            text = "bool"
        elif kind == "array":
            text = f"list[{self.annotation(schema.get('items'))}]"
        elif kind == "object" and isinstance(schema.get("additionalProperties"), dict) and not schema.get(
                "properties"):
            text = f"dict[str, {self.annotation(schema['additionalProperties'])}]"
        else:
            text = "dict[str, Any]"
        return f"{text} | None" if schema.get("nullable") else text

    def alias(self, name: str, schema: dict) -> list[str] | None:
        """``Name = A | B`` for a component that is a union of others (e.g. the stream's lines)."""
        if not ("oneOf" in schema or "anyOf" in schema):
            return None
        lines = [f"{name} = {self.annotation(schema)}"]
        if schema.get("description"):
            lines.append(docstring(schema["description"], 0))
        return lines

    @staticmethod
    def is_typed_dict(schema: dict) -> bool:
        return schema.get("type") == "object" and bool(schema.get("properties"))

    def typed_dict(self, name: str, schema: dict) -> list[str]:
        lines = [f"class {name}(TypedDict):"]
        if schema.get("description"):
            lines.append(f"    {docstring(schema['description'], 4)}")
        required = set(schema.get("required", ()))
        for field, field_schema in schema["properties"].items():
            if not field.isidentifier() or keyword.iskeyword(field):
                raise SpecError(f"{name}.{field} is not a Python identifier")
            # Quoted, so a class may name one defined below it; NotRequired itself stays bare, or
            # Python 3.11 would count the key as required (__required_keys__).
            annotation = f'"{self.annotation(field_schema)}"'
            if field not in required:
                annotation = f"NotRequired[{annotation}]"
            lines.append(f"    {field}: {annotation}")
            description = self.resolve(field_schema).get("description") or field_schema.get("description")
            if description:
                lines.append(f"    {docstring(description, 4)}")
        if schema.get("additionalProperties") not in (False, None):
            lines.append("    # more keys may be present (additionalProperties)")
        return lines


def docstring(text: str, indent: int) -> str:
    text = text.strip().replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    pad = " " * indent
    lines = [line.rstrip() for line in text.splitlines()]
    body = "\n".join(pad + line if line else "" for line in lines).lstrip()
    if len(lines) == 1:
        return f'"""{body}"""'
    return f'"""{body}\n{pad}"""'


class Parameter:
    """One argument of a generated method and where it goes in the request."""

    def __init__(self, name: str, wire_name: str, location: str, annotation: str, required: bool,
                 description: str = "", positional: bool = False) -> None:
        self.name, self.wire_name, self.location = name, wire_name, location
        self.annotation, self.required, self.description = annotation, required, description
        #: an optional body field that stays a positional argument (``x-positional`` in the spec)
        self.positional = (required and location in ("path", "body", "json")) or positional

    def signature(self) -> str:
        if self.required:
            return f"{self.name}: {self.annotation}"
        optional = self.annotation if self.annotation.endswith("| None") else f"{self.annotation} | None"
        return f"{self.name}: {optional} = None"


def operation_parameters(types: Types, path_item: dict, operation: dict) -> list[Parameter]:
    declared = {(p["in"], p["name"]): p for p in path_item.get("parameters", [])}
    declared.update({(p["in"], p["name"]): p for p in operation.get("parameters", [])})
    parameters: list[Parameter] = []
    for (location, wire_name), parameter in declared.items():
        if location == "cookie":
            raise SpecError(f"cookie parameter {wire_name} is not supported")
        annotation = types.annotation(parameter.get("schema"))
        if wire_name == "If-Match":
            annotation = "str | int"  # an int is sent as the quoted version, the game's ETag
        parameters.append(Parameter(snake(wire_name), wire_name, location, annotation,
                                    bool(parameter.get("required")), parameter.get("description", "")))
    body = operation.get("requestBody")
    if body:
        content = body["content"].get("application/json")
        if content is None:
            raise SpecError(f"request body of {operation.get('summary')} is not JSON")
        schema = content["schema"]
        resolved = types.resolve(schema)
        if types.is_typed_dict(resolved) and resolved.get("additionalProperties") is False:
            required = set(resolved.get("required", ()))
            for field, field_schema in resolved["properties"].items():
                parameters.append(Parameter(field, field, "body", types.annotation(field_schema), field in required,
                                            field_schema.get("description", ""),
                                            bool(field_schema.get("x-positional"))))
        else:
            ref = types.ref_name(schema)
            annotation = f"{ref} | dict[str, Any]" if ref and types.is_typed_dict(resolved) else "dict[str, Any]"
            parameters.append(Parameter(snake(ref or "body"), "", "json", annotation, bool(body.get("required")),
                                        body.get("description", "")))
    names = [p.name for p in parameters]
    if len(set(names)) != len(names):
        raise SpecError(f"{operation.get('summary')}: two parameters share a Python name in {names}")
    order = {"path": 0, "json": 1, "body": 1, "query": 2, "header": 3}
    parameters.sort(key=lambda p: (not p.positional, not p.required or p.location in ("query", "header"),
                                   order[p.location]))
    return parameters


def success_response(types: Types, operation: dict) -> tuple[tuple[int, ...], str, bool]:
    """(success statuses, return annotation, streamed?) of an operation."""
    statuses = sorted(int(code) for code in operation["responses"] if code.isdigit() and 200 <= int(code) < 300)
    if not statuses:
        raise SpecError(f"{operation.get('summary')} has no 2xx response")
    content = operation["responses"][str(statuses[0])].get("content") or {}
    for media in STREAM_MEDIA_TYPES:
        if media in content:
            # OpenAPI 3.2 names the schema of each item of a sequential media type itemSchema.
            item = content[media].get("itemSchema") or content[media].get("x-itemSchema")
            return tuple(statuses), f"Iterator[{types.annotation(item) if item else 'dict[str, Any]'}]", True
    if "application/json" in content:
        return tuple(statuses), types.annotation(content["application/json"].get("schema")), False
    if any(media.startswith("text/") for media in content):
        return tuple(statuses), "str", False
    return tuple(statuses), "None", False


def render_method(name: str, method: str, path: str, operation: dict, parameters: list[Parameter],
                  returns: str, streamed: bool, asynchronous: bool = False) -> list[str]:
    positional = [p.signature() for p in parameters if p.positional]
    keyword_only = [p.signature() for p in sorted(parameters, key=lambda p: not p.required) if not p.positional]
    arguments = ["self", *positional, *(["*", *keyword_only] if keyword_only else [])]
    if asynchronous:
        returns = returns.replace("Iterator[", "AsyncIterator[", 1) if streamed else returns
        lines = [f"    async def {name}({', '.join(arguments)}) -> {returns}:"]
    else:
        lines = [f"    def {name}({', '.join(arguments)}) -> {returns}:"]
    doc = operation.get("summary", "").strip()
    if operation.get("description"):
        doc += "\n\n" + operation["description"].strip()
    documented = [p for p in parameters if p.description]
    if documented:
        doc += "\n\n" + "\n".join(f"{p.name}: {' '.join(p.description.split())}" for p in documented)
    doc += f"\n\n{method.upper()} {path}"
    lines.append(f"        {docstring(doc, 8)}")

    def mapping(location: str) -> str:
        items = [f"{p.wire_name!r}: {p.name}" for p in parameters if p.location == location]
        return "{" + ", ".join(items) + "}" if items else "None"

    json_parameter = next((p.name for p in parameters if p.location == "json"), None)
    # A body given whole (an action) is sent exactly as given; one built from keyword arguments
    # leaves out the arguments not given (None), so the server applies its defaults.
    body = json_parameter or (f"given({mapping('body')})" if mapping("body") != "None" else "None")
    call = ("await self." if asynchronous else "self.") + ("_stream" if streamed else "_call")
    lines.append(f"        return {call}(OPERATIONS[{name!r}], path={mapping('path')}, query={mapping('query')},")
    lines.append(f"            headers={mapping('header')}, body={body})")
    return lines


HEADER = '''\
# Generated by sdk/generate.py from openapi.yaml ({title} {version}). Do not edit:
# change the API, regenerate openapi.yaml, then run `python sdk/generate.py`.
"""Typed shapes and one method per operation of the Rulehouse HTTP API."""

from collections.abc import AsyncIterator, Iterator
from typing import Any, Literal, NamedTuple, NotRequired, TypedDict


class Operation(NamedTuple):
    name: str
    method: str
    path: str
    success: tuple[int, ...]
    streamed: bool
    #: the server honours Idempotency-Key here, so the client may retry it
    idempotency_key: bool
'''


OPERATIONS_CLASS = '''\
def given(fields: dict[str, Any]) -> dict[str, Any]:
    """A body built from keyword arguments, without those left at None."""
    return {name: value for name, value in fields.items() if value is not None}


class Operations:
    """One method per operation; a subclass sends the requests (see ``Client``)."""

    def _call(self, operation: Operation, *, path: dict[str, Any] | None, query: dict[str, Any] | None,
              headers: dict[str, Any] | None, body: Any) -> Any:
        raise NotImplementedError

    def _stream(self, operation: Operation, *, path: dict[str, Any] | None, query: dict[str, Any] | None,
                headers: dict[str, Any] | None, body: Any) -> Iterator[dict[str, Any]]:
        raise NotImplementedError'''


ASYNC_OPERATIONS_CLASS = '''\
class AsyncOperations:
    """The same operations as coroutines; a subclass sends the requests (see ``rulehouse_sdk.aio``).

    A streamed operation is awaited for its answer's status (errors raise there), then iterated
    with ``async for``.
    """

    async def _call(self, operation: Operation, *, path: dict[str, Any] | None, query: dict[str, Any] | None,
                    headers: dict[str, Any] | None, body: Any) -> Any:
        raise NotImplementedError

    async def _stream(self, operation: Operation, *, path: dict[str, Any] | None, query: dict[str, Any] | None,
                      headers: dict[str, Any] | None, body: Any) -> AsyncIterator[dict[str, Any]]:
        raise NotImplementedError'''


def render(spec: dict) -> str:
    types = Types(spec)
    out = [HEADER.format(title=spec["info"]["title"], version=spec["info"]["version"])]
    public: list[str] = []
    aliases: list[str] = []
    for name, schema in types.schemas.items():
        if types.is_typed_dict(schema):
            out.append("")
            out.extend(types.typed_dict(name, schema))
            out.append("")
            public.append(name)
        elif (alias := types.alias(name, schema)) is not None:
            aliases.extend(["", *alias])
            public.append(name)
    # Unions come after the classes they name (they are evaluated at import).
    out.extend(aliases)
    out.append("")
    out.append("#: The response and request shapes, re-exported by ``rulehouse_sdk.types``.")
    out.append("__all__ = [")
    out.extend(f"    {name!r}," for name in public)
    out.append("]")
    out.append("")
    operations: list[str] = []
    methods: list[str] = []
    async_methods: list[str] = []
    seen: set[str] = set()
    for path, path_item in spec["paths"].items():
        for method in HTTP_METHODS:
            operation = path_item.get(method)
            if operation is None:
                continue
            name = method_name(method, path, operation)
            if name in seen:
                raise SpecError(f"two operations are named {name}")
            seen.add(name)
            parameters = operation_parameters(types, path_item, operation)
            statuses, returns, streamed = success_response(types, operation)
            idempotency = any(p.wire_name == "Idempotency-Key" and p.location == "header" for p in parameters)
            operations.append(f"    {name!r}: Operation({name!r}, {method.upper()!r}, {path!r}, {statuses!r}, "
                              f"{streamed!r}, {idempotency!r}),")
            methods.append("")
            methods.extend(render_method(name, method, path, operation, parameters, returns, streamed))
            async_methods.append("")
            async_methods.extend(render_method(name, method, path, operation, parameters, returns, streamed,
                                               asynchronous=True))
    out.append("")
    out.append("OPERATIONS: dict[str, Operation] = {")
    out.extend(operations)
    out.append("}")
    out.append("")
    out.append("")
    out.append(OPERATIONS_CLASS)
    out.extend(methods)
    out.append("")
    out.append("")
    out.append(ASYNC_OPERATIONS_CLASS)
    out.extend(async_methods)
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", type=Path, default=SPEC_PATH)
    parser.add_argument("--output", type=Path, default=OUTPUT_PATH)
    parser.add_argument("--check", action="store_true", help="exit 1 if the output file is stale")
    args = parser.parse_args(argv)
    text = render(yaml.safe_load(args.spec.read_text()))
    if args.check:
        stale = not args.output.exists() or args.output.read_text() != text
        if stale:
            print(f"{args.output} is stale: run `python sdk/generate.py`", file=sys.stderr)
        return 1 if stale else 0
    args.output.write_text(text)
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
