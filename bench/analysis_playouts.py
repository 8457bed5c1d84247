"""Do the analysis's costs agree with full play-outs? A quick check of the estimator while it is tuned.

    .venv/bin/python bench/analysis_playouts.py [RULESET ...] [--games N] [--playouts K] [--moves M]

For each ruleset: N games (seeds 500..) of a heuristic seat 0 against random seats, analysed; up to M
of the moves called costly (and as many uncalled moves with a positive cost, for contrast) are played
out to the end of the game K times from the chosen and from the best candidate, on the whole state with
its chance dealt anew (``resample_chance``, as the outside check does: hidden cards known), every seat
then playing the heuristic, common random numbers.
Prints, per ruleset, the time per game, the costly moves' mean cost against their measured effect
(± its standard error), the correlation, the share of agreeing signs, and every seat's mean luck,
skill and drift. The independent, larger check is the outside check's; this one is for tuning.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from dataclasses import replace
from statistics import correlation, fmean, stdev

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.analysis import record_of
from engine.analysis.game import analyse
from engine.analysis.method import method_for
from engine.core.registry import all_rulesets, get_ruleset
from engine.core.rng import Rng, derive_seed
from engine.records import initial_state, load_record
from engine.values.model import result_shares


def state_at(ruleset, record: dict, index: int):
    state = initial_state(ruleset, load_record(record))
    for entry in record["log"][:index]:
        if entry["kind"] == "action":
            ruleset.play(state, entry["seat"], ruleset.parse_action(entry["action"]))
        else:
            ruleset.seat_changed(state, entry)
    return state


def measured(ruleset, state, seat: int, chosen: dict, best: dict, playouts: int, seed: int) -> tuple[float, float]:
    """Mean (best - chosen) of the mover's final share over full heuristic play-outs, and its standard error."""
    bot = ruleset.bot("heuristic")
    differences = []
    for playout in range(playouts):
        world_rng = Rng(derive_seed(seed, playout))
        world = ruleset.resample_chance(state, world_rng)  # the whole state, as the outside check plays it
        continuation = world_rng.next64()
        shares = []
        for action in (best, chosen):
            copy = ruleset.copy(world)
            ruleset.apply(copy, seat, action, check=False)
            rng = Rng(continuation)
            while pending := ruleset.pending(copy):
                decision = pending[0]
                ruleset.apply(copy, decision.seat, bot.choose(copy, decision, rng), check=False)
            shares.append(result_shares(ruleset.result(copy), copy.players)[seat])
        differences.append(shares[0] - shares[1])
    return fmean(differences), stdev(differences) / len(differences) ** 0.5


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("rulesets", nargs="*")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--playouts", type=int, default=48)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--method", action="append", default=[], metavar="NAME=VALUE",
                        help="override a method parameter (engine/analysis/method.py), e.g. horizon=60")
    args = parser.parse_args()
    overrides = {name: float(value) if "." in value else int(value)
                 for name, value in (item.split("=", 1) for item in args.method)}
    for ruleset_id in args.rulesets or sorted(all_rulesets()):
        ruleset = get_ruleset(ruleset_id)
        players = max(ruleset.min_players, min(ruleset.max_players, args.players))
        lineup = ["heuristic"] + ["random"] * (players - 1)
        records, analyses, seconds = [], [], 0.0
        for game in range(args.games):
            record = record_of(ruleset_id, players, 500 + game, lineup=lineup)
            began = time.perf_counter()
            method = replace(method_for(ruleset), **overrides)
            analyses.append(analyse(record, method=method))
            seconds += time.perf_counter() - began
            records.append(record)
        moves = [(record, move) for record, analysis in zip(records, analyses, strict=True)
                 for move in analysis["moves"]]
        called = [pair for pair in moves if pair[1]["costly"]]
        uncalled = [pair for pair in moves if not pair[1]["costly"] and pair[1]["cost"] > 0]
        step = max(1, len(called) // args.moves)
        rows = []
        began = time.perf_counter()
        for kind, pairs in (("costly", called[::step][:args.moves]),
                            ("uncalled", uncalled[::max(1, len(uncalled) // args.moves)][:args.moves])):
            for record, move in pairs:
                state = state_at(ruleset, record, move["index"])
                effect, error = measured(ruleset, state, move["seat"], move["action"], move["best_action"],
                                         args.playouts, derive_seed(77, move["index"]))
                rows.append((kind, move["cost"], effect, error))
        checking = time.perf_counter() - began
        print(f"{ruleset_id} {overrides or ''}: {args.games} games, {seconds / args.games:.1f} s a game, "
              f"{len(moves)} moves, {len(called)} called costly; play-outs {checking:.0f} s")
        for kind in ("costly", "uncalled"):
            mine = [row for row in rows if row[0] == kind]
            if len(mine) < 3:
                print(f"  {kind}: {len(mine)} moves")
                continue
            costs, effects = [row[1] for row in mine], [row[2] for row in mine]
            same = sum(effect > 0 for effect in effects)
            spread = stdev(effects) / len(effects) ** 0.5
            corr = correlation(costs, effects) if stdev(costs) > 0 and stdev(effects) > 0 else float("nan")
            print(f"  {kind}: {len(mine)} moves, mean cost {fmean(costs):.3f}, measured {fmean(effects):+.3f} "
                  f"± {spread:.3f}, correlation {corr:+.2f}, positive {same}/{len(mine)}")
        for seat in range(players):
            parts = {part: fmean(analysis["split"][seat][part] for analysis in analyses)
                     for part in ("luck", "skill", "others", "drift")}
            print(f"  seat {seat} ({lineup[seat]}): " + ", ".join(f"{k} {v:+.3f}" for k, v in parts.items()))


if __name__ == "__main__":
    main()
