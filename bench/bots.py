"""Does a ruleset's heuristic bot beat random seats? Prints win rates with 95% CIs.

    .venv/bin/python bench/bots.py cash-n-guns --players 5 --games 2000

Seat 0 plays ``--bot`` (default ``heuristic``), the others play ``random``. The verdict
line says whether seat 0's interval lies wholly above every random seat's.
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine.simulate import simulate


def heuristic_beats_random(stats: dict) -> bool:
    """True when seat 0's 95% interval lies above every other seat's."""
    low = stats["win_rate_ci95"][0][0]
    return all(low > high for _, high in stats["win_rate_ci95"][1:])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("ruleset")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--bot", default="heuristic")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    stats = simulate(args.ruleset, args.games, args.players, [args.bot, "random"], None, args.seed)
    for seat, bot in enumerate(stats["bots"]):
        low, high = stats["win_rate_ci95"][seat]
        print(f"seat {seat} {bot:10} wins {stats['wins'][seat]:>5}  rate {stats['win_rates'][seat]:.3f}"
              f"  95% CI [{low:.3f}, {high:.3f}]")
    turns = stats["turns"]
    print(f"draws {stats['draws']}, turn-cap hits {stats['turn_cap_hits']}, "
          f"turns median {turns['median']} p90 {turns['p90']} max {turns['max']}, {stats['games_per_s']} games/s")
    verdict = "above" if heuristic_beats_random(stats) else "NOT above"
    print(f"verdict: {args.bot} seat 0 is {verdict} every random seat (non-overlapping 95% CIs)")


if __name__ == "__main__":
    main()
