"""Generic JSON-safe (de)serialization of a game's state dataclasses.

A state is a tree of ``@dataclass`` objects whose fields are ints, strs, bools,
floats, ``None``, lists, str-keyed dicts, nested dataclasses and ``Rng``. The field
annotations drive ``from_jsonable``, so a game writes no serialization code.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing

from engine.core.rng import Rng


def to_jsonable(value):
    if dataclasses.is_dataclass(value):
        return {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Rng):
        return value.to_dict()
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    return value


@functools.cache
def _field_types(cls) -> dict:
    return typing.get_type_hints(cls)


def from_jsonable(kind, data):
    """Rebuild a value of type ``kind`` (a dataclass or a typing annotation)."""
    if data is None:
        return None
    if kind is Rng:
        return Rng.from_dict(data)
    if dataclasses.is_dataclass(kind):
        hints = _field_types(kind)
        return kind(**{
            f.name: from_jsonable(hints[f.name], data[f.name])
            for f in dataclasses.fields(kind)
            if f.init and f.name in data
        })
    origin = typing.get_origin(kind)
    args = typing.get_args(kind)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        return from_jsonable(inner[0], data) if len(inner) == 1 else data
    if origin is list:
        return [from_jsonable(args[0], v) for v in data] if args else list(data)
    if origin is tuple:
        return tuple(data)
    if origin is dict:
        return {k: from_jsonable(args[1], v) for k, v in data.items()} if args else dict(data)
    return data
