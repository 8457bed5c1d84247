"""The observability of the Flask app: request ids and logs, the metrics endpoint, the RQ dashboard."""

from __future__ import annotations

from flask import Flask

from api.ground import metrics
from api.observability import dashboard, requests
from api.observability.routes import metrics_blp


def init_app(app: Flask) -> None:
    """Register first, so even a request refused by a later hook has a request id and is counted."""
    requests.init_app(app)
    metrics.check_scrape_settings(app.config)
    app.register_blueprint(metrics_blp)
    dashboard.init_app(app)
