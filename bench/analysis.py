"""Game analysis: how fast a finished game is analysed (engine.analysis), per ruleset.

    .venv/bin/python bench/analysis.py [--games N] [--players P] [--save DIR] [--long-turns T]
    .venv/bin/python bench/analysis.py --noise

Plays N games of heuristic bots per ruleset (P players, default 4, within each ruleset's range;
seeds 0..N-1), writes each as a complete record and times ``analyse`` on it: log entries analysed per
second, the slowest whole game, the samples (candidate option x chance sample) it applied and its
work in engine actions against its bound. Then the same for one long Hitchiker game (seats that never
save, ``bench/longest_games.py``'s ``lengthening`` choice, to turn 400 with 6 players; ``--long-turns
2000``, the default cap, is the longest game measured, docs/records.md). The figures
depend on the machine's load: docs/analysis.md quotes them with it. ``--save DIR`` writes each
ruleset's first game (seed 0) as ``DIR/<ruleset>.json``, for ``rulehouse analyse`` (docs/analysis.md
walks through them). ``--noise`` measures the sampling noise instead: on each ruleset's first game,
every third decision's candidates are valued 12 times with other sample seeds, and it prints the
spread (standard deviation) of the chosen option's Q and of its difference with another candidate.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

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
    began = time.perf_counter()
    analysis = analyse(record)
    return time.perf_counter() - began, analysis


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--long-turns", type=int, default=400, help="the long Hitchiker game's turn cap")
    parser.add_argument("--save", help="write each ruleset's first record (seed 0) into this directory")
    parser.add_argument("--noise", action="store_true", help="measure the sampling noise of Q instead")
    args = parser.parse_args()
    if args.noise:
        noise(args.players)
        return
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'ruleset':16} {'games':>5} {'entries':>8} {'entries/s':>10} {'slowest game':>13} {'its entries':>11} "
          f"{'samples':>8} {'work/bound':>10}")
    for ruleset_id, ruleset in all_rulesets().items():
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
        print(f"{ruleset_id:16} {len(records):>5} {entries:>8} {entries / seconds:>10,.0f} {slowest:>12.2f}s "
              f"{len(record['log']):>11} {analysis['samples']:>8} "
              f"{analysis['work'] / work_bound(len(record['log'])):>10.3f}")
    longest = load_longest()
    record = record_of("hitchiker", 6, 11, longest.lengthening_choice, {"turn_cap": args.long_turns})
    seconds, analysis = timed(record)
    print(f"long hitchiker game: {len(record['log'])} entries in {seconds:.2f} s "
          f"({len(record['log']) / seconds:,.0f} entries/s), {analysis['samples']} samples, "
          f"at most {analysis['most_samples_per_entry']} for one entry, work {analysis['work']:,} "
          f"of a bound of {work_bound(len(record['log'])):,}")


def noise(players: int, repeats: int = 12) -> None:
    from statistics import median, pstdev

    from engine.analysis import game
    from engine.records import initial_state, load_record
    from engine.values.model import load_model

    print(f"{'ruleset':16} {'decisions':>9} {'SD of Q: median':>16} {'p90':>6} {'SD of a difference: median':>27} "
          f"{'p90':>6}  (points of win chance)")
    for ruleset_id, ruleset in all_rulesets().items():
        record = load_record(record_of(ruleset_id, max(ruleset.min_players, min(ruleset.max_players, players)), 0))
        model, state = load_model(ruleset), initial_state(ruleset, record)
        spreads, differences = [], []
        for index, entry in enumerate(record["log"]):
            seat, action = entry["seat"], ruleset.parse_action(entry["action"])
            candidates = game._candidates(ruleset.check(state, seat, action), action)
            if len(candidates) > 1 and index % 3 == 0:
                chosen, other = candidates.index(action), 0 if candidates.index(action) else 1
                runs = []
                for repeat in range(repeats):
                    seeds = [derive_seed(1000 + repeat, index, sample) for sample in range(game.SAMPLES)]
                    runs.append(game._option_values(ruleset, model, state, seat, candidates, seeds, game._Walk()))
                spreads.append(100 * pstdev(run[chosen][seat] for run in runs))
                differences.append(100 * pstdev(run[chosen][seat] - run[other][seat] for run in runs))
            ruleset.play(state, seat, action)
        if not spreads:
            print(f"{ruleset_id:16} {0:>9}")
            continue
        p90 = lambda values: sorted(values)[int(0.9 * len(values))]  # noqa: E731
        print(f"{ruleset_id:16} {len(spreads):>9} {median(spreads):>16.1f} {p90(spreads):>6.1f} "
              f"{median(differences):>27.1f} {p90(differences):>6.1f}")


def load_longest():
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_longest_games",
                                                  os.path.join(os.path.dirname(__file__), "longest_games.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


if __name__ == "__main__":
    main()
