"""Bulk simulations on RQ workers: the spec and (with Flask) the HTTP blueprint; the jobs are
``api.service.jobs.simulations``.

``spec`` and the jobs import neither Flask nor the app, so the command line and the
workers use them directly.
"""
