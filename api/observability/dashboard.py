"""The optional RQ dashboard (``pip install 'rulehouse[dashboard]'``) at ``/admin/rq``.

Mounted only when ``RULEHOUSE_ADMIN_TOKEN`` is set and the ``rq-dashboard`` package is
installed. Every request under ``/admin/rq`` must carry the token, as ``Authorization:
Bearer <token>`` or as the password of HTTP Basic authentication (any user name: browsers
send it with the dashboard's own XHR calls). The dashboard reads the queue Redis
(``REDIS_URL``) and can requeue and delete jobs, so the token is an operator's secret.

A browser sends Basic credentials by itself, to any page that asks, so the dashboard also
refuses what another site could make an operator's browser do: a request whose ``Origin``
(else ``Referer``) is another host (403), a state change by GET (405: what changes state
takes POST only), and being framed (``frame-ancestors 'none'``, ``X-Frame-Options: DENY``).
Its forms post no JSON, so the API's JSON-body check leaves it alone (``serves``).
"""

from __future__ import annotations

import base64
import binascii
import hmac
import importlib.util
import logging
from urllib.parse import urlsplit

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


#: on every dashboard response: no other site may frame it, nothing keeps a copy of it
PAGE_HEADERS = {"Content-Security-Policy": "frame-ancestors 'none'", "X-Frame-Options": "DENY",
                "Cache-Control": "no-store", "Referrer-Policy": "same-origin", "X-Content-Type-Options": "nosniff"}


def serves(path: str) -> bool:
    """Whether ``path`` is the dashboard's."""
    return path == PREFIX or path.startswith(PREFIX + "/")


def _refused(status: int, text: str, **headers: str) -> Response:
    return Response(text + "\n", status=status, content_type="text/plain", headers=headers)


def _another_site(named: str | None) -> bool:
    """``named`` (an ``Origin`` or ``Referer``) is a page of another host than the one asked; a
    request that names none (curl with the token) is no browser led there by another site."""
    if named is None:
        return False
    return named == "null" or urlsplit(named).netloc.lower() != request.host.lower()


def _from_another_site(changes_state: bool) -> bool:
    """A browser sent this for a page of another site: its ``Origin`` says so (a script's request,
    any method), or for a state change without one, its ``Referer`` (a plain form's post)."""
    origin = request.headers.get("Origin")
    if origin is not None or not changes_state:
        return _another_site(origin)
    return _another_site(request.headers.get("Referer"))


def _guard() -> Response | None:
    if not serves(request.path):
        return None
    token = presented_token()
    if token is None or not hmac.compare_digest(token.encode(), current_app.config["ADMIN_TOKEN"].encode()):
        return _refused(401, "admin token required", **{"WWW-Authenticate": 'Basic realm="rulehouse admin"'})
    changes_state = request.url_rule is not None and "POST" in request.url_rule.methods
    if _from_another_site(changes_state):
        return _refused(403, "the dashboard answers its own pages only")
    if changes_state and request.method != "POST":
        return _refused(405, "this changes the queues: POST it", Allow="POST")
    return None


def _page_headers(response: Response) -> Response:
    if serves(request.path):
        for name, value in PAGE_HEADERS.items():
            response.headers[name] = value
    return response


def init_app(app: Flask) -> None:
    token = app.config.get("ADMIN_TOKEN")
    if not token:
        return
    if len(token) < MIN_TOKEN_LENGTH:
        raise ValueError(f"RULEHOUSE_ADMIN_TOKEN must be at least {MIN_TOKEN_LENGTH} characters")
    if not available():
        log.warning("RULEHOUSE_ADMIN_TOKEN is set but rq-dashboard is not installed: no dashboard at %s", PREFIX)
        return
    # optional (the dashboard extra): imported once ``available`` found it installed
    import rq_dashboard
    from rq_dashboard.web import blueprint, setup_rq_connection

    for name in dir(rq_dashboard.default_settings):
        if name.isupper():
            app.config.setdefault(name, getattr(rq_dashboard.default_settings, name))
    # rq-dashboard takes a tuple of URLs (one per Redis it shows).
    app.config["RQ_DASHBOARD_REDIS_URL"] = (app.config["REDIS_URL"],)
    # Its own server sets up the connection at start; a route without an instance number (requeue,
    # delete) would find none in a process that served nothing else yet.
    setup_rq_connection(app)
    app.before_request(_guard)
    app.after_request(_page_headers)
    app.register_blueprint(blueprint, url_prefix=PREFIX)
