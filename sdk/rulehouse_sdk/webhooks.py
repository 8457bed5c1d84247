"""Check that a webhook delivery came from Rulehouse (for the app's receiving endpoint).

    from rulehouse_sdk import webhooks
    event = webhooks.verify(secret, request.body, request.headers["Rulehouse-Signature"])

The service signs ``"<t>.<body>"`` with HMAC-SHA256 keyed by the webhook's secret and
sends ``Rulehouse-Signature: t=<unix time>,v1=<hex digest>``.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from typing import Any

#: Deliveries signed longer ago than this are refused (replays of old deliveries).
DEFAULT_TOLERANCE = 300


class InvalidSignature(ValueError):
    """The delivery's signature is missing, malformed, wrong or too old."""


def verify(secret: str, body: bytes | str, signature: str | None, *, tolerance: float = DEFAULT_TOLERANCE,
           now: float | None = None) -> dict[str, Any]:
    """The delivery's JSON body if ``signature`` (the ``Rulehouse-Signature`` header) is right; else
    ``InvalidSignature``, whatever the header holds (a receiver that catches it answers every bad
    delivery with its own 4xx). Deduplicate by the body's ``id``: a retried delivery keeps it."""
    if isinstance(body, str):
        try:
            raw = body.encode()
        except UnicodeError:  # lone surrogates: not text the service sent
            raise InvalidSignature("the body is not the text that was signed") from None
    elif isinstance(body, bytes | bytearray | memoryview):
        raw = bytes(body)
    else:
        raise InvalidSignature("the body is neither bytes nor text")
    parts: dict[str, list[str]] = {}
    for part in signature.split(",") if isinstance(signature, str) else ():
        name, _, value = part.strip().partition("=")
        parts.setdefault(name, []).append(value)
    timestamps, given = parts.get("t", []), parts.get("v1", [])
    # The service writes ASCII digits and hex; anything else (non-ASCII, other digits) is no signature of it.
    if len(timestamps) != 1 or not _ascii_digits(timestamps[0]) or not given:
        raise InvalidSignature("no t= and v1= in the signature header")
    timestamp = int(timestamps[0])
    expected = hmac.new(secret.encode(), f"{timestamp}.".encode() + raw, hashlib.sha256).hexdigest()
    if not any(value.isascii() and hmac.compare_digest(expected, value) for value in given):
        raise InvalidSignature("the signature does not match the body")
    if abs((time.time() if now is None else now) - timestamp) > tolerance:
        raise InvalidSignature("the signature is too old")
    return json.loads(raw)


def _ascii_digits(text: str) -> bool:
    return 0 < len(text) <= 20 and text.isascii() and text.isdigit()
