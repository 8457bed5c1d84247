"""Marshmallow schemas as self-contained JSON Schema (nested schemas inlined, no $ref)."""

from __future__ import annotations

import functools

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from marshmallow import Schema

JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


@functools.cache
def _plugin() -> MarshmallowPlugin:
    # A resolver that names no schema makes apispec inline every nested schema.
    plugin = MarshmallowPlugin(schema_name_resolver=lambda schema: None)
    APISpec("rulehouse-jsonschema", "1", "3.1.0", plugins=[plugin])
    return plugin


def json_schema(schema: type[Schema] | Schema) -> dict:
    body = _plugin().converter.schema2jsonschema(schema)
    return {"$schema": JSON_SCHEMA_DIALECT, **body}
