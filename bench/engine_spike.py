"""Issue 44's spike: a compiled engine against the plain one, on one ruleset, in one run.

    .venv/bin/python -m pip install cython mypy      # not project dependencies (yet)
    .venv/bin/python bench/engine_spike.py build --candidate cython --source CHECKOUT --out DIR
    .venv/bin/python bench/engine_spike.py speed --plain CHECKOUT --compiled DIR [--ruleset cash-n-guns]
    .venv/bin/python bench/engine_spike.py differential --plain CHECKOUT --compiled DIR [--games 1000]
    .venv/bin/python bench/engine_spike.py callgrind --plain CHECKOUT --compiled DIR [--games 60]

``build`` copies ``CHECKOUT/engine`` to ``DIR/engine`` and compiles the candidate's modules there
(C extensions beside the sources, which Python imports first):

- ``cython``: Cython 3 in pure-Python mode. The ``.py`` files are the source; a ``.pxd`` beside a
  module (written on a refactored checkout: docs/operations.md lists what it changed) declares
  its classes as extension types, their fields and some locals as C types. Cython's dataclasses
  take no ``slots=True`` (an extension type has no ``__dict__`` anyway), so the copy drops that
  argument in modules that have a ``.pxd``: the one change the build makes to a source.
- ``cython-plain``: the same modules through Cython with every ``.pxd`` left out (what compiling
  the Python alone gives).
- ``mypyc``: the same modules through mypyc.

``speed`` runs each build in its own long-lived process (``PYTHONPATH`` set to it), interleaved
round by round (the order alternating), and reports CPU-time figures, the median over rounds and
the median of the rounds' ratios: random rollouts (actions/s, as ``bench/engine.py``), simulations
(games/s, ``engine.simulate.simulate`` with random bots, as ``bench/engine_speed.py``) and one move
of the default search bot (ms, as ``bench/engine.py``). Both must play the same games and pick the
same moves: the script stops if they differ. ``differential`` plays seeded games in both builds,
half with random bots and half with the game's heuristic, and compares every action, event and
result (a digest per game). ``callgrind`` counts the instructions of a simulation in each build
(less those of the same process playing none): a figure no load moves.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PLAYERS = 4
#: the hot path of a Cash 'n Guns game, its search and the simulation loop: what each candidate compiles
MODULES = [
    "engine/core/rng.py", "engine/core/events.py", "engine/core/decisions.py", "engine/core/result.py",
    "engine/core/ruleset.py",
    "engine/bots/random.py", "engine/bots/search.py", "engine/simulate.py",
    "engine/games/cash_n_guns/state.py", "engine/games/cash_n_guns/cards.py",
    "engine/games/cash_n_guns/scoring.py", "engine/games/cash_n_guns/view.py",
    "engine/games/cash_n_guns/bots.py", "engine/games/cash_n_guns/ruleset.py",
]
SLOTS_DATACLASS = re.compile(r"@dataclass\(slots=True\)")


# -- building ------------------------------------------------------------------------------------

def copy_engine(source: str, out: str, keep_pxd: bool) -> None:
    if os.path.exists(os.path.join(out, "engine")):
        shutil.rmtree(os.path.join(out, "engine"))
    ignored = ["__pycache__", "*.so", "*.c"] + ([] if keep_pxd else ["*.pxd"])
    shutil.copytree(os.path.join(source, "engine"), os.path.join(out, "engine"),
                    ignore=shutil.ignore_patterns(*ignored))


def build(candidate: str, source: str, out: str, modules: list[str]) -> float:
    """Compile ``modules`` of ``source``'s engine into ``out``; the seconds it took."""
    os.makedirs(out, exist_ok=True)
    copy_engine(source, out, keep_pxd=candidate == "cython")
    began = time.perf_counter()
    if candidate in ("cython", "cython-plain"):
        for module in modules:
            path = os.path.join(out, module)
            if os.path.exists(path[:-3] + ".pxd"):
                with open(path, encoding="utf-8") as handle:
                    text = handle.read()
                with open(path, "w", encoding="utf-8") as handle:
                    handle.write(SLOTS_DATACLASS.sub("@dataclass", text))
        script = ("import sys\nfrom setuptools import setup\nfrom Cython.Build import cythonize\n"
                  "setup(ext_modules=cythonize(sys.argv[1:], language_level=3, quiet=True),"
                  " script_args=['build_ext', '--inplace', '-j', '2'])\n")
        subprocess.run([sys.executable, "-c", script, *modules], cwd=out, check=True, stdout=subprocess.DEVNULL)
    elif candidate == "mypyc":
        mypyc = os.path.join(os.path.dirname(sys.executable), "mypyc")
        subprocess.run([mypyc, "--ignore-missing-imports", "--follow-imports=silent", *modules], cwd=out,
                       check=True, stdout=subprocess.DEVNULL)
    else:
        raise SystemExit(f"unknown candidate {candidate!r}")
    for leftover in ("build",):
        shutil.rmtree(os.path.join(out, leftover), ignore_errors=True)
    return time.perf_counter() - began


# -- what a build's process does -----------------------------------------------------------------

def _rollouts(ruleset_id: str, games: int, seed: int) -> dict:
    from engine.core.registry import get_ruleset
    from engine.core.rng import Rng, derive_seed

    ruleset = get_ruleset(ruleset_id)
    bot = ruleset.bot("random")
    pending, apply = ruleset.pending, ruleset.apply
    actions = 0
    rolling = 0.0
    began_all = time.process_time()
    for game in range(games):
        game_seed = derive_seed(seed, game)
        state = ruleset.new_game(PLAYERS, None, game_seed)
        rngs = [Rng(derive_seed(game_seed, 1, seat)) for seat in range(PLAYERS)]
        began = time.process_time()
        while True:
            decisions = pending(state)
            if not decisions:
                break
            decision = decisions[0]
            apply(state, decision.seat, bot.choose(state, decision, rngs[decision.seat]), check=False)
            actions += 1
        rolling += time.process_time() - began
    return {"actions_per_s": actions / rolling, "games_per_s": games / (time.process_time() - began_all),
            "check": actions}


def _simulate(ruleset_id: str, games: int, seed: int) -> dict:
    from engine.simulate import simulate

    began = time.process_time()
    stats = simulate(ruleset_id, games, PLAYERS, ["random"], seed=seed)
    seconds = time.process_time() - began
    return {"games_per_s": games / seconds,
            "check": {k: v for k, v in stats.items() if k not in ("seconds", "games_per_s")}}


def _search_states(ruleset_id: str, moves: int, seed: int) -> list:
    """``moves`` states with a choice, spread over random games (as bench/engine.py samples them)."""
    from engine.core.registry import get_ruleset
    from engine.core.rng import Rng, derive_seed

    ruleset = get_ruleset(ruleset_id)
    bot = ruleset.bot("random")
    samples = []
    for game in range(30):
        state = ruleset.new_game(PLAYERS, None, derive_seed(seed, game))
        rng = Rng(derive_seed(seed, game, 1))
        step = 0
        while decisions := ruleset.pending(state):
            decision = decisions[0]
            if step % 5 == 0 and (len(decision.options) > 1 or decision.ranges):
                samples.append((ruleset.copy(state), decision))
            ruleset.apply(state, decision.seat, bot.choose(state, decision, rng), check=False)
            step += 1
    step = max(1, len(samples) // moves)
    return samples[::step][:moves]


_SEARCH_CACHE: dict = {}


def _search(ruleset_id: str, moves: int, seed: int, bot_name: str = "mcts") -> dict:
    from engine.core.registry import get_ruleset
    from engine.core.rng import Rng, derive_seed

    ruleset = get_ruleset(ruleset_id)
    key = (ruleset_id, moves)
    if key not in _SEARCH_CACHE:
        _SEARCH_CACHE[key] = _search_states(ruleset_id, moves, 5)
    bot = ruleset.bot(bot_name)
    costs, picked = [], []
    for index, (state, decision) in enumerate(_SEARCH_CACHE[key]):
        began = time.process_time()
        picked.append(bot.choose(state, decision, Rng(derive_seed(seed, index))))
        costs.append((time.process_time() - began) * 1e3)
    return {"ms": statistics.median(costs), "check": picked}


def game_digest(ruleset, bots: list, seed: int) -> str:
    """A digest of one game: every action (seat and body), every event and the result, and every fifth
    state's world as a search draws it (``resample_hidden`` for the seat to act: the search bots' input)."""
    from engine.core.rng import Rng, derive_seed

    digest = hashlib.sha256()
    state = ruleset.new_game(PLAYERS, None, seed)
    for event in ruleset.setup_events(state):
        digest.update(json.dumps(event.to_dict(), sort_keys=True).encode())
    rngs = [Rng(derive_seed(seed, 1, seat)) for seat in range(PLAYERS)]
    step = 0
    while decisions := ruleset.pending(state):
        digest.update(json.dumps([d.to_dict() for d in decisions], sort_keys=True).encode())
        decision = decisions[0]
        if step % 5 == 0:
            world = ruleset.resample_hidden(state, decision.seat, Rng(derive_seed(seed, 2, step)))
            digest.update(json.dumps(ruleset.to_dict(world), sort_keys=True).encode())
        step += 1
        action = bots[decision.seat].choose(state, decision, rngs[decision.seat])
        digest.update(json.dumps([decision.seat, action], sort_keys=True).encode())
        for event in ruleset.apply(state, decision.seat, action, check=True):
            digest.update(json.dumps(event.to_dict(), sort_keys=True).encode())
    digest.update(json.dumps(ruleset.result(state).to_dict(), sort_keys=True).encode())
    digest.update(json.dumps(ruleset.to_dict(state), sort_keys=True).encode())
    return digest.hexdigest()


def _differential(ruleset_id: str, start: int, count: int, bot_name: str) -> dict:
    from engine.core.registry import get_ruleset
    from engine.core.rng import derive_seed

    ruleset = get_ruleset(ruleset_id)
    bots = [ruleset.bot(bot_name) for _ in range(PLAYERS)]
    return {"digests": [game_digest(ruleset, bots, derive_seed(7_044, index)) for index in range(start, start + count)]}


def worker() -> None:
    """One build's process: a JSON request a line in, a JSON answer a line out."""
    import engine.core.rng

    handlers = {"rollouts": _rollouts, "simulate": _simulate, "search": _search, "differential": _differential}
    for line in sys.stdin:
        request = json.loads(line)
        if request["do"] == "where":
            answer: object = {"rng": engine.core.rng.__file__}
        else:
            answer = handlers[request.pop("do")](**request)
        print(json.dumps(answer), flush=True)


class Build:
    def __init__(self, path: str) -> None:
        self.path = os.path.abspath(path)
        env = {**os.environ, "PYTHONPATH": self.path}
        # -P: not this script's folder first on sys.path, where bench/engine.py would hide the engine package
        self.process = subprocess.Popen([sys.executable, "-P", os.path.abspath(__file__), "worker"],
                                        cwd=self.path, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True)

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
        self.process.wait(timeout=60)


# -- the commands ----------------------------------------------------------------------------------

def speed(args) -> None:
    plain, compiled = Build(args.plain), Build(args.compiled)
    print(f"plain:    {plain.ask(do='where')['rng']}\ncompiled: {compiled.ask(do='where')['rng']}")
    tasks = {
        "rollouts (actions/s)": ("actions_per_s", lambda r: {"do": "rollouts", "ruleset_id": args.ruleset,
                                                               "games": args.games, "seed": r}),
        "simulation (games/s)": ("games_per_s", lambda r: {"do": "simulate", "ruleset_id": args.ruleset,
                                                              "games": args.games, "seed": r}),
    }
    if args.search_moves:
        tasks["search move (ms)"] = ("ms", lambda r: {"do": "search", "ruleset_id": args.ruleset,
                                                      "moves": args.search_moves, "seed": r})
    figures: dict = {(name, side): [] for name in tasks for side in ("plain", "compiled")}
    for build in (plain, compiled):  # warm: imports, tables, caches
        build.ask(do="simulate", ruleset_id=args.ruleset, games=5, seed=-1)
    load_before = os.getloadavg()
    for round_number in range(args.rounds):
        for name, (key, request) in tasks.items():
            order = [("plain", plain), ("compiled", compiled)]
            if round_number % 2:
                order.reverse()
            answers = {side: build.ask(**request(round_number)) for side, build in order}
            if answers["plain"]["check"] != answers["compiled"]["check"]:
                raise SystemExit(f"{name}, round {round_number}: the two builds played differently")
            for side, answer in answers.items():
                figures[name, side].append(answer[key])
    load_after = os.getloadavg()
    plain.close()
    compiled.close()
    print(f"{args.ruleset}, {PLAYERS} players, CPU time, median of {args.rounds} interleaved rounds "
          f"({args.games} games a round; search: {args.search_moves} moves of mcts a round); "
          f"load average {load_before[0]:.2f} before, {load_after[0]:.2f} after")
    print(f"{'':24}{'plain':>12}{'compiled':>12}{'ratio':>8}   ratios by round")
    for name in tasks:
        mine, theirs = figures[name, "compiled"], figures[name, "plain"]
        ratios = [a / b for a, b in zip(mine, theirs, strict=True)]
        if name.startswith("search"):
            ratios = [1 / ratio for ratio in ratios]  # a cost: plain over compiled
        print(f"{name:<24}{statistics.median(theirs):>12,.1f}{statistics.median(mine):>12,.1f}"
              f"{statistics.median(ratios):>7.2f}x   " + " ".join(f"{ratio:.2f}" for ratio in ratios))
    print("the same games and the same search moves in both builds, every round")


def differential(args) -> None:
    plain, compiled = Build(args.plain), Build(args.compiled)
    half = args.games // 2
    for bot_name, start in (("random", 0), ("heuristic", half)):
        count = args.games - half if bot_name == "heuristic" else half
        request = {"do": "differential", "ruleset_id": args.ruleset, "start": start, "count": count,
                   "bot_name": bot_name}
        mine, theirs = compiled.ask(**request)["digests"], plain.ask(**request)["digests"]
        differing = [start + i for i, (a, b) in enumerate(zip(mine, theirs, strict=True)) if a != b]
        seeds = f"derive_seed(7044, {start}..{start + count - 1})"
        print(f"{args.ruleset}, {count} games of {bot_name} bots (seeds {seeds}): {count - len(differing)} equal,"
              f" {len(differing)} differ" + (f": first {differing[:5]}" if differing else ""))
        if differing:
            raise SystemExit(1)
    plain.close()
    compiled.close()


def _instructions(path: str, ruleset: str, games: int) -> int:
    with tempfile.TemporaryDirectory(prefix="rulehouse-callgrind-") as folder:
        out = os.path.join(folder, "callgrind.out")
        code = ("from engine.simulate import simulate\n"
                f"simulate({ruleset!r}, 5, {PLAYERS}, ['random'], seed=-1)\n"
                f"simulate({ruleset!r}, {games}, {PLAYERS}, ['random'], seed=0)\n")
        command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, "-P", "-c", code]
        subprocess.run(command, cwd=path, env={**os.environ, "PYTHONPATH": path}, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(out, encoding="utf-8") as handle:
            for line in handle:
                if line.startswith(("summary:", "totals:")):
                    return int(line.split()[1])
    raise SystemExit("callgrind wrote no total")


def callgrind(args) -> None:
    print(f"{args.ruleset}: instructions a game (callgrind, {args.games} games less none)")
    counts = {}
    for side, path in (("plain", args.plain), ("compiled", args.compiled)):
        played, none = _instructions(path, args.ruleset, args.games), _instructions(path, args.ruleset, 0)
        counts[side] = (played - none) / args.games
        print(f"{side:<10}{counts[side] / 1e6:>8.3f} M")
    print(f"ratio     {counts['plain'] / counts['compiled']:>8.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    making = commands.add_parser("build")
    making.add_argument("--candidate", choices=["cython", "cython-plain", "mypyc"], required=True)
    making.add_argument("--source", default=ROOT, help="the checkout whose engine is built (default: this one)")
    making.add_argument("--out", required=True)
    making.add_argument("--module", action="append", help="compile these (default: the hot path, MODULES)")
    for name in ("speed", "differential", "callgrind"):
        command = commands.add_parser(name)
        command.add_argument("--plain", default=ROOT, help="the plain checkout (default: this one)")
        command.add_argument("--compiled", required=True, help="a folder `build` made")
        command.add_argument("--ruleset", default="cash-n-guns")
        if name == "speed":
            command.add_argument("--rounds", type=int, default=9)
            command.add_argument("--games", type=int, default=300)
            command.add_argument("--search-moves", type=int, default=5)
        if name == "differential":
            command.add_argument("--games", type=int, default=1000)
        if name == "callgrind":
            command.add_argument("--games", type=int, default=60)
    commands.add_parser("worker")
    args = parser.parse_args()
    if args.command == "worker":
        worker()
    elif args.command == "build":
        seconds = build(args.candidate, os.path.abspath(args.source), os.path.abspath(args.out), args.module or MODULES)
        print(f"{args.candidate}: compiled {len(args.module or MODULES)} modules in {seconds:.0f} s "
              f"(load average {os.getloadavg()[0]:.2f})")
    else:
        {"speed": speed, "differential": differential, "callgrind": callgrind}[args.command](args)


if __name__ == "__main__":
    main()
