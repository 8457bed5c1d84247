"""``GET /metrics``: Prometheus text format, outside /v1 (no app key, no rate limit).

Keep it off the public internet: the load balancer of docker-compose.yml refuses it, and
Prometheus scrapes each API replica and worker directly, with the scrape token as a bearer
token (``metrics.scrape_refusal``).
"""

from __future__ import annotations

from flask import Blueprint, Response, current_app, request

from api.ground import metrics
from api.ground.config import ALL_QUEUES

metrics_blp = Blueprint("metrics", __name__)


@metrics_blp.get("/metrics")
def scrape() -> Response:
    refusal = metrics.scrape_refusal(request.headers.get("Authorization"), current_app.config)
    if refusal is not None:
        return Response(refusal + "\n", status=401, content_type="text/plain",
                        headers={"WWW-Authenticate": metrics.SCRAPE_CHALLENGE})
    store = current_app.extensions["rulehouse.store"]
    return Response(metrics.exposition(store.queues.connection(), ALL_QUEUES), content_type=metrics.CONTENT_TYPE)
