"""Test-only pause points: hold a request at a named moment so that a fault test can kill the process there.

Off unless ``RULEHOUSE_TEST_PAUSE=<point>:<marker file>`` is in the environment. At that
point the process writes its pid to the marker file and sleeps (up to a minute), waiting to
be killed; once the marker exists the point no longer pauses (one pause per marker).
Points: ``before-commit`` and ``after-commit`` (api/play/moves.py, either side of the
compare-and-set of an action); ``bot-run`` (api/service/jobs/bot_runs.py, a bot job between two moves of
a run, the game's ``bot_run`` naming its version); ``job-taken`` (api/service/worker.py, a worker holding a job it took
from its queue before RQ marks it started); ``chances-unkept`` (api/win_chances/routes.py, an ask that found a
version's chances not kept, before it claims their computation); ``analysis-progress``
(api/analysis/computing.py, an analysis job once it wrote its first progress short of the end). Never set it
in a deployment.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from api.ground.config import setting


def pause_point(name: str) -> None:
    spec = setting("TEST_PAUSE")  # one variable, not settings(): this is on every move's path
    if not spec:
        return
    point, _, marker = spec.partition(":")
    if point != name or not marker:
        return
    try:
        with Path(marker).open("x") as file:
            file.write(str(os.getpid()))
    except FileExistsError:
        return
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and Path(marker).exists():
        time.sleep(0.01)
