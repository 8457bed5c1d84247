"""The drama measures of the four games at their default player counts, what they cost, and a worked study.

    .venv/bin/python bench/drama.py [--games 2000] [--bots heuristic] [--study-games 2000] [--json OUT]

In this process (no Redis, no workers), with ``engine.experiments.measures.play_experiment_chunk``, the
code an experiment's chunk runs:

1. Cost: CPU seconds per game of a plain experiment game and of one with ``drama`` (the win chances at
   every version, the low-chance decisions' options, the replays and the skill ladder's games), and
   the model calls per game: what docs/experiments.md quotes and the quota's drama weight is set from.
2. Figures per game (Cash 'n Guns 4 players, Hitchiker 3, Monopoly: Cars 2 3, Whipca$h 3): decided at,
   decided before halfway, comebacks, the winner's lowest chance, lead changes on the chances,
   kingmaking (games, spread, how often the replayed alternative changes the winner) and the skill index.
3. A worked study: Monopoly: Cars 2 at 3 players, the base against ``starting_money`` 24, paired.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from engine.experiments.design import Variant  # noqa: E402
from engine.experiments.measures import play_experiment_chunk  # noqa: E402
from engine.experiments.report import differences, variant_measures  # noqa: E402

GAMES = [("cash-n-guns", 4), ("hitchiker", 3), ("monopoly-cars2", 3), ("whipcash", 3)]
STUDY = ("monopoly-cars2", 3, {"starting_money": 24})


def measure(ruleset_id: str, players: int, bots: list[str], games: int, seed: int) -> dict:
    variant = [Variant("base", {}, bots, {})]
    began = time.process_time()
    plain = play_experiment_chunk(ruleset_id, players, variant, [0], seed, 0, games)[0]
    plain_cpu = time.process_time() - began
    began = time.process_time()
    drama = play_experiment_chunk(ruleset_id, players, variant, [0], seed, 0, games, drama=True)[0]
    drama_cpu = time.process_time() - began
    report = variant_measures(ruleset_id, seed, variant[0], drama)["drama"]
    return {"ruleset": ruleset_id, "players": players, "bots": bots, "games": games,
            "plain_ms_per_game": round(plain_cpu / games * 1000, 3),
            "drama_ms_per_game": round(drama_cpu / games * 1000, 3),
            "cost_ratio": round(drama_cpu / plain_cpu, 2), "plain_turns": plain.tally.turns and round(
                sum(k * v for k, v in plain.tally.turns.items()) / games, 1), "drama": report}


def study(games: int, bots: str, seed: int) -> dict:
    ruleset_id, players, options = STUDY
    variants = [Variant("base", {}, [bots] * players, {}),
                Variant("starting_money=24", options, [bots] * players, {})]
    tallies = play_experiment_chunk(ruleset_id, players, variants, [0, 1], seed, 0, games, drama=True)
    return {"ruleset": ruleset_id, "players": players, "options": options, "games": games,
            "base": variant_measures(ruleset_id, seed, variants[0], tallies[0])["drama"],
            "variant": variant_measures(ruleset_id, seed, variants[1], tallies[1])["drama"],
            "difference": differences(tallies[1])["drama"]}


def line(row: dict) -> str:
    d = row["drama"]
    k = d["kingmaking"]
    return (f"{row['ruleset']:15} {row['players']}p  cost x{row['cost_ratio']:<5} "
            f"({row['plain_ms_per_game']:.2f} -> {row['drama_ms_per_game']:.2f} ms, "
            f"{d['model_calls_per_game']:.0f} calls/game)  decided {d['decided_at']['mean']:.2f} "
            f"before-half {d['decided_before_half']['rate']:.3f}  comebacks {d['comebacks']['rate']:.3f}  "
            f"lowest {d['lowest_winner_chance']['mean']:.3f}  chance-lead-chg {d['chance_lead_changes']['mean']:.2f}  "
            f"kingmaker games {k['games']['rate']:.3f} {k['games']['ci95']}  spread {k['spread']['mean']:.3f}  "
            f"changes winner {k['changes_winner']['rate']:.3f} ({k['changes_winner']['games']})  "
            f"skill {d['skill_index']['value']:+.2f} {d['skill_index']['ci95']}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--study-games", type=int, default=2000)
    parser.add_argument("--bots", default="heuristic")
    parser.add_argument("--seed", type=int, default=41)
    parser.add_argument("--only", help="one ruleset id")
    parser.add_argument("--skip-study", action="store_true")
    parser.add_argument("--json", help="also write every figure here")
    args = parser.parse_args()
    rows = []
    for ruleset_id, players in GAMES:
        if args.only and ruleset_id != args.only:
            continue
        rows.append(measure(ruleset_id, players, [args.bots] * players, args.games, args.seed))
        print(line(rows[-1]), flush=True)
    out = {"games": rows}
    if not args.skip_study:
        out["study"] = result = study(args.study_games, args.bots, args.seed)
        for name in ("base", "variant"):
            d = result[name]
            print(f"study {name}: kingmaker games {d['kingmaking']['games']['rate']:.3f} "
                  f"{d['kingmaking']['games']['ci95']}, comebacks {d['comebacks']['rate']:.3f}, decided "
                  f"{d['decided_at']['mean']:.2f}, before half {d['decided_before_half']['rate']:.3f}")
        print("study difference:", json.dumps(result["difference"]))
    if args.json:
        with open(args.json, "w") as handle:
            json.dump(out, handle, indent=1)


if __name__ == "__main__":
    main()
