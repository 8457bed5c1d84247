"""The Redis-restart fault scenario of tests/faults/test_redis_restart.py, with bot seats.

    .venv/bin/python bench/faults.py [--runs 3]

Games with a scripted human and `random` bots on real workers, and a simulation; Redis is
SIGKILLed and restarted from its append-only file (``appendfsync always``) mid-play. Each run
prints PASS or the failure (a game that stopped moving says what its bot job is doing). Not
in the suite: whether a bot job is caught in flight depends on timing. A bot job a worker had
taken or started when it died is queued again by the bot-move sweep (docs/operations.md, "Faults").
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.faults.test_redis_restart import run_restart  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    passed = 0
    for run in range(1, args.runs + 1):
        try:
            run_restart(Path(tempfile.mkdtemp(prefix="rulehouse-faults-")), bots=True)
        except AssertionError as failure:
            print(f"run {run}: FAIL {str(failure).splitlines()[0][:400]}")
            continue
        except Exception:
            print(f"run {run}: ERROR\n{traceback.format_exc()[-1500:]}")
            continue
        passed += 1
        print(f"run {run}: PASS")
    print(f"{passed}/{args.runs} runs passed")
    sys.exit(0 if passed == args.runs else 1)


if __name__ == "__main__":
    main()
