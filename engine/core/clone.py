"""Fast independent copies of a game's state dataclasses, written from their field annotations.

A search copies a state once per iteration and more, where ``copy.deepcopy`` costs tens of
microseconds. ``cloner(cls)`` writes (once per class) one Python expression that rebuilds a
state field by field, the way a hand-written copy would, so no field can be forgotten:

- ints, strs, floats, bools, ``None`` and tuples of them are shared (immutable);
- ``Rng`` is rebuilt from its seed and counter;
- ``list[X]``, ``dict[K, X]``, nested dataclasses and ``X | None`` are copied by their annotation;
- anything else (a bare ``dict``, ``list[dict]``...) is copied as a JSON value, recursively;
- a field declared with ``field(..., metadata=SHARED)`` (read-only data set up once, such as a
  custom board that a cache knows by identity) is shared by every copy.

The states must be slots dataclasses whose fields are all ``__init__`` parameters.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Callable
from typing import TypeVar

from engine.core.rng import Rng

#: the metadata of a dataclass field that every copy shares: set up once, never changed afterwards
SHARED = types.MappingProxyType({"clone": "share"})

_IMMUTABLE = (int, str, float, bool, type(None))

T = TypeVar("T")


def is_shared(field: dataclasses.Field) -> bool:
    return field.metadata.get("clone") == SHARED["clone"]


def copy_json(value):
    """A deep copy of a JSON-like value (dicts, lists, plain values)."""
    kind = type(value)
    if kind is list:
        return [copy_json(item) for item in value]
    if kind is dict:
        return {key: copy_json(item) for key, item in value.items()}
    return value


class _Writer:
    """Writes the copy expression of a class; ``names`` are the globals the expression uses."""

    def __init__(self) -> None:
        self.names: dict[str, object] = {"_Rng": Rng, "_copy_json": copy_json}
        self.depth = 0

    def name_of(self, cls: type) -> str:
        name = f"_{cls.__name__}_{id(cls)}"
        self.names[name] = cls
        return name

    def expression(self, kind, access: str) -> str:
        """An expression rebuilding the value at ``access`` (a variable or attribute chain) of type ``kind``."""
        if kind in _IMMUTABLE:
            return access
        if kind is Rng:
            return f"_Rng({access}.seed, {access}.counter)"
        if dataclasses.is_dataclass(kind):
            return self._dataclass(kind, access)
        origin, args = typing.get_origin(kind), typing.get_args(kind)
        if origin in (typing.Union, types.UnionType):
            inner = [arg for arg in args if arg is not type(None)]
            if len(inner) == 1:
                copied = self.expression(inner[0], access)
                return access if copied == access else f"(None if {access} is None else {copied})"
        elif origin is tuple and all(arg in _IMMUTABLE or arg is Ellipsis for arg in args):
            return access
        elif origin is list and args:
            item = self._variable()
            copied = self.expression(args[0], item)
            return f"{access}[:]" if copied == item else f"[{copied} for {item} in {access}]"
        elif origin is dict and len(args) == 2:
            key, item = self._variable(), self._variable()
            copied = self.expression(args[1], item)
            if copied == item:
                return f"{access}.copy()"
            return f"{{{key}: {copied} for {key}, {item} in {access}.items()}}"
        return f"_copy_json({access})"

    def _variable(self) -> str:
        self.depth += 1
        return f"_v{self.depth}"

    def _dataclass(self, cls: type, access: str) -> str:
        hints = typing.get_type_hints(cls)
        parts = []
        for field in dataclasses.fields(cls):
            if not field.init:
                raise TypeError(f"{cls.__name__}.{field.name}: cloned states take every field in __init__")
            value = f"{access}.{field.name}"
            parts.append(value if is_shared(field) else self.expression(hints[field.name], value))
        return f"{self.name_of(cls)}({', '.join(parts)})"


@functools.cache
def cloner(cls: type[T]) -> Callable[[T], T]:
    """The copy function of a state dataclass (written and compiled once per class)."""
    writer = _Writer()
    body = writer.expression(cls, "state")
    namespace = dict(writer.names)
    exec(f"def clone_{cls.__name__}(state):\n    return {body}\n", namespace)
    function = namespace[f"clone_{cls.__name__}"]
    function.source = body
    return function


def clone(state: T) -> T:
    """An independent copy of ``state`` (see ``cloner``)."""
    return cloner(type(state))(state)
