"""Display names of seats: one marshmallow field for every place a name comes in (creation, join); and
the one check of the characters that text others are shown may hold (names, table chat)."""

from __future__ import annotations

import unicodedata

from marshmallow import ValidationError, fields, validate

MAX_NAME_LENGTH = 64
#: Unicode categories a name may not contain: controls (NUL included), unpaired surrogates,
#: private use, unassigned code points, line and paragraph separators.
_FORBIDDEN_CATEGORIES = frozenset({"Cc", "Cs", "Co", "Cn", "Zl", "Zp"})
#: Bidirectional embeddings, overrides and isolates, which would reorder the text around a name.
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
#: Zero-width spaces, the word joiner, the byte order mark and the Mongolian vowel separator: invisible, so
#: two names that look the same could differ by them.
_ZERO_WIDTH = frozenset("\u200b\u2060\ufeff\u180e")
#: The zero-width non-joiner and joiner shape the characters on either side (Persian words, emoji
#: sequences): allowed only between two visible characters, where they do that.
_JOINERS = frozenset("\u200c\u200d")


def unsafe_character(text: str) -> str | None:
    """Why ``text`` may not be shown to others as it is (None: it may): controls (line breaks, tabs, NUL),
    line and paragraph separators, bidirectional controls, zero-width characters (a joiner only between
    two visible characters), private-use, unassigned code points and noncharacters, lone surrogates."""
    for index, char in enumerate(text):
        code = f"U+{ord(char):04X}"
        if char in _BIDI_CONTROLS:
            return f"no bidirectional control characters ({code})"
        if char in _ZERO_WIDTH:
            return f"no zero-width characters ({code})"
        if char in _JOINERS and not (_visible(text, index - 1) and _visible(text, index + 1)):
            return f"a zero-width joiner only between two visible characters ({code})"
        if unicodedata.category(char) in _FORBIDDEN_CATEGORIES:
            return f"no control, line separator, private-use, unassigned or unpaired surrogate characters ({code})"
    return None


def _visible(text: str, index: int) -> bool:
    """A character at ``index`` that shows: neither a space, a separator, a control nor a format character."""
    return 0 <= index < len(text) and unicodedata.category(text[index])[0] not in "ZC"


def clean_name(value: str) -> str:
    """``value`` NFC-normalized and stripped of surrounding whitespace; ``ValueError`` saying what is wrong."""
    name = unicodedata.normalize("NFC", value).strip()
    if not name:
        raise ValueError("a name needs a visible character")
    if len(name) > MAX_NAME_LENGTH:
        raise ValueError(f"at most {MAX_NAME_LENGTH} characters")
    if (problem := unsafe_character(name)) is not None:
        raise ValueError(problem)
    return name


class DisplayName(fields.String):
    """A seat's display name: 1 to 64 printable characters after NFC normalization and trimming."""

    def __init__(self, **kwargs) -> None:
        metadata = {"description": f"Display name: 1 to {MAX_NAME_LENGTH} printable characters (NFC-normalized, "
                    "trimmed; no control, separator, bidirectional, zero-width, private-use or unassigned "
                    "characters).", **kwargs.pop("metadata", {})}
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
