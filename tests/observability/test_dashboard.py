"""The RQ dashboard behind the admin token (api/observability/dashboard.py)."""

from __future__ import annotations

import base64

import pytest

from api.app import create_app

TOKEN = "s3cret-admin-token-0123"


@pytest.fixture
def admin(redis_db_url):
    return create_app({"REDIS_URL": redis_db_url, "BOT_QUEUE": "bots", "ADMIN_TOKEN": TOKEN}).test_client()


def basic(user: str, password: str) -> dict:
    return {"Authorization": "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()}


def test_the_dashboard_needs_the_admin_token(admin):
    refused = admin.get("/admin/rq/")
    assert refused.status_code == 401 and refused.headers["WWW-Authenticate"].startswith("Basic")
    assert admin.get("/admin/rq/", headers={"Authorization": "Bearer wrong-token-wrong-token"}).status_code == 401
    assert admin.get("/admin/rq/0/data/queues.json", headers=basic("ops", "nope")).status_code == 401
    assert admin.get("/admin/rq/", headers={"Authorization": "Basic !!notbase64"}).status_code == 401


def test_with_the_token_it_shows_the_queues(admin):
    assert admin.get("/admin/rq/", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 200
    queues = admin.get("/admin/rq/0/data/queues.json", headers=basic("ops", TOKEN))
    assert queues.status_code == 200 and "queues" in queues.get_json()


def test_without_a_token_there_is_no_dashboard(client):
    assert client.get("/admin/rq/", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 404


def test_a_short_admin_token_is_refused_at_start(redis_db_url):
    with pytest.raises(ValueError, match="at least 16"):
        create_app({"REDIS_URL": redis_db_url, "ADMIN_TOKEN": "short"})
