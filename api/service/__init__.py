"""The processes and what they run: the command line (``cli``), the worker (``worker``) and the jobs it
runs (``jobs``), the served app (``serving``, ``gunicorn_conf``), the embedded Redis and the wait for
Redis. The settings, heartbeats and pause points they share with the rooms live in ``api.ground``.
"""
