"""The heuristic bot playing seat 0 through the Gymnasium environment against heuristic bots wins as it
does in ``rulehouse simulate`` (engine.simulate) over the same game seeds: passing its raw action, game for
game the same winners; passing the nearest slot (a bucket where it chose an amount), a win rate within the
95% interval of the simulation's. A few games in `make test`, 2,000 per ruleset in `make test-slow`."""

from __future__ import annotations

import pytest

from engine.core.registry import all_rulesets
from engine.simulate import game_seed, play_chunk, play_game, wilson_interval
from envs.single import RulehouseEnv

RULESETS = list(all_rulesets())
SEED = 2026
PLAYERS = 4


def play_through_env(env: RulehouseEnv, seed: int, raw: bool) -> list[int]:
    """One game with the heuristic in the agent's seat; the winners."""
    table = env.table
    bot = table.ruleset.bot("heuristic")
    _, info = env.reset(seed=seed)
    rng = table.bot_rng(env.seat)  # the generator a simulation gives the seat
    done = False
    while not done:
        decision = table.pending()[0]
        assert decision.seat == env.seat and info["action_mask"].any()
        action = bot.choose(table.state, decision, rng)
        step = action if raw else table.catalogue.nearest(action, [decision])
        _, _, done, _, info = env.step(step)
        assert "illegal" not in info, info.get("illegal")
    return info["result"]["winners"]


def outright_wins(winners_per_game: list[list[int]], seat: int) -> int:
    return sum(winners == [seat] for winners in winners_per_game)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_raw_actions_replay_the_simulation(ruleset):
    env = RulehouseEnv(ruleset, PLAYERS)
    for index in range(6):
        seed = game_seed(SEED, index)
        simulated = play_game(env.table.ruleset, PLAYERS, ["heuristic"] * PLAYERS, None, seed)
        assert play_through_env(env, seed, raw=True) == simulated.result.winners


def check_win_rate(ruleset: str, games: int) -> None:
    env = RulehouseEnv(ruleset, PLAYERS)
    through_env = [play_through_env(env, game_seed(SEED, index), raw=False) for index in range(games)]
    simulated = play_chunk(ruleset, PLAYERS, ["heuristic"], None, SEED, 0, games)
    low, high = wilson_interval(simulated.wins[0], games)
    rate = outright_wins(through_env, 0) / games
    assert low <= rate <= high, f"{ruleset}: {rate:.3f} through the env, simulate {simulated.wins[0] / games:.3f}"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_nearest_slots_win_as_the_simulation(ruleset):
    check_win_rate(ruleset, 12)


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", RULESETS)
def test_nearest_slots_win_as_the_simulation_over_2000_games(ruleset):
    check_win_rate(ruleset, 2000)
