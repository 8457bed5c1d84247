"""JSON's own types, strictly: a request's ``true`` is a boolean and ``2`` an integer, nothing else is.

marshmallow's ``Boolean`` takes ``0``, ``1``, ``"yes"`` and ``"on"``, and ``Integer`` without
``strict`` truncates ``2.5`` to 2 and parses ``"2"``: a client's mistake would pass unseen (a
seed of 2.5 silently becomes the seed 2). Every schema that loads a JSON body uses these, or
``fields.Integer(strict=True)`` (tests/api/test_strict_types.py walks them all).

Likewise marshmallow's ``Regexp`` is ``re.match``, where ``$`` also matches before a final newline:
``"0\n"`` would pass ``^[0-9]+$`` and reach Redis as a stream id (a 503). ``WholeRegexp`` matches
the whole string.
"""

from __future__ import annotations

from marshmallow import fields, validate


class StrictBoolean(fields.Boolean):
    """``true`` or ``false`` only (JSON's booleans); ``0``, ``1`` and strings are invalid."""

    def _deserialize(self, value, attr, data, **kwargs):
        # ``1 in {True}`` holds in Python, so marshmallow's truthy sets cannot tell 1 from true.
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class WholeRegexp(validate.Regexp):
    """``validate.Regexp`` over the whole value: no trailing newline slips past a ``$``. The spec
    still shows the pattern (apispec reads ``Regexp`` validators)."""

    def __call__(self, value: str) -> str:
        if self.regex.fullmatch(value) is None:
            raise validate.ValidationError(self._format_error(value))
        return value
