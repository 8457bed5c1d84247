"""bench/memory.py --trace: tracemalloc in every process of a soaked service (API and workers).

On PYTHONPATH with ``RULEHOUSE_MEMTRACE_DIR`` set, every Python process started under it watches that
directory: once ``<dir>/take-start`` appears it starts tracing (from then on only: tracing the imports
with their tracebacks takes minutes of CPU), and once ``<dir>/take-<tag>`` appears it writes
``<dir>/<pid>-<tag>.snap``. A file, not a signal: gunicorn resets its workers' signals, and a gevent
worker runs no handler while it is idle. It needs nothing from the service's code, so the same hook
traces an older checkout.
"""

import os

_DIR = os.environ.get("RULEHOUSE_MEMTRACE_DIR")


def _watch() -> None:
    import time
    import tracemalloc

    taken: set[str] = set()
    while True:
        time.sleep(1.0)
        try:
            tags = sorted(name[5:] for name in os.listdir(_DIR) if name.startswith("take-"))
        except OSError:
            continue
        for tag in tags:
            if tag in taken:
                continue
            taken.add(tag)
            if tag == "start":
                tracemalloc.start(int(os.environ.get("RULEHOUSE_MEMTRACE_FRAMES", "12")))
                continue
            if not tracemalloc.is_tracing():
                continue
            ignored = [tracemalloc.Filter(False, tracemalloc.__file__), tracemalloc.Filter(False, __file__)]
            snapshot = tracemalloc.take_snapshot().filter_traces(ignored)
            snapshot.dump(os.path.join(_DIR, f"{os.getpid()}-{tag}.snap"))
            if tag == "end":  # and once more after a full collection: is what grew garbage in cycles?
                import gc
                import json

                pending = gc.get_count()
                found = gc.collect()
                snapshot = tracemalloc.take_snapshot().filter_traces(ignored)
                snapshot.dump(os.path.join(_DIR, f"{os.getpid()}-end-collected.snap"))
                with open(os.path.join(_DIR, f"{os.getpid()}-gc.json"), "w") as out:
                    json.dump({"collected": found, "counts_before": pending, "stats": gc.get_stats()}, out)


def _start_watching() -> None:
    import threading

    threading.Thread(target=_watch, name="memtrace", daemon=True).start()


if _DIR:
    _start_watching()
    os.register_at_fork(after_in_child=_start_watching)
