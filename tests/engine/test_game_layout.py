"""Every game is laid out alike (docs/rules/*.md name the files): its ruleset in ``ruleset.py`` as
``<Game>Ruleset``, exported by its package, offering the generic bots beside its own."""

from __future__ import annotations

import importlib

import pytest

from engine.bots import GENERIC_BOTS
from engine.core.registry import all_rulesets

GAMES = {ruleset.id: ruleset for ruleset in all_rulesets().values()
         if type(ruleset).__module__.startswith("engine.games.")}


def test_the_four_games_are_found():
    assert sorted(GAMES) == ["cash-n-guns", "hitchiker", "monopoly-cars2", "whipcash"]


@pytest.mark.parametrize("ruleset_id", sorted(GAMES))
def test_a_games_ruleset_is_its_ruleset_module_s_game_ruleset_class(ruleset_id):
    cls = type(GAMES[ruleset_id])
    package = cls.__module__.rsplit(".", 1)[0]
    game = package.rsplit(".", 1)[1]
    assert cls.__module__ == f"{package}.ruleset"
    assert cls.__name__ == "".join(part.capitalize() for part in game.split("_")) + "Ruleset"
    exported = importlib.import_module(package)
    assert exported.RULESET is GAMES[ruleset_id] and getattr(exported, cls.__name__) is cls
    assert cls.__name__ in exported.__all__


@pytest.mark.parametrize("ruleset_id", sorted(GAMES))
def test_every_game_offers_the_generic_bots_and_a_heuristic(ruleset_id):
    ruleset = GAMES[ruleset_id]
    classes = ruleset.bot_classes()
    assert {name: classes.get(name) for name in GENERIC_BOTS} == GENERIC_BOTS
    assert list(ruleset.bots) == ["heuristic"] and classes["heuristic"] is ruleset.bots["heuristic"]
