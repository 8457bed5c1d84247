"""Generic JSON-safe (de)serialization of a game's state dataclasses.

A state is a tree of ``@dataclass`` objects whose fields are ints, strs, bools,
floats, ``None``, lists, str-keyed dicts, nested dataclasses and ``Rng``. The field
annotations drive ``from_jsonable``, so a game writes no serialization code.

Both directions are on the HTTP service's hot path, so the per-type work (field lists,
annotations) is done once per class: ``from_jsonable`` builds one decoder function per
annotation and caches it.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Callable

from engine.core.rng import Rng

_PLAIN = (int, str, float, bool, type(None))


@functools.cache
def _field_names(cls) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls))


def to_jsonable(value):
    if type(value) in _PLAIN:
        return value
    if dataclasses.is_dataclass(value):
        return {name: to_jsonable(getattr(value, name)) for name in _field_names(type(value))}
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
    return _decoder(kind)(data)


def _as_is(data):
    return data


_decoders: dict = {}


def _decoder(kind) -> Callable:
    """The function that rebuilds a value of ``kind`` from JSON data (None stays None)."""
    decode = _decoders.get(kind)
    if decode is None:
        decode = _build_decoder(kind)
        _decoders[kind] = decode
    return decode


def _build_decoder(kind) -> Callable:
    if kind is Rng:
        return lambda data: None if data is None else Rng.from_dict(data)
    if dataclasses.is_dataclass(kind):
        return _dataclass_decoder(kind)
    origin = typing.get_origin(kind)
    args = typing.get_args(kind)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        return _decoder(inner[0]) if len(inner) == 1 else _as_is
    if origin is list:
        item = _decoder(args[0]) if args else _as_is
        if item is _as_is:
            return lambda data: None if data is None else list(data)
        return lambda data: None if data is None else [item(v) for v in data]
    if origin is tuple:
        return lambda data: None if data is None else tuple(data)
    if origin is dict:
        value = _decoder(args[1]) if args else _as_is
        if value is _as_is:
            return lambda data: None if data is None else dict(data)
        return lambda data: None if data is None else {k: value(v) for k, v in data.items()}
    return _as_is


def _dataclass_decoder(cls) -> Callable:
    # Registered before its fields' decoders are built, so a dataclass may refer to itself.
    fields: list[tuple[str, Callable]] = []

    def decode(data):
        if data is None:
            return None
        return cls(**{name: convert(data[name]) for name, convert in fields if name in data})

    _decoders[cls] = decode
    hints = _field_types(cls)
    fields.extend((f.name, _decoder(hints[f.name])) for f in dataclasses.fields(cls) if f.init)
    return decode
