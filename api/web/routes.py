"""Pages of the web table and the API reference (Swagger UI), with a strict Content-Security-Policy.

Every page is a static shell: its module script reads the game id from the path and calls
the public API. Nothing here reads a game: the pages have no back door the API lacks.
"""

from __future__ import annotations

from pathlib import Path

import swagger_ui_bundle
from flask import Blueprint, Response, current_app, render_template, send_from_directory

from api.http.helpers import reads_no_game
from api.http.problems import ApiProblem

blp = Blueprint("web", __name__, template_folder="templates", static_folder="static",
                static_url_path="/web/static")

SWAGGER_UI_DIR = Path(swagger_ui_bundle.swagger_ui_path)
#: Only what Swagger UI's page loads (the bundle also ships its own index page and source maps).
SWAGGER_UI_ASSETS = frozenset({"swagger-ui.css", "swagger-ui-bundle.js", "favicon-32x32.png", "favicon-16x16.png"})

#: Scripts and styles from this server only: no inline script, no inline style, no eval.
#: ``connect-src 'self'``: a page talks to this service's API and nothing else.
PAGE_POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
               "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
#: Swagger UI (React) sets style attributes on its own elements, so its page alone allows inline styles;
#: scripts stay as strict as everywhere else.
DOCS_POLICY = PAGE_POLICY.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")


@blp.after_request
def security_headers(response: Response) -> Response:
    response.headers.setdefault("Content-Security-Policy", PAGE_POLICY)
    response.headers["X-Content-Type-Options"] = "nosniff"
    # Same-origin requests keep their Referer (a browser-safe app key is checked against the page's
    # origin, and same-origin GETs carry no Origin header); nothing leaks to other sites.
    response.headers["Referrer-Policy"] = "same-origin"
    return response


def _page(template: str, title: str, script: str) -> Response:
    page = render_template(template, title=title, script=script, api_key=current_app.config["WEB_API_KEY"])
    return Response(page, mimetype="text/html")


@blp.route("/")
def lobby() -> Response:
    return _page("lobby.html", "Rulehouse lobby", "lobby.js")


@blp.route("/table/<game_id>")
@reads_no_game
def table(game_id: str) -> Response:
    return _page("table.html", "Rulehouse table", "table.js")


@blp.route("/replay/<game_id>")
@reads_no_game
def replay(game_id: str) -> Response:
    return _page("replay.html", "Rulehouse replay", "replay.js")


@blp.route("/analysis/<game_id>")
@reads_no_game
def analysis(game_id: str) -> Response:
    return _page("analysis.html", "Rulehouse analysis: was it luck?", "analysis.js")


@blp.route("/tournament/<tournament_id>")
def tournament(tournament_id: str) -> Response:
    return _page("tournament.html", "Rulehouse tournament", "tournament.js")


@blp.route("/leaderboard/<ruleset_id>")
def leaderboard(ruleset_id: str) -> Response:
    return _page("leaderboard.html", "Rulehouse leaderboard", "leaderboard.js")


@blp.route("/player/<player_id>")
def player(player_id: str) -> Response:
    return _page("player.html", "Rulehouse player", "player.js")


@blp.route("/tournaments/new")
def new_tournament() -> Response:
    return _page("new_tournament.html", "Rulehouse: new tournament", "new_tournament.js")


@blp.route("/experiments/new")
def new_experiment() -> Response:
    return _page("new_experiment.html", "Rulehouse: new experiment", "new_experiment.js")


@blp.route("/simulate")
def simulate() -> Response:
    return _page("simulate.html", "Rulehouse simulations", "simulate.js")


@blp.route("/experiments/<exp_id>")
def experiment(exp_id: str) -> Response:
    return _page("experiment.html", "Rulehouse experiment", "experiment.js")


@blp.route("/docs")
def docs() -> Response:
    response = Response(render_template("docs.html"), mimetype="text/html")
    response.headers["Content-Security-Policy"] = DOCS_POLICY
    return response


@blp.route("/docs/assets/<name>")
def docs_asset(name: str) -> Response:
    if name not in SWAGGER_UI_ASSETS:
        raise ApiProblem("not-found", f"no asset {name!r}")
    return send_from_directory(SWAGGER_UI_DIR, name, max_age=3600)
