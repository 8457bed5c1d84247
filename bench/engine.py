"""Engine speed, for every registered ruleset: what a search bot spends its time on.

    .venv/bin/python bench/engine.py [--quick] [--games N] [--ruleset ID ...] [--no-search] [--search-bot mcts-1 ...]

Four players (the nearest allowed count), random bots, one process, CPU time
(``time.process_time``). Every figure is measured twice in the same run so the machine's
noise shows:

- rollouts: whole random games played as ``engine.simulate.play_game`` plays them; an action
  is one ``ruleset.apply(state, seat, action, check=False)`` of that loop, pending included
  (actions/s leaves each game's setup out; games/s, a simulation's pace, counts it);
- ``copy``, ``resample_hidden``, ``view`` and ``value`` (the value model's chances for every seat
  from one world, ``engine.values``, features included): the median cost of one call over states sampled
  all along many games (each state timed over several calls), for the seat to act;
- one move of the default search bot (``mcts``, or each ``--search-bot``): the median over sampled
  states whose decision offers a choice (a search's iterations are its resample, copy-free tree walk and rollout).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine.core.registry import all_rulesets
from engine.core.rng import Rng, derive_seed
from engine.core.ruleset import Ruleset
from engine.values.model import load_model

PLAYERS = 4
#: sample a state every this many actions
SAMPLE_EVERY = 5
#: calls per sampled state when timing one operation
REPEATS = 20


def player_count(ruleset: Ruleset) -> int:
    return min(max(PLAYERS, ruleset.min_players), ruleset.max_players)


def rollouts(ruleset: Ruleset, players: int, games: int, seed: int) -> tuple[int, float, float]:
    """(actions, CPU seconds of the rollouts, CPU seconds with each game's setup) of ``games`` random
    games, played as ``play_game`` plays them."""
    bot = ruleset.bot("random")
    pending, apply = ruleset.pending, ruleset.apply
    actions = 0
    rolling = 0.0
    began_all = time.process_time()
    for game in range(games):
        game_seed = derive_seed(seed, game)
        state = ruleset.new_game(players, None, game_seed)
        rngs = [Rng(derive_seed(game_seed, 1, seat)) for seat in range(players)]
        began = time.process_time()
        while True:
            decisions = pending(state)
            if not decisions:
                break
            decision = decisions[0]
            apply(state, decision.seat, bot.choose(state, decision, rngs[decision.seat]), check=False)
            actions += 1
        rolling += time.process_time() - began
    return actions, rolling, time.process_time() - began_all


def sample_states(ruleset: Ruleset, players: int, games: int, seed: int) -> list[tuple[object, int]]:
    """(state, seat to act) every ``SAMPLE_EVERY`` actions of random games, each state its own copy."""
    bot = ruleset.bot("random")
    samples = []
    for game in range(games):
        state = ruleset.new_game(players, None, derive_seed(seed, game))
        rng = Rng(derive_seed(seed, game, 1))
        step = 0
        while decisions := ruleset.pending(state):
            decision = decisions[0]
            if step % SAMPLE_EVERY == 0:
                samples.append((ruleset.from_dict(ruleset.to_dict(state)), decision.seat))
            ruleset.apply(state, decision.seat, bot.act(None, decision, rng), check=False)
            step += 1
    return samples


def median_micros(samples: list[tuple[object, int]], call) -> float:
    """The median over the sampled states of one ``call(state, seat)``'s CPU time, in µs."""
    costs = []
    for state, seat in samples:
        began = time.process_time()
        for _ in range(REPEATS):
            call(state, seat)
        costs.append((time.process_time() - began) / REPEATS * 1e6)
    return statistics.median(costs)


def calls(ruleset: Ruleset) -> list:
    """The timed calls, each as ``call(state, seat)``: copy, resample_hidden, view, value."""
    rng = Rng(4)
    model = load_model(ruleset)
    return [lambda state, seat: ruleset.copy(state),
            lambda state, seat: ruleset.resample_hidden(state, seat, rng),
            ruleset.view,
            lambda state, seat: model.predict(state)]


def search_millis(ruleset: Ruleset, samples: list[tuple[object, int]], moves: int, seed: int,
                  bot_name: str = "mcts") -> float:
    """The median CPU time, in ms, of one move of ``bot_name`` at ``moves`` states spread over ``samples``."""
    bot = ruleset.bot(bot_name)
    choices = [(state, decision) for state, _ in samples
               for decision in ruleset.pending(state)[:1] if len(decision.options) > 1 or decision.ranges]
    step = max(1, len(choices) // moves)
    costs = []
    for index, (state, decision) in enumerate(choices[::step][:moves]):
        began = time.process_time()
        bot.choose(state, decision, Rng(derive_seed(seed, index)))
        costs.append((time.process_time() - began) * 1e3)
    return statistics.median(costs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="a small run (a few seconds) to try a change")
    parser.add_argument("--games", type=int, help="rollout games per run (default 200, quick 20)")
    parser.add_argument("--ruleset", action="append")
    parser.add_argument("--no-search", action="store_true", help="skip timing the search bot")
    parser.add_argument("--search-bot", action="append", help="time this search bot (default: mcts); repeatable")
    args = parser.parse_args()
    games = args.games or (20 if args.quick else 200)
    sample_games = 5 if args.quick else 30
    search_moves = 3 if args.quick else 15
    rulesets = all_rulesets()
    chosen = args.ruleset or list(rulesets)

    print(f"rollouts: random bots, {games} games per run, CPU time")
    print(f"{'ruleset':16} {'players':>7} {'actions/game':>12} {'run 1 act/s':>12} {'run 2 act/s':>12}"
          f" {'run 1 g/s':>10} {'run 2 g/s':>10}")
    for ruleset_id in chosen:
        ruleset = rulesets[ruleset_id]
        players = player_count(ruleset)
        runs = [rollouts(ruleset, players, games, seed) for seed in (1, 2)]
        per_game = sum(run[0] for run in runs) / (2 * games)
        rates = [actions / seconds for actions, seconds, _ in runs]
        game_rates = [games / seconds for _, _, seconds in runs]
        print(f"{ruleset_id:16} {players:>7} {per_game:>12.1f} {rates[0]:>12,.0f} {rates[1]:>12,.0f}"
              f" {game_rates[0]:>10.1f} {game_rates[1]:>10.1f}")

    print()
    print(f"one call, µs: median over states sampled every {SAMPLE_EVERY} actions of {sample_games} random games")
    print(f"{'ruleset':16} {'states':>6} {'copy 1':>8} {'copy 2':>8} {'resample 1':>10} {'resample 2':>10}"
          f" {'view 1':>8} {'view 2':>8} {'value 1':>8} {'value 2':>8}")
    for ruleset_id in chosen:
        ruleset = rulesets[ruleset_id]
        samples = sample_states(ruleset, player_count(ruleset), sample_games, 3)
        figures = []
        for call in calls(ruleset):
            figures += [median_micros(samples, call) for _ in range(2)]
        print(f"{ruleset_id:16} {len(samples):>6} {figures[0]:>8.1f} {figures[1]:>8.1f} {figures[2]:>10.1f}"
              f" {figures[3]:>10.1f} {figures[4]:>8.1f} {figures[5]:>8.1f} {figures[6]:>8.1f} {figures[7]:>8.1f}")

    if args.no_search:
        return
    search_bots = args.search_bot or ["mcts"]
    print()
    print(f"one move of a search bot, ms: median over {search_moves} states with a choice")
    print(f"{'ruleset':16} {'bot':8} {'run 1 ms':>9} {'run 2 ms':>9}")
    for ruleset_id in chosen:
        ruleset = rulesets[ruleset_id]
        samples = sample_states(ruleset, player_count(ruleset), sample_games, 5)
        for bot_name in search_bots:
            runs = [search_millis(ruleset, samples, search_moves, seed, bot_name) for seed in (1, 2)]
            print(f"{ruleset_id:16} {bot_name:8} {runs[0]:>9.1f} {runs[1]:>9.1f}")


if __name__ == "__main__":
    main()
