"""Simulation speed, games per second, of this checkout against another one, in one run.

    .venv/bin/python bench/engine_speed.py --compare /path/to/base/checkout [--rounds 7] [--seconds 1.5]
    .venv/bin/python bench/engine_speed.py            # this checkout alone

What ``rulehouse simulate RULESET --players 4 --bots random`` does in one process
(``engine.simulate.simulate``), for every registered ruleset. Each checkout plays in its own
long-lived Python process (this interpreter, ``PYTHONPATH`` set to the checkout), so imports and
warm caches stay out of the figures; a figure is games per CPU second of that process (on a quiet
machine the wall-clock rate ``rulehouse simulate`` prints; under load, far steadier than it). The
machine is shared, so the two are interleaved: each
round plays every ruleset once in each checkout, the order alternating from round to round, and
the figure is the median over the rounds, and the ratio the median of the rounds' ratios (this / base,
each from two back-to-back plays): what to compare between runs.

Both checkouts play the same games (same seeds, same count): their statistics must agree
exactly, which the script checks (a faster engine that plays other games is a bug, not a gain).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PLAYERS = 4
#: statistics that depend on the clock, left out when the two checkouts' games are compared
TIMING_KEYS = ("seconds", "games_per_s")


def worker() -> None:
    """The loop of one checkout's process: a JSON request a line in, a JSON answer a line out."""
    from engine.core.registry import all_rulesets
    from engine.simulate import simulate

    for line in sys.stdin:
        request = json.loads(line)
        if request["do"] == "rulesets":
            answer: object = sorted(all_rulesets())
        elif request["do"] == "calibrate":  # how many games fill about ``seconds``
            simulate(request["ruleset"], 5, PLAYERS, ["random"], seed=-1)  # warm: tables, caches, bots
            games, began = 0, time.perf_counter()
            while time.perf_counter() - began < request["seconds"] / 4:
                simulate(request["ruleset"], 5, PLAYERS, ["random"], seed=games)
                games += 5
            answer = max(5, round(games * 4))
        else:
            began = time.process_time()
            stats = simulate(request["ruleset"], request["games"], PLAYERS, ["random"], seed=request["seed"])
            seconds = time.process_time() - began
            answer = {"games_per_s": request["games"] / seconds,
                      "stats": {k: v for k, v in stats.items() if k not in TIMING_KEYS}}
        print(json.dumps(answer), flush=True)


def profile(only: list[str] | None, seconds: float) -> None:
    """Per game of each ruleset: its actions, its random draws (game and bots), its events, and the
    share of a game's CPU time that the draws and the events alone cost (each at its cost measured
    here, in a loop; a bot's draw among one option costs less, so the draws' share is an upper bound):
    the part of a game no rewriting of the rules in plain Python takes away, since the recorded games
    pin every draw and every event."""
    import timeit

    sys.path.insert(0, ROOT)  # before bench/, whose engine.py would hide the engine package
    from engine.core.events import Event
    from engine.core.registry import all_rulesets
    from engine.core.rng import Rng, derive_seed
    from engine.simulate import simulate

    rng, seat = Rng(1), 2  # a draw of a die; an event as most are, a type and a small dict
    def cost_ns(call) -> float:
        return min(timeit.repeat(call, number=20_000, repeat=7, timer=time.process_time)) / 20_000 * 1e9

    events: list = []
    call_ns = cost_ns(lambda: None)  # the timing loop's own cost, taken off both
    draw_ns = cost_ns(lambda: rng.randint(1, 6)) - call_ns
    event_ns = cost_ns(lambda: events.append(Event("moved", {"seat": seat, "to": seat}))) - call_ns
    print(f"one draw (randint) {draw_ns:.0f} ns, one event built and appended {event_ns:.0f} ns")
    print(f"{'ruleset':<16}{'actions':>9}{'draws':>8}{'events':>8}{'us/game':>9}{'draws':>8}{'events':>8}")
    for ruleset_id in only or sorted(all_rulesets()):
        ruleset = all_rulesets()[ruleset_id]
        games = max(5, round(simulate(ruleset_id, 5, PLAYERS, ["random"], seed=-1)["games_per_s"] * seconds))
        game_us = 1e99
        for _ in range(5):  # the best of five, as the costs above: the load of a shared machine comes and goes
            began = time.process_time()
            simulate(ruleset_id, games, PLAYERS, ["random"], seed=0)
            game_us = min(game_us, (time.process_time() - began) / games * 1e6)
        actions = draws = built = 0
        bot = ruleset.bot("random")
        for index in range(games):
            seed = derive_seed(0, index)
            state = ruleset.new_game(PLAYERS, None, seed)
            rngs = [Rng(derive_seed(seed, 1, seat)) for seat in range(PLAYERS)]
            while decisions := ruleset.pending(state):
                decision = decisions[0]
                built += len(ruleset.play(state, decision.seat, bot.choose(state, decision, rngs[decision.seat])))
                actions += 1
            draws += state.rng.counter + sum(r.counter for r in rngs)
        per = games
        print(f"{ruleset_id:<16}{actions / per:>9.0f}{draws / per:>8.0f}{built / per:>8.0f}{game_us:>9.0f}"
              f"{draws / per * draw_ns / 1000 / game_us:>8.0%}{built / per * event_ns / 1000 / game_us:>8.0%}")


class Checkout:
    def __init__(self, path: str) -> None:
        self.path = os.path.abspath(path)
        # -P: not this script's folder first on sys.path, where bench/engine.py would hide the engine package
        env = {**os.environ, "PYTHONPATH": self.path}
        self.process = subprocess.Popen([sys.executable, "-P", os.path.abspath(__file__), "--worker"], cwd=self.path,
                                        env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, **request: object):
        assert self.process.stdin and self.process.stdout
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"the process of {self.path} stopped")
        return json.loads(line)

    def close(self) -> None:
        assert self.process.stdin
        self.process.stdin.close()
        self.process.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--compare", metavar="BASE_CHECKOUT", help="another checkout to measure in the same run")
    parser.add_argument("--this", metavar="CHECKOUT", default=ROOT,
                        help="the checkout to measure (default: this one; bench/engine_compiled.py passes a build)")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--seconds", type=float, default=0.5, help="about how long one ruleset plays a round")
    parser.add_argument("--ruleset", action="append", help="only these rulesets (default: all)")
    parser.add_argument("--profile", action="store_true",
                        help="this checkout only: what a game is made of (actions, draws, events) and their share")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker()
        return
    if args.profile:
        profile(args.ruleset, args.seconds)
        return

    this = Checkout(args.this)
    base = Checkout(args.compare) if args.compare else None
    checkouts = [this] if base is None else [base, this]
    rulesets = args.ruleset or this.ask(do="rulesets")
    games = {ruleset: (base or this).ask(do="calibrate", ruleset=ruleset, seconds=args.seconds)
             for ruleset in rulesets}
    rates: dict[tuple[str, str], list[float]] = {(c.path, r): [] for c in checkouts for r in rulesets}
    load_before = os.getloadavg()
    for round_number in range(args.rounds):
        for ruleset in rulesets:
            order = checkouts if round_number % 2 == 0 else checkouts[::-1]
            answers = {c.path: c.ask(do="play", ruleset=ruleset, games=games[ruleset], seed=round_number)
                       for c in order}
            if base is not None and answers[base.path]["stats"] != answers[this.path]["stats"]:
                raise SystemExit(f"{ruleset} round {round_number}: the two checkouts played different games")
            for path, answer in answers.items():
                rates[path, ruleset].append(answer["games_per_s"])
    load_after = os.getloadavg()
    for checkout in checkouts:
        checkout.close()

    print(f"{PLAYERS} players, random bots, one process, games per CPU second; "
          f"median of {args.rounds} interleaved rounds; "
          f"load average {load_before[0]:.2f} before, {load_after[0]:.2f} after")
    if base is not None:
        print(f"base: {base.path}\nthis: {this.path}")
        print(f"{'ruleset':<16}{'games':>7}{'base g/s':>11}{'this g/s':>11}{'ratio':>8}   ratios by round")
    else:
        print(f"{'ruleset':<16}{'games':>7}{'games/s':>11}")
    for ruleset in rulesets:
        mine = statistics.median(rates[this.path, ruleset])
        if base is None:
            print(f"{ruleset:<16}{games[ruleset]:>7}{mine:>11,.0f}")
            continue
        theirs = statistics.median(rates[base.path, ruleset])
        by_round = [a / b for a, b in zip(rates[this.path, ruleset], rates[base.path, ruleset], strict=True)]
        print(f"{ruleset:<16}{games[ruleset]:>7}{theirs:>11,.0f}{mine:>11,.0f}{statistics.median(by_round):>7.2f}x   "
              + " ".join(f"{ratio:.2f}" for ratio in by_round))
    if base is not None:
        print("the same games in both (statistics identical, every round)")


if __name__ == "__main__":
    main()
