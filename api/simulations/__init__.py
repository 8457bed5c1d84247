"""Bulk simulations on RQ workers: the spec, the jobs, and (with Flask) the HTTP blueprint.

``spec`` and ``jobs`` import neither Flask nor the app, so the command line and the
workers use them directly.
"""
