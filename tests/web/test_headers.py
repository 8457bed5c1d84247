"""Pages, their Content-Security-Policy, CORS and the API reference's examples (no browser needed)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from api.ground.config import from_environment

PAGES = ["/", "/table/abc123", "/replay/abc123", "/simulate", "/experiments/abc123"]
WEB = Path(__file__).resolve().parents[2] / "api" / "web"


@pytest.fixture
def make_client(redis_db_url):
    from api.app import create_app

    def make(**config):
        app = create_app({"REDIS_URL": redis_db_url, "BOT_QUEUE": None, **config})
        app.testing = True
        return app.test_client()

    return make


@pytest.mark.parametrize("path", PAGES)
def test_pages_are_served_with_a_strict_content_security_policy(make_client, path):
    response = make_client().get(path)
    assert response.status_code == 200 and response.mimetype == "text/html"
    policy = dict(part.strip().split(" ", 1) for part in response.headers["Content-Security-Policy"].split(";"))
    assert policy["script-src"] == "'self'" and policy["style-src"] == "'self'"
    assert policy["default-src"] == "'none'" and policy["connect-src"] == "'self'"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "same-origin"
    assert b"rulehouse-api-key" not in response.data  # no app key configured: the pages send none


def test_templates_and_scripts_have_nothing_inline():
    for template in (WEB / "templates").glob("*.html"):
        text = template.read_text()
        assert not re.search(r"<script(?![^>]*\bsrc=)", text), template  # every script has a src
        assert "<style" not in text and " style=" not in text and not re.search(r"\son[a-z]+=", text), template
    for script in (WEB / "static" / "js").rglob("*.js"):
        text = script.read_text()
        assert "innerHTML" not in text and "outerHTML" not in text and "insertAdjacentHTML" not in text, script
        assert "eval(" not in text and "new Function" not in text, script


def test_static_assets_and_docs_assets(make_client):
    client = make_client()
    assert client.get("/web/static/js/table.js").mimetype in ("text/javascript", "application/javascript")
    assert client.get("/web/static/css/table.css").mimetype == "text/css"
    docs = client.get("/docs")
    assert b"/docs/assets/swagger-ui-bundle.js" in docs.data and b"/openapi.json" in docs.data
    assert b"http://" not in docs.data and b"https://" not in docs.data  # nothing from elsewhere
    assert "'unsafe-inline'" not in docs.headers["Content-Security-Policy"].split("script-src")[1].split(";")[0]
    assert client.get("/docs/assets/swagger-ui-bundle.js").status_code == 200
    missing = client.get("/docs/assets/index.html")
    assert missing.status_code == 404 and missing.mimetype == "application/problem+json"


def test_cors_is_off_by_default(make_client):
    client = make_client()
    response = client.get("/v1/rulesets", headers={"Origin": "https://app.example"})
    assert response.status_code == 200 and "Access-Control-Allow-Origin" not in response.headers
    preflight = client.options("/v1/games", headers={"Origin": "https://app.example",
                                                     "Access-Control-Request-Method": "POST"})
    assert "Access-Control-Allow-Origin" not in preflight.headers
    assert "Access-Control-Allow-Methods" not in preflight.headers


def test_cors_allows_the_configured_origins_only(make_client):
    client = make_client(CORS_ALLOWED_ORIGINS="https://app.example, https://other.example/")
    response = client.get("/v1/rulesets", headers={"Origin": "https://other.example"})
    assert response.headers["Access-Control-Allow-Origin"] == "https://other.example"
    assert "ETag" in response.headers["Access-Control-Expose-Headers"]
    assert "Origin" in response.headers["Vary"]
    assert "Access-Control-Allow-Credentials" not in response.headers  # bearer tokens, never cookies
    preflight = client.options("/v1/games/abc/actions", headers={
        "Origin": "https://app.example", "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type, if-match, idempotency-key"})
    assert preflight.status_code == 204
    assert preflight.headers["Access-Control-Allow-Origin"] == "https://app.example"
    allowed = {name.strip().lower() for name in preflight.headers["Access-Control-Allow-Headers"].split(",")}
    assert {"authorization", "content-type", "if-match", "idempotency-key"} <= allowed
    assert "POST" in preflight.headers["Access-Control-Allow-Methods"]
    stranger = client.get("/v1/rulesets", headers={"Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in stranger.headers
    page = client.get("/", headers={"Origin": "https://app.example"})  # the pages are not shared
    assert "Access-Control-Allow-Origin" not in page.headers
    errors = client.get("/v1/games/nope", headers={"Origin": "https://app.example"})  # problems too, so apps read them
    assert errors.status_code == 404 and errors.headers["Access-Control-Allow-Origin"] == "https://app.example"


def test_cors_origins_come_from_the_environment():
    assert from_environment({"RULEHOUSE_CORS_ALLOWED_ORIGINS": "https://a.example"}) == {
        "CORS_ALLOWED_ORIGINS": "https://a.example"}


def test_the_reference_examples_work_as_sent(make_client):
    """Swagger UI fills the bodies and headers with the spec's examples: sent as they are, they succeed."""
    client = make_client()
    spec = yaml.safe_load((WEB.parents[1] / "openapi.yaml").read_text())
    create = spec["paths"]["/v1/games"]["post"]["requestBody"]["content"]["application/json"]["example"]
    created = client.post("/v1/games", json=create)
    assert created.status_code == 201, created.get_json()
    act = spec["paths"]["/v1/games/{game_id}/actions"]["post"]
    if_match = next(parameter["example"] for parameter in act["parameters"] if parameter["name"] == "If-Match")
    token = created.get_json()["seats"][0]["token"]
    acted = client.post(f"/v1/games/{created.get_json()['id']}/actions",
                        json=act["requestBody"]["content"]["application/json"]["example"],
                        headers={"Authorization": f"Bearer {token}", "If-Match": if_match})
    assert acted.status_code == 200, acted.get_json()
    simulate = spec["paths"]["/v1/simulations"]["post"]["requestBody"]["content"]["application/json"]["example"]
    assert client.post("/v1/simulations", json=simulate).status_code == 202


def test_the_configured_browser_key_is_written_into_every_page(make_client):
    client = make_client(WEB_API_KEY='rh_pk_"<x>')
    for path in PAGES:
        assert b'<meta name="rulehouse-api-key" content="rh_pk_&#34;&lt;x&gt;">' in client.get(path).data
