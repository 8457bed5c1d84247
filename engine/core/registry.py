"""Rulesets by id. Every package under ``engine/games`` that exposes ``RULESET`` is one."""

from __future__ import annotations

import difflib
import importlib
import pkgutil

from engine.core.ruleset import Ruleset

_rulesets: dict[str, Ruleset] | None = None


#: Where the games are. Found by name at run time, never imported here: the games are built on the
#: contract in ``engine.core``, so core naming them in an import would tie the two into a circle.
GAMES_PACKAGE = "engine.games"


def _discover() -> dict[str, Ruleset]:
    games = importlib.import_module(GAMES_PACKAGE)
    found: dict[str, Ruleset] = {}
    for module in pkgutil.iter_modules(games.__path__):
        package = importlib.import_module(f"{GAMES_PACKAGE}.{module.name}")
        ruleset = getattr(package, "RULESET", None)
        if ruleset is not None:
            found[ruleset.id] = ruleset
    return dict(sorted(found.items()))


def all_rulesets() -> dict[str, Ruleset]:
    global _rulesets
    if _rulesets is None:
        _rulesets = _discover()
    return _rulesets


class UnknownRuleset(KeyError):
    """No ruleset has this id. ``message`` lists the ids and suggests the nearest (people type
    "hitchhiker" for ``hitchiker``): the one wording of every place that meets an unknown id."""

    def __init__(self, ruleset_id: str, known: list[str]) -> None:
        super().__init__(ruleset_id)
        self.ruleset_id = ruleset_id
        self.known = known
        #: the id nearest to the one asked for, if any is near enough to be a typo of it
        self.nearest = nearest_id(ruleset_id, known)

    @property
    def message(self) -> str:
        hint = f"; did you mean {self.nearest!r}?" if self.nearest else ""
        return f"unknown ruleset {self.ruleset_id!r}{hint} (rulesets: {', '.join(self.known)})"

    def __str__(self) -> str:
        return self.message


def nearest_id(wanted: str, known: list[str]) -> str | None:
    """The known id closest to ``wanted`` when it is close enough to be a typo (case aside)."""
    lowered = {ruleset_id.lower(): ruleset_id for ruleset_id in known}
    close = difflib.get_close_matches(str(wanted).strip().lower(), list(lowered), n=1, cutoff=0.6)
    return lowered[close[0]] if close else None


def get_ruleset(ruleset_id: str) -> Ruleset:
    """The ruleset with this id; ``UnknownRuleset`` (a ``KeyError``) if there is none."""
    rulesets = all_rulesets()
    try:
        return rulesets[ruleset_id]
    except (KeyError, TypeError):
        raise UnknownRuleset(ruleset_id, list(rulesets)) from None
