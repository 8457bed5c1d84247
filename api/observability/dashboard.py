"""The optional RQ dashboard (``pip install 'rulehouse[dashboard]'``) at ``/admin/rq``.

Mounted only when ``RULEHOUSE_ADMIN_TOKEN`` is set and the ``rq-dashboard`` package is
installed. Every request under ``/admin/rq`` must carry the token, as ``Authorization:
Bearer <token>`` or as the password of HTTP Basic authentication (any user name: browsers
send it with the dashboard's own XHR calls). The dashboard reads the queue Redis
(``REDIS_URL``) and can requeue and delete jobs, so the token is an operator's secret.
"""

from __future__ import annotations

import base64
import binascii
import hmac
import importlib.util
import logging

from flask import Flask, Response, current_app, request

PREFIX = "/admin/rq"
MIN_TOKEN_LENGTH = 16

log = logging.getLogger("rulehouse.admin")


def available() -> bool:
    return importlib.util.find_spec("rq_dashboard") is not None


def presented_token() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() == "bearer":
        return value.strip()
    if scheme.lower() == "basic":
        try:
            decoded = base64.b64decode(value.strip(), validate=True).decode()
        except (binascii.Error, UnicodeDecodeError):
            return None
        return decoded.partition(":")[2]
    return None


def _guard() -> Response | None:
    if request.path != PREFIX and not request.path.startswith(PREFIX + "/"):
        return None
    token = presented_token()
    if token is not None and hmac.compare_digest(token.encode(), current_app.config["ADMIN_TOKEN"].encode()):
        return None
    return Response("admin token required\n", status=401, content_type="text/plain",
                    headers={"WWW-Authenticate": 'Basic realm="rulehouse admin"'})


def init_app(app: Flask) -> None:
    token = app.config.get("ADMIN_TOKEN")
    if not token:
        return
    if len(token) < MIN_TOKEN_LENGTH:
        raise ValueError(f"RULEHOUSE_ADMIN_TOKEN must be at least {MIN_TOKEN_LENGTH} characters")
    if not available():
        log.warning("RULEHOUSE_ADMIN_TOKEN is set but rq-dashboard is not installed: no dashboard at %s", PREFIX)
        return
    import rq_dashboard
    from rq_dashboard.web import blueprint

    for name in dir(rq_dashboard.default_settings):
        if name.isupper():
            app.config.setdefault(name, getattr(rq_dashboard.default_settings, name))
    # rq-dashboard takes a tuple of URLs (one per Redis it shows).
    app.config["RQ_DASHBOARD_REDIS_URL"] = (app.config["REDIS_URL"],)
    app.before_request(_guard)
    app.register_blueprint(blueprint, url_prefix=PREFIX)
