"""The ground floor: what every room and every process may use, importing nothing of ``api`` above it.

``config`` (the settings: the one module that reads the environment), ``faults`` (test-only pause
points), ``heartbeats`` (worker liveness), ``times`` (times as the service writes them),
``concurrency`` (whether this process runs an event loop, how many connections it holds) and
``metrics`` (the Prometheus metrics, one definition each). docs/architecture.md draws the floors.
"""
