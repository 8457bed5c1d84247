"""Masks never allow an action the engine refuses, and every option the engine offers has a slot:
seeded random play through the environments' own tables (a few games in `make test`, 1,000 per ruleset
in `make test-slow`)."""

from __future__ import annotations

import numpy as np
import pytest

from engine.core.registry import all_rulesets
from engine.simulate import game_seed
from envs.table import Table

RULESETS = list(all_rulesets())
SEED = 42


def play_checked(table: Table, seed: int) -> int:
    """Play one game by random legal slots, checking every step that each slot the mask allows is an action
    the engine takes and that each option the engine offers lies in the mask; the number of steps."""
    ruleset, catalogue = table.ruleset, table.catalogue
    rng = np.random.default_rng(seed)
    table.reset(seed)
    steps = 0
    while (seat := table.next_seat()) is not None:
        decisions = table.decisions_of(seat)
        mask = table.mask(seat)
        legal = np.flatnonzero(mask)
        assert legal.size, f"seat {seat} has a decision and no legal slot"
        for index in legal:
            _, action = catalogue.action(int(index), decisions)
            # the engine's own validation, as for an action from outside: raises IllegalAction if refused
            ruleset.check(table.state, seat, ruleset.parse_action(action), table.pending())
        for decision in decisions:
            for option in decision.options:
                assert mask[catalogue.nearest(option, decisions)], option
        table.play(seat, int(rng.choice(legal)))
        steps += 1
    assert table.result() is not None
    return steps


@pytest.mark.parametrize("ruleset", RULESETS)
def test_masks_allow_only_what_the_engine_takes(ruleset):
    table = Table(ruleset)
    assert sum(play_checked(table, game_seed(SEED, index)) for index in range(3)) > 0


@pytest.mark.parametrize("players", [2, 6])
def test_masks_at_other_table_sizes(players):
    # Hitchiker capped at 150 turns: a random six-player game runs to thousands of actions
    play_checked(Table("hitchiker", players, {"turn_cap": 150}), game_seed(SEED, players))
    play_checked(Table("whipcash", players), game_seed(SEED, players))
    play_checked(Table("cash-n-guns", players + 2), game_seed(SEED, players))


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", RULESETS)
def test_masks_over_a_thousand_games(ruleset):
    table = Table(ruleset)
    for index in range(1000):
        play_checked(table, game_seed(SEED, index))
