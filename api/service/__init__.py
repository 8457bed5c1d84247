"""The processes and what they run: the command line (``cli``), the worker (``worker``) and the jobs it
runs (``jobs``), the served app (``serving``, ``gunicorn_conf``), the embedded Redis, the settings
(``config``), worker heartbeats, the wait for Redis and the test-only pause points (``faults``).
"""
