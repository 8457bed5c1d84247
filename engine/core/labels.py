"""The words a person reads for a ruleset's codes: its event types, end reasons, decision kinds, actions,
cards and bots, as sentence templates (the ruleset's ``data/labels.json``; the grammar of a template is in
docs/http-api.md, "Labels"). The service serves them (``GET /v1/rulesets/{id}/labels``) so that the web
pages, the SDK and an agent read the same words."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the ruleset hands itself in; labels never call the rules
    from engine.core.ruleset import Ruleset

#: every table a labels file has (``parts``: templates a formatter renders per item of a list)
SECTIONS = ("events", "end_reasons", "decisions", "actions", "ranged", "parts", "terms")


def labels_path(ruleset: Ruleset) -> Path:
    """``data/labels.json`` beside the ruleset's module."""
    return Path(sys.modules[type(ruleset).__module__].__file__).parent / "data" / "labels.json"


def load_labels(ruleset: Ruleset) -> dict:
    """The ruleset's labels, every section present, with ``terms.bots`` naming every bot it offers and
    ``terms.bot_about`` saying how it plays: a bot class's own ``label`` and ``about``, unless the labels
    file says (a game's own bots)."""
    path = labels_path(ruleset)
    # A ruleset without a labels file (a test's, a plug-in's first draft) has none: clients then show its
    # codes in plain terms. Every ruleset of the engine has one (tests/engine/test_labels.py).
    written = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    unknown = set(written) - set(SECTIONS)
    if unknown:
        raise ValueError(f"{path}: unknown sections {sorted(unknown)}")
    labels = {section: written.get(section, {}) for section in SECTIONS}
    classes = ruleset.bot_classes()
    terms = labels["terms"]
    terms["bots"] = {**{name: bot.label for name, bot in classes.items()}, **terms.get("bots", {})}
    terms["bot_about"] = {**{name: bot.about for name, bot in classes.items()}, **terms.get("bot_about", {})}
    return labels
