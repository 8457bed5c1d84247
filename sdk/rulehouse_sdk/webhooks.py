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
    ``InvalidSignature``. Deduplicate by the body's ``id``: a retried delivery keeps it."""
    raw = body.encode() if isinstance(body, str) else body
    parts = dict(part.split("=", 1) for part in (signature or "").split(",") if "=" in part)
    try:
        timestamp = int(parts["t"])
        given = parts["v1"]
    except (KeyError, ValueError):
        raise InvalidSignature("no t= and v1= in the signature header") from None
    expected = hmac.new(secret.encode(), f"{timestamp}.".encode() + raw, hashlib.sha256).hexdigest()
    if not hmac.compare_digest(expected, given):
        raise InvalidSignature("the signature does not match the body")
    if abs((time.time() if now is None else now) - timestamp) > tolerance:
        raise InvalidSignature("the signature is too old")
    return json.loads(raw)
