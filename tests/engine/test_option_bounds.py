"""Every number a client can put in a game's options (house rules, boards, decks) has a bound a
real game needs, and every list and string a length limit: values far past them are refused."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core.errors import InvalidOptions
from engine.core.registry import all_rulesets
from engine.core.rng import Rng
from tests.options_examples import RULESETS, bent_options, full_options, leaves, replaced

HUGE = 10**12
LONG = 5000


def test_every_ruleset_has_its_full_options_example():
    assert set(RULESETS) >= {ruleset_id for ruleset_id in all_rulesets() if not ruleset_id.startswith("toy")}


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_the_full_options_name_every_option_of_the_schema(ruleset_id):
    # So the bound checks below reach every option, including ones added later.
    assert set(full_options(ruleset_id)) == set(all_rulesets()[ruleset_id].options_schema().fields)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_the_full_options_of_the_published_game_are_accepted(ruleset_id):
    ruleset = all_rulesets()[ruleset_id]
    assert ruleset.new_game(ruleset.min_players, full_options(ruleset_id), seed=1) is not None


def _bent(ruleset_id: str):
    """(path, a value far outside anything a real game needs) for every leaf of the full options."""
    options = full_options(ruleset_id)
    for path, value in leaves(options):
        if isinstance(value, bool) or value is None:
            continue
        if isinstance(value, int):
            yield path, HUGE
            yield path, -HUGE
        elif isinstance(value, str):
            yield path, "x" * LONG
        elif isinstance(value, list) and value:
            yield path, value * (LONG // len(value) + 1)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_every_number_list_and_string_in_the_options_is_bounded(ruleset_id):
    ruleset = all_rulesets()[ruleset_id]
    accepted = []
    for path, value in _bent(ruleset_id):
        try:
            ruleset.new_game(ruleset.min_players, replaced(full_options(ruleset_id), path, value), seed=1)
        except InvalidOptions:
            continue
        shown = value if not isinstance(value, str | list) else f"<{type(value).__name__} of {len(value)}>"
        accepted.append(("/".join(map(str, path)), shown))
    assert accepted == []


# -- fuzzed: any bent options are refused with InvalidOptions, or make a game that plays --------

STEPS_PLAYED = 300


def play_some(ruleset, state, seed: int) -> None:
    """Random legal moves, a few hundred of them: the options must not break the game later either."""
    rng = Rng(seed)
    for _ in range(STEPS_PLAYED):
        decisions = ruleset.pending(state)
        if not decisions:
            assert ruleset.result(state) is not None
            return
        decision = decisions[0]
        ruleset.apply(state, decision.seat, rng.choice(decision.options))


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_bent_options_are_refused_or_make_a_game_that_plays(ruleset_id):
    ruleset = all_rulesets()[ruleset_id]

    @settings(max_examples=80, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(options=bent_options(ruleset_id), seed=st.integers(min_value=0, max_value=2**63 - 1))
    def check(options, seed):
        try:
            state = ruleset.new_game(ruleset.min_players, options, seed)
        except InvalidOptions:
            return
        play_some(ruleset, state, seed)

    check()
