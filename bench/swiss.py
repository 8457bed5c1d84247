"""Swiss pairing: repeats avoided, what the search proves, and its worst times.

    nice -n 10 .venv/bin/python bench/swiss.py [--tournaments 4] [--rounds 8] [--baseline fbedc5a]

Plays Swiss tournaments whose tables end in random places (seeded) for every field of 8 to 24
entrants at 2 to 6 seats, and plans each round with ``engine.competition.table_search``. Per field:

- ``zero``: rounds where a plan without any repeat exists (tests/engine/pairing_reference.py's plain
  search says so), and the repeats the new plans made in them (must be 0);
- ``baseline``: in those same rounds (same standings and history), the repeats the pairing of git
  revision ``--baseline`` made (greedy tables then swaps: the pairing before this search), and how
  many such rounds it repeated in;
- ``forced``: rounds where some repeat cannot be avoided, the repeats of the new plans and of the
  baseline's there;
- ``proven``: rounds whose fewest repeats the search proved (finished within its node bound), and
  rounds whose least spread it proved (and, at the end, the unproven ones by round number, and the
  rounds where the new plan repeated more than the baseline's);
- the worst round's milliseconds and nodes, and those of the rounds a Swiss tournament of that
  field plays by default (``ceil(log2(entrants))``).

Then the largest fields (250 to 256 entrants) and adversarial histories (random earlier rounds, no
Swiss structure) at 24 entrants: worst milliseconds and nodes. Times are the process's CPU time
(``time.process_time``), which the other processes of a shared machine change far less than the
wall clock; the load average is printed first.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import subprocess
import sys
import time
import types
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.competition import TableResult, TournamentPlan, standings  # noqa: E402
from engine.competition.table_search import form_tables  # noqa: E402
from tests.engine.pairing_reference import meetings, plan_cost, plan_without_repeats_exists  # noqa: E402

SEED = 38_777
FIELDS = [(n, k) for n in range(8, 25) for k in range(2, 7) if n % k == 0 and n > k]
LARGE = [(256, 2), (252, 3), (256, 4), (250, 5), (252, 6)]


def baseline_pairing(revision: str) -> types.ModuleType | None:
    """The pairing module of ``revision`` (None where git or the revision is missing)."""
    try:
        source = subprocess.run(["git", "show", f"{revision}:engine/competition/pairing.py"], cwd=ROOT,
                                capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    module = types.ModuleType("baseline_pairing")
    sys.modules[module.__name__] = module  # its dataclasses look their module up
    exec(compile(source, f"{revision}:engine/competition/pairing.py", "exec"), module.__dict__)
    return module


def positions(tables: Sequence[Sequence[str]], place: dict[str, int]) -> list[tuple[int, ...]]:
    return [tuple(place[entrant] for entrant in table) for table in tables]


def play(count: int, size: int, rounds: int, rng: random.Random, baseline, stats: dict) -> None:
    """One tournament: every round planned by the search, and compared."""
    names = tuple(f"e{i:02}" for i in range(count))
    results: list[TableResult] = []
    earlier: list[list[tuple[str, ...]]] = []
    for number in range(rounds):
        order = [standing.entrant for standing in standings(names, results)]
        place = {entrant: index for index, entrant in enumerate(order)}
        history = [positions(tables, place) for tables in earlier]
        began = time.process_time()
        found = form_tables(count, size, history, by_standing=True)
        ms = (time.process_time() - began) * 1000
        stats["ms"] = max(stats["ms"], ms)
        stats["nodes"] = max(stats["nodes"], found.nodes)
        if number < math.ceil(math.log2(count)):
            stats["default_ms"] = max(stats["default_ms"], ms)
            stats["default_nodes"] = max(stats["default_nodes"], found.nodes)
        stats["rounds"] += 1
        stats["fewest"] += found.fewest
        stats["closest"] += found.closest
        tables = [tuple(order[p] for p in table) for table in found.tables]
        if number:
            met = meetings(count, history)
            old = None
            if baseline is not None:
                plan = TournamentPlan("swiss", names, size, rounds, SEED)
                old = plan_cost(positions(baseline.plan_round(plan, number, results, earlier), place), met)[0]
            kind = "zero" if plan_without_repeats_exists(count, size, history) else "forced"
            stats[kind] += 1
            stats[f"{kind}_new"] += found.repeats
            if old is not None:
                stats[f"{kind}_old"] += old
                stats[f"{kind}_old_rounds"] += old > 0
                if found.repeats > old:
                    stats["worse"] += 1
                    stats["worse_rounds"].append(f"{count} at {size} round {number + 1}: {found.repeats} "
                                                 f"against {old}{'' if found.fewest else ' (not proven)'}")
        if not found.fewest:
            stats["unproven"][number + 1] = stats["unproven"].get(number + 1, 0) + 1
        earlier.append(tables)
        for index, table in enumerate(tables):
            results.append(TableResult(number, index, table, tuple(rng.sample(range(1, size + 1), size))))


def new_stats() -> dict:
    """A field's tallies (``play`` adds to them)."""
    stats = dict.fromkeys(["ms", "nodes", "rounds", "fewest", "closest", "zero", "zero_new", "zero_old",
                           "zero_old_rounds", "forced", "forced_new", "forced_old", "forced_old_rounds", "worse",
                           "default_ms", "default_nodes"], 0)
    stats["unproven"], stats["worse_rounds"] = {}, []
    return stats


def sweep(tournaments: int, rounds: int, baseline, fields: list[tuple[int, int]]) -> None:
    print(f"Swiss tournaments, {tournaments} per field, {rounds} rounds each, random places (seed {SEED})")
    print("field    rounds | zero: rounds new baseline(rounds) | forced: rounds new baseline | proven "
          "fewest closest | worst ms  nodes (default rounds: ms nodes)")
    total: dict = {}
    for count, size in fields:
        stats = new_stats()
        rng = random.Random(SEED * 1000 + count * 10 + size)
        for _ in range(tournaments):
            play(count, size, rounds, rng, baseline, stats)
        for key, value in stats.items():
            if key == "worse_rounds":
                total.setdefault(key, []).extend(value)
            elif key == "unproven":
                for number, rounds_of in value.items():
                    total.setdefault(key, {})[number] = total.get(key, {}).get(number, 0) + rounds_of
            else:
                maximum = key in ("ms", "nodes", "default_ms", "default_nodes")
                total[key] = max(total.get(key, 0), value) if maximum else total.get(key, 0) + value
        print(line(f"{count:>2} at {size}", stats, baseline is not None))
    print(line("all     ", total, baseline is not None))
    print(f"rounds with more repeats than the baseline's: {total['worse']} {total['worse_rounds']}")
    print(f"rounds whose fewest repeats the search did not prove, by round number: {total.get('unproven') or 'none'}")


def line(label: str, s: dict, with_baseline: bool) -> str:
    old = f"{s['zero_old']:>4}({s['zero_old_rounds']:>3})" if with_baseline else "   -     "
    forced_old = f"{s['forced_old']:>5}" if with_baseline else "    -"
    return (f"{label} {s['rounds']:>5} | {s['zero']:>11} {s['zero_new']:>3} {old:>18} | {s['forced']:>14} "
            f"{s['forced_new']:>4} {forced_old:>8} | {s['fewest']:>13} {s['closest']:>7} | "
            f"{s['ms']:>8.0f} {s['nodes']:>6} ({s['default_ms']:>5.0f} {s['default_nodes']:>6})")


def large(rounds: int) -> None:
    print(f"\nLarge fields, one tournament each, {rounds} rounds: worst ms, nodes; rounds proven fewest / closest")
    for count, size in LARGE:
        stats = dict.fromkeys(["ms", "nodes", "rounds", "fewest", "closest", "repeats"], 0)
        names = tuple(f"e{i:03}" for i in range(count))
        rng = random.Random(SEED + count + size)
        results: list[TableResult] = []
        earlier: list[list[tuple[str, ...]]] = []
        for number in range(rounds):
            order = [standing.entrant for standing in standings(names, results)]
            place = {entrant: index for index, entrant in enumerate(order)}
            began = time.process_time()
            found = form_tables(count, size, [positions(t, place) for t in earlier], by_standing=True)
            stats["ms"] = max(stats["ms"], (time.process_time() - began) * 1000)
            stats["nodes"] = max(stats["nodes"], found.nodes)
            stats["fewest"] += found.fewest
            stats["closest"] += found.closest
            stats["repeats"] += found.repeats
            tables = [tuple(order[p] for p in table) for table in found.tables]
            earlier.append(tables)
            for index, table in enumerate(tables):
                results.append(TableResult(number, index, table, tuple(rng.sample(range(1, size + 1), size))))
        print(f"  {count} at {size}: {stats['ms']:.0f} ms, {stats['nodes']} nodes; repeats {stats['repeats']}; "
              f"proven {stats['fewest']}/{rounds} fewest, {stats['closest']}/{rounds} closest")


def adversarial(cases: int) -> None:
    print(f"\nAdversarial: 24-25 entrants, {cases} random histories each of as many rounds as seats + 2..6")
    for count, size in [(24, 3), (24, 4), (25, 5), (24, 6)]:
        rng = random.Random(SEED + 7 * size)
        worst_ms = worst_nodes = proven = 0
        for _ in range(cases):
            earlier = []
            for _ in range(size + rng.randint(2, 6)):
                order = rng.sample(range(count), count)
                earlier.append([tuple(order[i:i + size]) for i in range(0, count, size)])
            began = time.process_time()
            found = form_tables(count, size, earlier, by_standing=True)
            worst_ms = max(worst_ms, (time.process_time() - began) * 1000)
            worst_nodes = max(worst_nodes, found.nodes)
            proven += found.fewest
        print(f"  {count} at {size}: worst {worst_ms:.0f} ms, {worst_nodes} nodes; proven fewest {proven}/{cases}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tournaments", type=int, default=4, help="per field (default 4)")
    parser.add_argument("--rounds", type=int, default=8, help="per tournament (default 8)")
    parser.add_argument("--baseline", default="fbedc5a", help="git revision of the pairing to compare with")
    parser.add_argument("--large-rounds", type=int, default=8)
    parser.add_argument("--adversarial", type=int, default=10, help="random histories per field")
    parser.add_argument("--fields", help="only these fields of the sweep, e.g. 20x5,24x6")
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} cores, load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    baseline = baseline_pairing(args.baseline)
    if baseline is None:
        print(f"(no baseline: git revision {args.baseline} is not in this checkout)")
    fields = [tuple(map(int, field.split("x"))) for field in args.fields.split(",")] if args.fields else FIELDS
    sweep(args.tournaments, args.rounds, baseline, fields)
    large(args.large_rounds)
    adversarial(args.adversarial)
    print(f"\nSwiss default rounds for 24 entrants: {math.ceil(math.log2(24))}")


if __name__ == "__main__":
    main()
