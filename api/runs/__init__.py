"""Chunked runs: the lifecycle simulations and experiments share (submit, play a chunk, record it once,
reap lost chunks, cancel, finish), over one small store per kind of run.

- ``keys``: every Redis key of a run, spelled one way (``<kind>:{<id>}`` and its parts, under the
  run's hash tag);
- ``store``: ``RunStore``, the only code that reads and writes those keys (and queues the chunk jobs);
- ``lifecycle``: the settings, the states, a chunk's run (lease, time budget, cancellation) and the
  steps every kind takes the same way.

It imports no capability room and no process (``.importlinter``): a room (``api/simulations``,
``api/experiments``) owns its own lifecycle module on top of this one, and the RQ functions of
``api/service/jobs`` call into that room.
"""
