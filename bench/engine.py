"""Engine speed: random-bot games per second for every registered ruleset.

    .venv/bin/python bench/engine.py [--games N] [--ruleset ID ...]

Each ruleset is timed twice in the same run so the machine's noise shows.
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine.core.registry import all_rulesets
from engine.simulate import play_chunk


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--ruleset", action="append")
    args = parser.parse_args()
    rulesets = all_rulesets()
    header = f"{'ruleset':16} {'players':>7} {'bots':10} {'games':>6}"
    print(f"{header} {'run 1 g/s':>10} {'run 2 g/s':>10} {'turns/game':>10}")
    for ruleset_id in args.ruleset or list(rulesets):
        ruleset = rulesets[ruleset_id]
        players = min(4, ruleset.max_players) if ruleset.min_players <= 4 else ruleset.min_players
        rates = []
        for run in range(2):
            tally = play_chunk(ruleset_id, players, ["random"], None, run, 0, args.games)
            rates.append(tally.games / tally.seconds)
        mean_turns = sum(k * v for k, v in tally.turns.items()) / tally.games
        print(
            f"{ruleset_id:16} {players:>7} {'random':10} {args.games:>6} {rates[0]:>10.1f} {rates[1]:>10.1f}"
            f" {mean_turns:>10.1f}"
        )


if __name__ == "__main__":
    main()
