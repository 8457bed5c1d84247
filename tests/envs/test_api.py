"""PettingZoo's and Gymnasium's own conformance checks, for every ruleset, and the environments' contract
beyond them: seeded resets replay, the observation names every feature, rewards and illegal slots."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

import envs
from engine.core.errors import IllegalAction
from engine.core.registry import all_rulesets
from envs.aec import RulehouseAECEnv
from envs.single import RulehouseEnv

RULESETS = list(all_rulesets())


@pytest.mark.parametrize("ruleset", RULESETS)
def test_pettingzoo_api_test(ruleset):
    with warnings.catch_warnings():
        # api_test advises a Box or Discrete observation; ours is the classic games' Dict with an action_mask
        warnings.simplefilter("ignore", UserWarning)
        api_test(RulehouseAECEnv(ruleset), num_cycles=60)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_gymnasium_check_env(ruleset):
    env = gymnasium.make(envs.gym_id(ruleset), render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)  # the checker's advice counts as a failure here
        check_env(env.unwrapped)


def test_every_ruleset_is_registered():
    assert set(envs.register_all()) == {f"rulehouse/{ruleset}-v0" for ruleset in RULESETS}
    assert isinstance(gymnasium.make("rulehouse/whipcash-v0").unwrapped, RulehouseEnv)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_seed_replays_and_names_its_features(ruleset):
    def episode(seed):
        env = RulehouseEnv(ruleset, opponents="random")
        observation, info = env.reset(seed=seed)
        assert observation.shape == (len(env.table.feature_names),)
        observations, total, done = [observation], 0.0, False
        rng = np.random.default_rng(seed)
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            observation, reward, done, _, info = env.step(int(rng.choice(legal)))
            observations.append(observation)
            total += reward
        return np.stack(observations), total, info["result"]

    first, second = episode(7), episode(7)
    assert np.array_equal(first[0], second[0]) and first[1:] == second[1:]
    assert first[1] == (1.0 / len(first[2]["winners"]) if 0 in first[2]["winners"] else 0.0)


def test_an_illegal_slot_ends_the_episode_or_raises():
    env = RulehouseEnv("whipcash")
    _, info = env.reset(seed=3)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = env.table.ruleset.to_dict(env.table.state)
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info["illegal"]["reason"] == "option_not_allowed"
    assert env.table.ruleset.to_dict(env.table.state) == before  # the game is left as it was
    strict = RulehouseEnv("whipcash", illegal="raise")
    strict.reset(seed=3)
    with pytest.raises(IllegalAction):
        strict.step(illegal)


def test_cash_n_guns_simultaneous_choices_come_in_the_engines_order():
    env = RulehouseAECEnv("cash-n-guns", players=5)
    env.reset(seed=11)
    order = []
    for _ in range(5):  # the face-down bullet choices of the first round, every seat pending at once
        assert env.table.pending()[0].seat == int(env.agent_selection.split("_")[1])
        order.append(env.agent_selection)
        observation, _, _, _, _ = env.last()
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert order == [f"seat_{seat}" for seat in range(5)]
    # an agent not to act gets an empty mask, so no seat acts out of the engine's order
    others = [agent for agent in env.agents if agent != env.agent_selection]
    assert not env.observe(others[0])["action_mask"].any()


def _final_rewards(reward) -> tuple[dict, list[int]]:
    """Each agent's reward as ``last()`` gives it when its game is over, and the winners."""
    env = RulehouseAECEnv("monopoly-cars2", reward=reward)
    env.reset(seed=5)
    final = {}
    for agent in env.agent_iter():
        observation, value, terminated, truncated, info = env.last()
        if terminated or truncated:
            final[agent] = value
            winners = info["result"]["winners"]
            env.step(None)
        else:
            env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    return final, winners


def test_rewards_come_at_the_end_and_are_configurable():
    shared, winners = _final_rewards("shared")
    assert sum(shared.values()) == pytest.approx(1.0)
    assert all(shared[f"seat_{seat}"] == 1.0 / len(winners) for seat in winners)
    zero_sum, _ = _final_rewards("zero_sum")
    assert sum(zero_sum.values()) == pytest.approx(0.0) and min(zero_sum.values()) < 0
    tens, _ = _final_rewards(lambda result, seat: 10.0 * (seat in result.winners))
    assert {agent for agent, value in tens.items() if value == 10.0} == {f"seat_{seat}" for seat in winners}
