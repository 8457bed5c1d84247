"""Environment speed beside the engine's: steps per second of the PettingZoo and Gymnasium environments
(envs/) against the engine's own actions per second, for every ruleset.

    .venv/bin/python bench/envs.py [--games N] [--ruleset ID ...] [--json]

Four players, random play, one process, CPU time (``time.process_time``), each figure twice so the
machine's noise shows. Same game seeds in all three:

- engine: actions/s of ``engine.simulate.play_game``'s loop with random bots (pending, the bot's
  choice, play);
- PettingZoo (``envs.aec``): ``last()`` then ``step(slot)`` of a random legal slot for whichever seat
  acts; a step is one engine action, its observation, mask and the view under ``infos`` included;
- Gymnasium (``envs.single``): seat 0 steps a random legal slot, the other three seats are the
  ``random`` bot; steps/s counts the agent's steps, and the engine actions/s they carried (the bots'
  included) is given beside.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np

from engine.core.registry import all_rulesets, get_ruleset
from engine.simulate import game_seed, play_game
from envs.aec import RulehouseAECEnv
from envs.single import RulehouseEnv

PLAYERS = 4
SEED = 7


def engine_rate(ruleset_id: str, games: int) -> float:
    ruleset = get_ruleset(ruleset_id)
    actions = 0
    began = time.process_time()
    for index in range(games):
        counter = [0]

        def count(_state, counter=counter) -> None:
            counter[0] += 1

        play_game(ruleset, PLAYERS, ["random"] * PLAYERS, None, game_seed(SEED, index), observe=count)
        actions += counter[0]
    return actions / (time.process_time() - began)


def pettingzoo_rate(ruleset_id: str, games: int) -> float:
    env = RulehouseAECEnv(ruleset_id, PLAYERS)
    rng = np.random.default_rng(SEED)
    steps = 0
    began = time.process_time()
    for index in range(games):
        env.reset(seed=game_seed(SEED, index))
        for _agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
    return steps / (time.process_time() - began)


def gymnasium_rate(ruleset_id: str, games: int) -> tuple[float, float]:
    env = RulehouseEnv(ruleset_id, PLAYERS, opponents="random")
    rng = np.random.default_rng(SEED)
    steps = actions = 0
    began = time.process_time()
    for index in range(games):
        _, info = env.reset(seed=game_seed(SEED, index))
        done = False
        while not done:
            _, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            steps += 1
        actions += env.table.actions
    seconds = time.process_time() - began
    return steps / seconds, actions / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per ruleset and measurement (default 40)")
    parser.add_argument("--ruleset", action="append", help="only these rulesets (repeatable)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    figures = {}
    for ruleset_id in args.ruleset or list(all_rulesets()):
        runs = [(engine_rate(ruleset_id, args.games), pettingzoo_rate(ruleset_id, args.games),
                 *gymnasium_rate(ruleset_id, args.games)) for _ in range(2)]
        figures[ruleset_id] = {
            "engine_actions_per_s": [round(r[0]) for r in runs],
            "pettingzoo_steps_per_s": [round(r[1]) for r in runs],
            "gymnasium_steps_per_s": [round(r[2]) for r in runs],
            "gymnasium_engine_actions_per_s": [round(r[3]) for r in runs],
        }
        if not args.json:
            f = figures[ruleset_id]
            print(f"{ruleset_id:15} engine {f['engine_actions_per_s']} actions/s | PettingZoo "
                  f"{f['pettingzoo_steps_per_s']} steps/s | Gymnasium {f['gymnasium_steps_per_s']} steps/s "
                  f"({f['gymnasium_engine_actions_per_s']} engine actions/s)", flush=True)
    if args.json:
        print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
