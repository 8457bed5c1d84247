"""Does the value model help the search? Paired games of one search variant alone among heuristics.

    .venv/bin/python bench/value_search.py whipcash --games 100 --variant mcts-3 --variant value:64:15

Game ``g`` (seed derived from ``--seed`` and ``g``) is played twice: once with the variant in seat
``g mod players`` among heuristic seats, once with the heuristic in that seat too (the same seeds,
so the same deal and, until the moves differ, the same dice). The paired difference of the seat's
share of the win, with its 95% interval, says whether the variant beats the heuristic it searches
with; the CPU time of the variant's moves gives its cost per move.

A variant is a bot name (``mcts-3``) or ``value:WORLDS:HORIZON`` (rollouts cut after HORIZON
actions and scored by the value model) or ``standings:WORLDS:HORIZON`` (the same, scored by the
standings as the search does without a model).
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine.bots.search import SEARCH_BOTS, SearchBot
from engine.core.registry import get_ruleset
from engine.core.rng import Rng, derive_seed
from engine.simulate import game_seed
from engine.values.model import result_shares

PLAYERS = 4


def variant_class(name: str) -> type[SearchBot] | None:
    """The search class a variant names (``None`` for a plain bot name), registered under ``name``."""
    if ":" not in name:
        return None
    scoring, worlds, horizon = name.split(":")
    found = type(f"Variant_{scoring}_{worlds}_{horizon}", (SearchBot,), {
        "world_count": int(worlds), "horizon": int(horizon), "use_values": scoring == "value"})
    SEARCH_BOTS[name] = found
    return found


def play(ruleset, bots: list[str], seed: int, timed_seat: int | None) -> tuple[list[float], list[float]]:
    """One game: each seat's share of the win, and the CPU ms of each move of ``timed_seat``."""
    state = ruleset.new_game(len(bots), None, seed)
    players = [ruleset.bot(name) for name in bots]
    rngs = [Rng(derive_seed(seed, 1, seat)) for seat in range(len(bots))]
    costs = []
    while decisions := ruleset.pending(state):
        decision = decisions[0]
        began = time.process_time()
        action = players[decision.seat].choose(state, decision, rngs[decision.seat])
        if decision.seat == timed_seat and (len(decision.options) > 1 or decision.ranges):
            costs.append((time.process_time() - began) * 1e3)
        ruleset.apply(state, decision.seat, action, check=False)
    return result_shares(ruleset.result(state), len(bots)), costs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("ruleset")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--players", type=int, default=PLAYERS)
    parser.add_argument("--variant", action="append", required=True)
    args = parser.parse_args()
    ruleset = get_ruleset(args.ruleset)
    crowd = ruleset.rollout_bot
    baseline = []
    for game in range(args.games):
        seat = game % args.players
        shares, _ = play(ruleset, [crowd] * args.players, game_seed(args.seed, game), None)
        baseline.append(shares[seat])
    print(f"{ruleset.id}: {args.games} paired games, {args.players} players, seed {args.seed}; "
          f"heuristic in the measured seat wins {statistics.mean(baseline):.3f}")
    print(f"{'variant':20} {'win':>6} {'heur.':>6} {'paired diff':>12} {'95% interval':>18} {'ms/move':>8} "
          f"{'moves':>6} {'cpu s':>7}")
    for name in args.variant:
        variant_class(name)
        began = time.process_time()
        shares, costs = [], []
        for game in range(args.games):
            seat = game % args.players
            bots = [crowd] * args.players
            bots[seat] = name
            result, moves = play(ruleset, bots, game_seed(args.seed, game), seat)
            shares.append(result[seat])
            costs += moves
        differences = [a - b for a, b in zip(shares, baseline, strict=True)]
        centre = statistics.mean(differences)
        half = 1.959964 * statistics.stdev(differences) / math.sqrt(len(differences))
        print(f"{name:20} {statistics.mean(shares):>6.3f} {statistics.mean(baseline):>6.3f} {centre:>+12.3f} "
              f"[{centre - half:+.3f}, {centre + half:+.3f}] {statistics.median(costs) if costs else 0:>8.1f} "
              f"{len(costs):>6} {time.process_time() - began:>7.0f}", flush=True)


if __name__ == "__main__":
    main()
