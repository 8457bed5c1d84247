"""Display names of seats: one marshmallow field for every place a name comes in (creation, join)."""

from __future__ import annotations

import unicodedata

from marshmallow import ValidationError, fields, validate

MAX_NAME_LENGTH = 64
#: Unicode categories a name may not contain: controls (NUL included), unpaired surrogates,
#: private use, unassigned code points, line and paragraph separators.
_FORBIDDEN_CATEGORIES = frozenset({"Cc", "Cs", "Co", "Cn", "Zl", "Zp"})
#: Bidirectional embeddings, overrides and isolates, which would reorder the text around a name.
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")


def clean_name(value: str) -> str:
    """``value`` NFC-normalized and stripped of surrounding whitespace; ``ValueError`` saying what is wrong."""
    name = unicodedata.normalize("NFC", value).strip()
    if not name:
        raise ValueError("a name needs a visible character")
    if len(name) > MAX_NAME_LENGTH:
        raise ValueError(f"at most {MAX_NAME_LENGTH} characters")
    for char in name:
        if char in _BIDI_CONTROLS:
            raise ValueError(f"no bidirectional control characters (U+{ord(char):04X})")
        if unicodedata.category(char) in _FORBIDDEN_CATEGORIES:
            raise ValueError(f"no control, unassigned or unpaired surrogate characters (U+{ord(char):04X})")
    return name


class DisplayName(fields.String):
    """A seat's display name: 1 to 64 printable characters after NFC normalization and trimming."""

    def __init__(self, **kwargs) -> None:
        metadata = {"description": f"Display name: 1 to {MAX_NAME_LENGTH} printable characters (NFC-normalized, "
                    "trimmed; no control or bidirectional-override characters).", **kwargs.pop("metadata", {})}
        # The length validator runs on the cleaned name, and shows the bounds in the spec.
        super().__init__(metadata=metadata, validate=validate.Length(min=1, max=MAX_NAME_LENGTH), **kwargs)

    def _deserialize(self, value, attr, data, **kwargs) -> str:
        text = super()._deserialize(value, attr, data, **kwargs)
        if len(text) > 4 * MAX_NAME_LENGTH:  # bound the work before normalizing
            raise ValidationError(f"at most {MAX_NAME_LENGTH} characters")
        try:
            return clean_name(text)
        except ValueError as error:
            raise ValidationError(str(error)) from None
