"""The labels a ruleset's games are read with (``GET /v1/rulesets/{id}/labels``): the ruleset's own
(``Ruleset.labels``, engine/core/labels.py) and the service's: its own events (``SERVICE_EVENT_TYPES``)
and how a seat without a name reads ("Seat 2 · Heuristic bot"), from labels.json beside this module."""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path

from engine.core.ruleset import Ruleset

SERVICE_LABELS = Path(__file__).with_name("labels.json")


@functools.cache
def service_labels() -> dict:
    return json.loads(SERVICE_LABELS.read_text(encoding="utf-8"))


def labels(ruleset: Ruleset) -> dict:
    """Every label a game of ``ruleset`` needs: the service's events beside the ruleset's, and the seats'."""
    served = ruleset.labels()
    service = service_labels()
    served["events"] = {**service["events"], **served["events"]}
    served["seats"] = dict(service["seats"])
    return served


def labels_etag(body: dict) -> str:
    """A strong ETag of a labels answer: they change only with a new release of the service."""
    digest = hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
    return f'"{digest[:20]}"'
