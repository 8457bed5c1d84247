"""Cross-origin requests to the API, for browser apps served from other origins.

Only the origins named in ``CORS_ALLOWED_ORIGINS`` are allowed (none by default). The
API authenticates with bearer tokens, never cookies, so credentials are not allowed.
"""

from __future__ import annotations

from flask import Flask, Response, request

ALLOWED_METHODS = "GET, POST, DELETE, OPTIONS"
ALLOWED_HEADERS = "Authorization, Content-Type, If-Match, If-None-Match, Idempotency-Key, X-Api-Key"
EXPOSED_HEADERS = "ETag, Location, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset"
PREFLIGHT_MAX_AGE = "600"


def allowed_origins(setting: str | list | tuple | None) -> frozenset[str]:
    """The setting as a set: a list, or a comma-separated string (``*`` allows any origin)."""
    if not setting:
        return frozenset()
    items = setting.split(",") if isinstance(setting, str) else setting
    return frozenset(item.strip().rstrip("/") for item in items if item.strip())


def init_cors(app: Flask) -> None:
    origins = allowed_origins(app.config["CORS_ALLOWED_ORIGINS"])
    if not origins:
        return

    def allowed(origin: str | None) -> bool:
        return origin is not None and ("*" in origins or origin in origins)

    @app.before_request
    def preflight() -> Response | None:
        if request.method == "OPTIONS" and request.headers.get("Access-Control-Request-Method"):
            response = Response(status=204)
            if allowed(request.headers.get("Origin")) and request.path.startswith("/v1/"):
                response.headers["Access-Control-Allow-Methods"] = ALLOWED_METHODS
                response.headers["Access-Control-Allow-Headers"] = ALLOWED_HEADERS
                response.headers["Access-Control-Max-Age"] = PREFLIGHT_MAX_AGE
            return response
        return None

    @app.after_request
    def cors_headers(response: Response) -> Response:
        origin = request.headers.get("Origin")
        if allowed(origin) and (request.path.startswith("/v1/") or request.path == "/openapi.json"):
            response.headers["Access-Control-Allow-Origin"] = origin
            response.headers["Access-Control-Expose-Headers"] = EXPOSED_HEADERS
            response.vary.add("Origin")
        return response
