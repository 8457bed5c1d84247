"""What an experiment's orchestration costs, what its precision rounds waste, and what pairing saves.

    .venv/bin/python bench/experiments.py [--games 2000] [--workers 2] [--skip-precision | --only-precision]

Uses ``REDIS_URL`` if set, else starts an embedded Redis server; starts its own workers.

1. The hot path: one game with and without what an experiment follows turn by turn
   (``Ruleset.standings`` and ``Ruleset.eliminated_seats`` at the end of every turn), in this process.
2. A fixed-size study (Hitchiker, 2 heuristic seats, a grid of turn_cap x savings_to_pouch: the
   base and 8 variants) on the workers, against the same games as 9 plain simulations queued at
   once on the same workers. Target: the experiment >= 90% of the simulations' games per second.
   CPU seconds of the workers per game are printed too: on a shared machine the wall clock swings.
3. Pairing: per variant, the correlation of its games with the base's, and the share of the games
   an unpaired comparison would need for the same interval: (paired / unpaired half-width)^2.
4. A precision study (Monopoly: Cars 2, a sweep of starting money, stop by difference within
   ±0.03, for every seat and every turn-order position) on the workers: how many games each variant
   played past the first chunk boundary at which its stopping rule held. Target: at most 10% of the games.

What an experiment's ``drama`` costs per game and per ruleset (and the four games' drama): bench/drama.py.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time

import psutil

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "bench"))

from redis import Redis  # noqa: E402
from simulate import cpu_seconds, start_workers, stop_workers  # noqa: E402

from api.experiments import lifecycle as experiments  # noqa: E402
from api.experiments.spec import normalize_spec  # noqa: E402
from api.runs.keys import run_key, tallies_key  # noqa: E402
from api.service.embedded_redis import EmbeddedRedis  # noqa: E402
from api.simulations import lifecycle as simulations  # noqa: E402
from engine.core.registry import get_ruleset  # noqa: E402
from engine.experiments.measures import StandingsTracker, VariantTally  # noqa: E402
from engine.experiments.report import precision_state, stop_reason  # noqa: E402
from engine.simulate import game_seed, play_game  # noqa: E402

FIXED = {"ruleset": "hitchiker", "players": 2, "bots": ["heuristic"], "seed": 21,
         "sweep": {"turn_cap": [30, 45, 60, 90], "savings_to_pouch": [False, True]}}
PRECISION = {"ruleset": "monopoly-cars2", "players": 2, "bots": ["heuristic"], "seed": 8,
             "sweep": {"starting_money": [6, 10, 13, 24]},
             "stop": {"difference_within": 0.03, "max_games": 20_000, "min_games": 1000}}


def hot_path(ruleset_id: str, players: int, games: int) -> None:
    ruleset = get_ruleset(ruleset_id)
    bots = ["heuristic"] * players
    timings = {}
    for label, tracked in (("plain", False), ("standings", True)):
        began = time.process_time()
        for index in range(games):
            play_game(ruleset, players, bots, {}, game_seed(1, index), None,
                      StandingsTracker(ruleset) if tracked else None)
        timings[label] = (time.process_time() - began) / games
    extra = timings["standings"] / timings["plain"] - 1
    print(f"hot path, {ruleset_id} {players}p heuristic, {games} games: {timings['plain'] * 1e3:.3f} ms a game plain, "
          f"{timings['standings'] * 1e3:.3f} ms following the standings each turn ({extra * 100:+.1f}%)")


def run_and_time(client: Redis, processes, submit, done) -> tuple[float, float]:
    watched = [psutil.Process(p.pid) for p in processes]
    cpu_before = cpu_seconds(watched)
    began = time.perf_counter()
    ids = submit()
    while not done(ids):
        time.sleep(0.05)
    return time.perf_counter() - began, cpu_seconds(watched) - cpu_before


def fixed_study(client: Redis, processes, games: int) -> dict:
    body = {**FIXED, "games": games}
    spec_variants = normalize_spec(body)["variants"]

    def submit_experiment():
        return experiments.submit(client, body)

    def experiment_done(exp_id):
        return client.hget(run_key(experiments.KIND, exp_id), "status") in (b"finished", b"failed")

    total = games * len(spec_variants)

    def submit_simulations():
        return [simulations.submit(client, {"ruleset": FIXED["ruleset"], "players": FIXED["players"],
                                            "bots": FIXED["bots"], "options": v["options"], "games": games,
                                            "seed": FIXED["seed"]}) for v in spec_variants]

    def simulations_done(ids):
        return all(client.hget(run_key(simulations.KIND, i), "status") in (b"finished", b"failed") for i in ids)

    # Plain, experiment, plain: on a shared machine the load drifts, so the experiment is set against
    # the mean of the runs on either side of it.
    submitted: list[str] = []
    before_wall, before_cpu = run_and_time(client, processes, submit_simulations, simulations_done)
    wall, cpu = run_and_time(client, processes, lambda: submitted.append(submit_experiment()) or submitted[0],
                             experiment_done)
    after_wall, after_cpu = run_and_time(client, processes, submit_simulations, simulations_done)
    plain_wall, plain_cpu = (before_wall + after_wall) / 2, (before_cpu + after_cpu) / 2
    print(f"fixed study: {FIXED['ruleset']}, base + {len(spec_variants) - 1} variants x {games} games = {total} games "
          f"on {len(processes)} workers")
    print(f"  experiment:          {total / wall:8.1f} games/s ({wall:.1f} s wall, "
          f"{cpu / total * 1e3:.2f} ms CPU a game)")
    print(f"  9 plain simulations: {total / plain_wall:8.1f} games/s (mean of {before_wall:.1f} s before and "
          f"{after_wall:.1f} s after, {plain_cpu / total * 1e3:.2f} ms CPU a game)")
    print(f"  experiment / simulations: {plain_wall / wall * 100:.0f}% of the games per second, "
          f"{plain_cpu / cpu * 100:.0f}% by CPU per game (target >= 90%)")
    state = experiments.status(client, submitted[0])
    print(f"  the experiment's chunks by worker process: {state['progress']['workers']}")
    return state


def pairing(state: dict) -> None:
    print("pairing (variant vs base on the same seeds): correlation, games needed paired / unpaired")
    for variant in state["result"]["variants"][1:]:
        cells = []
        for label, diff in (("seat 0 wins", variant["difference"]["win_rates"][0]),
                            ("turns", variant["difference"]["turns_mean"])):
            paired = (diff["ci95"][1] - diff["ci95"][0]) / 2
            unpaired = diff["unpaired_half_width"]
            share = (paired / unpaired) ** 2 if unpaired else float("nan")
            corr = diff["correlation"]
            cells.append(f"{label}: r={corr if corr is not None else float('nan'):.2f}, {share * 100:.0f}%")
        print(f"  {variant['name']:40} " + "; ".join(cells))


def precision_study(client: Redis) -> None:
    exp_id = experiments.submit(client, PRECISION)
    while client.hget(run_key(experiments.KIND, exp_id), "status") not in (b"finished", b"failed"):
        time.sleep(0.1)
    state = experiments.status(client, exp_id)
    spec = json.loads(client.hget(run_key(experiments.KIND, exp_id), "spec"))
    chunks = {int(i): json.loads(raw) for i, raw in client.hgetall(tallies_key(experiments.KIND, exp_id)).items()}
    count = len(spec["variants"])
    played_total = needed_total = 0
    print(f"precision study: {PRECISION['ruleset']} starting_money {PRECISION['sweep']['starting_money']}, "
          f"stop {PRECISION['stop']}")
    for v, report in enumerate(state["result"]["variants"]):
        running = VariantTally.empty(spec["players"], spec["variants"][v]["bots"])
        needed = None
        for index in sorted(chunks):
            if str(v) not in chunks[index]:
                continue
            running.merge(VariantTally.from_dict(chunks[index][str(v)]))
            if v and stop_reason(precision_state(running, spec["stop"], count - 1), spec["stop"], False):
                needed = running.tally.games
                break
        needed = needed or report["games"]
        if v == 0:  # the base plays as long as the last variant: its pairs
            needed = max(r["games"] for r in state["result"]["variants"][1:])
        played_total += report["games"]
        needed_total += needed
        precision = report.get("precision", {})
        print(f"  {report['name']:22} stopped {report['stopped']:18} at {report['games']:6} games; "
              f"rule held at {needed:6}; verdicts by seat {precision.get('verdicts')}, "
              f"by turn order {precision.get('position_verdicts')}")
    waste = (played_total - needed_total) / played_total
    print(f"  games past the stopping points: {played_total - needed_total} of {played_total} ({waste * 100:.1f}%, "
          f"target <= 10%), {state['progress']['round']} rounds, {state['elapsed']:.1f} s")
    print(f"  {state['result']['summary']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000, help="games per variant of the fixed study")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--hot-path-games", type=int, default=300)
    parser.add_argument("--skip-precision", action="store_true")
    parser.add_argument("--only-precision", action="store_true", help="the precision study alone")
    args = parser.parse_args()
    if not args.only_precision:
        hot_path("hitchiker", 2, args.hot_path_games)
        hot_path("monopoly-cars2", 2, args.hot_path_games)
        hot_path("whipcash", 3, max(1, args.hot_path_games // 2))
    server = None
    url = os.environ.get("REDIS_URL")
    if not url:
        server = EmbeddedRedis(tempfile.mkdtemp(prefix="bench-exp-"), persist=False).start()
        url = server.url
    client = Redis.from_url(url)
    client.flushdb()
    processes = start_workers(url, args.workers, fork=False)
    try:
        if not args.only_precision:
            pairing(fixed_study(client, processes, args.games))
        if not args.skip_precision:
            precision_study(client)
    finally:
        stop_workers(processes)
        client.flushdb()
        if server is not None:
            server.stop()


if __name__ == "__main__":
    main()
