"""JSON's own types, strictly: a request's ``true`` is a boolean and ``2`` an integer, nothing else is.

marshmallow's ``Boolean`` takes ``0``, ``1``, ``"yes"`` and ``"on"``, and ``Integer`` without
``strict`` truncates ``2.5`` to 2 and parses ``"2"``: a client's mistake would pass unseen (a
seed of 2.5 silently becomes the seed 2). Every schema that loads a JSON body uses these, or
``fields.Integer(strict=True)`` (tests/api/test_strict_types.py walks them all).
"""

from __future__ import annotations

from marshmallow import fields


class StrictBoolean(fields.Boolean):
    """``true`` or ``false`` only (JSON's booleans); ``0``, ``1`` and strings are invalid."""

    def _deserialize(self, value, attr, data, **kwargs):
        # ``1 in {True}`` holds in Python, so marshmallow's truthy sets cannot tell 1 from true.
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value
