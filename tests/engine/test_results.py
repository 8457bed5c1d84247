"""Every field of a game's result has one JSON type (or null), whatever happened in the game: a client
reads ``result.details.holdings.daily.seat`` the same way in every game. (Whipca$h's holdings were a
seat number in one game and a Pro's id in another.)"""

from __future__ import annotations

from collections import defaultdict

import pytest

from engine.core.registry import all_rulesets
from engine.core.rng import Rng, derive_seed

GAMES = 40


def json_type(value) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    return {str: "string", list: "array", dict: "object", type(None): "null"}[type(value)]


def types_by_path(value, path: str, found: dict[str, set[str]]) -> None:
    """Every JSON type met at each path of ``value`` (list items share the path ``[]``)."""
    found[path].add(json_type(value))
    if isinstance(value, list):
        for item in value:
            types_by_path(item, f"{path}[]", found)
    elif isinstance(value, dict):
        for key, item in value.items():
            types_by_path(item, f"{path}.{key}", found)


def finished_results(ruleset, games: int) -> list[dict]:
    counts = list(range(ruleset.min_players, ruleset.max_players + 1))
    bot = ruleset.bot("random")
    results = []
    for game in range(games):
        state = ruleset.new_game(counts[game % len(counts)], {}, derive_seed(2026, game))
        rng = Rng(derive_seed(2026, game, 1))
        while decisions := ruleset.pending(state):
            decision = rng.choice(decisions)
            ruleset.apply(state, decision.seat, bot.act(None, decision, rng), check=False)
        results.append(ruleset.result(state).to_dict())
    return results


@pytest.mark.parametrize("ruleset_id", sorted(all_rulesets()))
def test_each_field_of_a_result_has_one_type(ruleset_id):
    found: dict[str, set[str]] = defaultdict(set)
    results = finished_results(all_rulesets()[ruleset_id], GAMES)
    for result in results:
        types_by_path(result, "result", found)
    mixed = {path: sorted(types) for path, types in found.items() if len(types - {"null"}) > 1}
    assert not mixed, f"{ruleset_id}: fields with more than one type: {mixed}"
    if ruleset_id == "whipcash":  # the games met both kinds of holder, so the check had something to catch
        holders = [holder for result in results for holder in result["details"]["holdings"].values()]
        assert any(holder["seat"] is not None for holder in holders)
        assert any(holder["pro"] is not None for holder in holders)
