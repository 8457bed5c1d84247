"""Observability: Prometheus metrics, JSON-lines logs with request ids, the optional RQ dashboard.

``app_hooks.init_app`` wires all three into the Flask app; workers and the game's room record the same
metrics (``api.ground.metrics``, which imports no Flask) and may serve them with
``rulehouse worker --metrics-port``. See docs/operations.md ("Observability").
"""
