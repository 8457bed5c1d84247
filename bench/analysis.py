"""Game analysis: what a finished game's analysis costs (engine.analysis, format 2), per ruleset.

    .venv/bin/python bench/analysis.py [RULESET ...] [--games N] [--players P] [--save DIR] [--long-turns T]

Plays N games of heuristic bots per ruleset (P players, default 4, within each ruleset's range; seeds
0..N-1), writes each as a complete record and times ``analyse`` on it (CPU seconds of this process, so a
loaded machine slows it less than wall time): seconds a game, the slowest game, the moves priced and
called costly, the candidate play-outs of the slowest game and its work against its bound, and every
seat's mean split (skill, luck, others, drift, in points of win chance). Then one long Hitchiker game
(seats that never save, ``bench/longest_games.py``'s ``lengthening`` choice, 6 players, to turn 400;
``--long-turns 2000``, the default cap, is the longest game measured, docs/records.md; 0 skips it).
``--save DIR`` writes each ruleset's first game (seed 0) as ``DIR/<ruleset>.json``, for
``rulehouse analyse``. Whether the costs agree with play-outs: ``bench/analysis_playouts.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from statistics import mean

from engine.analysis.game import analyse, work_bound
from engine.core.registry import all_rulesets, get_ruleset
from engine.core.rng import Rng, derive_seed
from engine.records import action_entry, make_record


def record_of(ruleset_id: str, players: int, seed: int, choose=None, options: dict | None = None,
              lineup: list[str] | None = None) -> dict:
    """A complete record of one game: heuristic bots (or ``lineup``'s, seat by seat), or ``choose(decision)``
    for every seat."""
    ruleset = get_ruleset(ruleset_id)
    state = ruleset.new_game(players, options, seed)
    bots = [ruleset.bot(lineup[seat] if lineup else "heuristic") for seat in range(players)]
    rngs = [Rng(derive_seed(seed, 1, seat)) for seat in range(players)]
    log = []
    while pending := ruleset.pending(state):
        decision = pending[0]
        action = choose(decision) if choose else bots[decision.seat].choose(state, decision, rngs[decision.seat])
        events = [event.to_dict() for event in ruleset.apply(state, decision.seat, action)]
        log.append(action_entry(len(log) + 1, decision.seat, action, events))
    return json.loads(json.dumps(make_record(ruleset, players=players, options=options or {}, seed=seed, log=log,
                                             setup_events=None, result=ruleset.result(state).to_dict(),
                                             version=len(log))))


def timed(record: dict) -> tuple[float, dict]:
    began = time.process_time()
    analysis = analyse(record)
    return time.process_time() - began, analysis


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("rulesets", nargs="*", help="the rulesets to measure (default: all)")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--long-turns", type=int, default=400, help="the long Hitchiker game's turn cap (0: none)")
    parser.add_argument("--save", help="write each ruleset's first record (seed 0) into this directory")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; CPU seconds of this process")
    print(f"{'ruleset':16} {'games':>5} {'entries':>8} {'s/game':>7} {'slowest':>8} {'its entries':>11} "
          f"{'moves':>6} {'costly':>6} {'play-outs':>9} {'work/bound':>10}  mean split per seat (points): "
          f"skill luck others drift")
    for ruleset_id in args.rulesets or sorted(all_rulesets()):
        ruleset = get_ruleset(ruleset_id)
        players = max(ruleset.min_players, min(ruleset.max_players, args.players))
        records = [record_of(ruleset_id, players, seed) for seed in range(args.games)]
        if args.save:
            os.makedirs(args.save, exist_ok=True)
            with open(os.path.join(args.save, f"{ruleset_id}.json"), "w") as out:
                json.dump(records[0], out)
        runs = [(*timed(record), record) for record in records]
        seconds = sum(run[0] for run in runs)
        entries = sum(len(record["log"]) for record in records)
        slowest, analysis, record = max(runs, key=lambda run: run[0])
        moves = sum(len(run[1]["moves"]) for run in runs)
        costly = sum(move["costly"] for run in runs for move in run[1]["moves"])
        split = "; ".join(" ".join(f"{100 * mean(run[1]['split'][seat][part] for run in runs):+.1f}"
                                   for part in ("skill", "luck", "others", "drift")) for seat in range(players))
        print(f"{ruleset_id:16} {len(records):>5} {entries:>8} {seconds / len(runs):>7.1f} {slowest:>7.1f}s "
              f"{len(record['log']):>11} {moves:>6} {costly:>6} {analysis['playouts']:>9} "
              f"{analysis['work'] / work_bound(len(record['log']), ruleset):>10.3f}  {split}")
    if args.long_turns:
        longest = load_longest()
        record = record_of("hitchiker", 6, 11, longest.lengthening_choice, {"turn_cap": args.long_turns})
        seconds, analysis = timed(record)
        bound = work_bound(len(record["log"]), get_ruleset("hitchiker"))
        print(f"long hitchiker game: {len(record['log'])} entries in {seconds:.1f} s "
              f"({len(record['log']) / seconds:,.0f} entries/s), {analysis['playouts']} play-outs, "
              f"{analysis['chance_samples']} chance samples, at most {analysis['most_samples_per_entry']} play-outs "
              f"for one entry, work {analysis['work']:,} of a bound of {bound:,}")


def load_longest():
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_longest_games",
                                                  os.path.join(os.path.dirname(__file__), "longest_games.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


if __name__ == "__main__":
    main()
