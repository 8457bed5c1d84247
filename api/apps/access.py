"""Who is calling, and may they: the app key of a request, its scopes, its origin.

Every ``/v1`` request except the health checks belongs to an app. With
``REQUIRE_API_KEYS`` off (``make run``) a request without ``X-Api-Key`` belongs to the
``local`` app; a request that sends a key is checked either way. Seat tokens
(``Authorization: Bearer``) keep choosing the seat: the app key says which program
calls, the token which player.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import current_app, g, request

from api.apps.app_store import LOCAL_APP_ID, App, AppKeys, local_app
from api.http.problems import ApiProblem

HEADER = "X-Api-Key"
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
#: What an endpoint needs beyond a known app: a scope of the app's key, or PLAY (acting for a
#: seat whose token the caller holds), which a publishable key may do too.
PLAY = "play"
#: Endpoints that act for a seat (the seat token is checked by the endpoint itself).
PLAY_ENDPOINTS = {"games.Actions"}
PLAY_BLUEPRINTS = {"seats"}
#: Blueprints whose writes act for a seat or a game's creator like a move (the table chat), their reads plain reads.
PLAY_WRITE_BLUEPRINTS = {"chat"}
#: Blueprints whose every endpoint needs the scope of the same name.
SCOPED_BLUEPRINTS = {"simulations": "simulations", "experiments": "simulations", "webhooks": "webhooks"}
#: Reads of what an app owns, listed: its games (unlisted ones too), its simulations, its tournaments
#: and a player's games and results (which name unlisted games). They need the scope of what they list,
#: so a publishable key (in every page, so anyone's) sees only what the public lobby shows; a game or
#: tournament id it is given is still enough to spectate it.
OWNER_LISTINGS = {"apps.MyGames": "games", "apps.MySimulations": "simulations", "tournaments.Tournaments": "games",
                  "players.Player": "games", "players.PlayerGames": "games"}
#: Endpoints with neither key nor rate limit: health checks for load balancers.
FREE_ENDPOINTS = {"system.Health", "system.Ready"}
EXTENSION = "rulehouse.apps"


def keys() -> AppKeys:
    return current_app.extensions[EXTENSION]


def requirement(endpoint: str, method: str) -> str | None:
    """The scope (or PLAY) ``method`` on ``endpoint`` needs; None: any app may."""
    blueprint = endpoint.partition(".")[0]
    if endpoint in OWNER_LISTINGS:
        return OWNER_LISTINGS[endpoint]
    if blueprint in SCOPED_BLUEPRINTS:
        return SCOPED_BLUEPRINTS[blueprint]
    if endpoint in PLAY_ENDPOINTS or blueprint in PLAY_BLUEPRINTS:
        return PLAY
    if blueprint in PLAY_WRITE_BLUEPRINTS and method not in SAFE_METHODS:
        return PLAY
    if method in SAFE_METHODS:
        return None
    return "games"


def is_metered() -> bool:
    """True for the requests apps answer for: every ``/v1`` endpoint but the health checks."""
    endpoint = request.endpoint
    return bool(endpoint) and request.path.startswith("/v1/") and endpoint not in FREE_ENDPOINTS


def identify() -> None:
    """``before_request``: set ``g.app`` (or leave it None for free endpoints) and check its rights."""
    g.app = None
    if not is_metered():
        return
    key = request.headers.get(HEADER)
    if key is None:
        if current_app.config["REQUIRE_API_KEYS"]:
            raise ApiProblem("unauthorized", f"this service needs an app key in the {HEADER} header",
                             reason="app_key_required", headers={"WWW-Authenticate": "ApiKey"})
        g.app = local_app()
    else:
        app = keys().authenticate(key.strip())
        if app is None:
            raise ApiProblem("unauthorized", "unknown or revoked app key", reason="app_key_unknown",
                             headers={"WWW-Authenticate": "ApiKey"})
        g.app = app
    if g.app.publishable:
        _check_origin(g.app)
    needed = requirement(request.endpoint, request.method)
    if needed is not None and not may(g.app, needed):
        raise ApiProblem("forbidden", f"this app key may not do that (it needs the {needed!r} scope)",
                         reason="scope_missing", scope=needed)


def may(app: App, needed: str) -> bool:
    if app.publishable:
        return needed == PLAY
    return needed in app.scopes or "admin" in app.scopes or (needed == PLAY and "games" in app.scopes)


def _check_origin(app: App) -> None:
    """A publishable key is only good from the pages of its allowed origins."""
    origin = request.headers.get("Origin")
    if origin is None and request.headers.get("Referer"):
        parts = urlsplit(request.headers["Referer"])
        origin = f"{parts.scheme}://{parts.netloc}"
    if origin not in app.origins:
        raise ApiProblem("forbidden", "this publishable key is not allowed from this origin",
                         reason="origin_not_allowed")


def current_app_id() -> str:
    """The calling app's id (``local`` outside a metered request)."""
    app = g.get("app")
    return app.id if app is not None else LOCAL_APP_ID


def owns(owner: str | None) -> bool:
    """May the calling app manage a resource created by ``owner``? (admins may manage any)."""
    app = g.get("app")
    if app is None:
        return False
    return owner in (None, app.id) or ("admin" in app.scopes and not app.publishable)
