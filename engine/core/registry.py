"""Rulesets by id. Every package under ``engine/games`` that exposes ``RULESET`` is one."""

from __future__ import annotations

import importlib
import pkgutil

from engine.core.ruleset import Ruleset

_rulesets: dict[str, Ruleset] | None = None


def _discover() -> dict[str, Ruleset]:
    import engine.games

    found: dict[str, Ruleset] = {}
    for module in pkgutil.iter_modules(engine.games.__path__):
        package = importlib.import_module(f"engine.games.{module.name}")
        ruleset = getattr(package, "RULESET", None)
        if ruleset is not None:
            found[ruleset.id] = ruleset
    return dict(sorted(found.items()))


def all_rulesets() -> dict[str, Ruleset]:
    global _rulesets
    if _rulesets is None:
        _rulesets = _discover()
    return _rulesets


def get_ruleset(ruleset_id: str) -> Ruleset:
    """The ruleset with this id; ``KeyError`` if there is none."""
    return all_rulesets()[ruleset_id]
