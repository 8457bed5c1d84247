"""The engine compiled with mypyc against the same engine as plain Python, in one run.

    .venv/bin/python -m pip install mypy   # not a project dependency: mypyc comes with mypy
    .venv/bin/python bench/engine_compiled.py [--compare CHECKOUT] [engine_speed.py options]

Copies this checkout's ``engine`` package to a temporary folder, compiles the modules below
there with mypyc (C extensions beside the sources, which Python then imports first) and runs
``bench/engine_speed.py`` on that build against ``--compare`` (default: this checkout, plain).
The compiled build must play the very same games: engine_speed checks every round's statistics.

The modules are those that compile and run unchanged: the rules' functions, the game states,
the events, results, the generator and the random bot. What stays interpreted, and why, is in
docs/operations.md ("Compiled with mypyc"): the ``Ruleset`` classes (marshmallow's schema
hooks and ``functools.cached_property`` need a ``__dict__`` that mypyc's classes do not have),
the copies and serialization (``engine/core/clone.py``, ``serial.py`` generate code from
dataclass annotations) and the simulation loop (its dataclasses, compiled, fail at import).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COMPILED = [
    "engine/core/events.py", "engine/core/result.py", "engine/core/rng.py", "engine/core/turn_order.py",
    "engine/bots/random.py",
    "engine/games/monopoly_cars2/state.py", "engine/games/monopoly_cars2/turn.py",
    "engine/games/cash_n_guns/state.py", "engine/games/cash_n_guns/scoring.py",
    "engine/games/hitchiker/state.py", "engine/games/hitchiker/turn.py", "engine/games/hitchiker/money.py",
    "engine/games/hitchiker/moves.py", "engine/games/hitchiker/bad_ride.py",
    "engine/games/whipcash/state.py", "engine/games/whipcash/money.py",
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--compare", default=ROOT, help="the plain checkout to compare with (default: this one)")
    args, speed_args = parser.parse_known_args()
    mypyc = os.path.join(os.path.dirname(sys.executable), "mypyc")
    if not os.path.exists(mypyc):
        raise SystemExit("mypyc is missing: .venv/bin/python -m pip install mypy")
    with tempfile.TemporaryDirectory(prefix="rulehouse-mypyc-") as build:
        shutil.copytree(os.path.join(ROOT, "engine"), os.path.join(build, "engine"),
                        ignore=shutil.ignore_patterns("__pycache__", "*.so"))
        began = time.perf_counter()
        subprocess.run([mypyc, "--ignore-missing-imports", "--follow-imports=silent", *COMPILED], cwd=build,
                       check=True, stdout=subprocess.DEVNULL)
        print(f"compiled {len(COMPILED)} modules in {time.perf_counter() - began:.0f} s", flush=True)
        subprocess.run([sys.executable, os.path.join(ROOT, "bench", "engine_speed.py"), "--this", build,
                        "--compare", args.compare, *speed_args], check=True)


if __name__ == "__main__":
    main()
