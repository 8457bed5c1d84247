"""The Redis keys of chunked runs, one spelling for every kind (``sim``: simulations, ``exp``:
experiments). A run's keys carry its hash tag ``{<id>}``, so one run lives in one cluster slot and
the store's scripts touch one slot:

- ``<kind>:{<id>}``             hash: spec, status, timestamps, app, games/chunks done, result, error
- ``<kind>:{<id>}:tallies``     hash: chunk index -> that chunk's tally JSON, written once (HSETNX)
- ``<kind>:{<id>}:jobs``        hash: chunk index -> id of the RQ job now responsible for it
- ``<kind>:{<id>}:lease:<i>``   a chunk in progress; the worker refreshes it while it plays
- ``<kind>:{<id>}:taken:<job>`` the reaper first saw this chunk job marked queued but in no queue
- ``<kind>:{<id>}:reaped``      a status read reaped the run within the last two seconds
- ``<kind>s:active``            sorted set: the queued and running runs of the kind, by creation time
- ``<kind>s:reaping``           one reaper of the kind at a time

A kind adds its own parts with ``part_key`` (an experiment's ``plan`` and ``workers``).
"""

from __future__ import annotations


def run_key(kind: str, run_id: str) -> str:
    return f"{kind}:{{{run_id}}}"


def part_key(kind: str, run_id: str, part: str) -> str:
    return f"{run_key(kind, run_id)}:{part}"


def tallies_key(kind: str, run_id: str) -> str:
    return part_key(kind, run_id, "tallies")


def jobs_key(kind: str, run_id: str) -> str:
    return part_key(kind, run_id, "jobs")


def lease_key(kind: str, run_id: str, index: int) -> str:
    return part_key(kind, run_id, f"lease:{index}")


def taken_key(kind: str, run_id: str, job_id: str) -> str:
    return part_key(kind, run_id, f"taken:{job_id}")


def reaped_key(kind: str, run_id: str) -> str:
    return part_key(kind, run_id, "reaped")


def active_key(kind: str) -> str:
    return f"{kind}s:active"


def reap_lock_key(kind: str) -> str:
    return f"{kind}s:reaping"


def job_prefix(kind: str, run_id: str) -> str:
    """What the ids of a run's chunk jobs start with: how the store finds them in the queue."""
    return f"{kind}-{run_id}-"
