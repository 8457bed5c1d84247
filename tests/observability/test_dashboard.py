"""The RQ dashboard behind the admin token (api/observability/dashboard.py)."""

from __future__ import annotations

import base64

import pytest
import redis
from rq import Queue
from rq.job import JobStatus

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


# -- safe to leave on ------------------------------------------------------------------------

SITE = "http://localhost"  # the test client's own origin


def failed_job(redis_db_url) -> tuple[Queue, str]:
    """A job of the bots queue that failed (in RQ's failed registry, out of the queue)."""
    queue = Queue("bots", connection=redis.Redis.from_url(redis_db_url))
    job = queue.enqueue("api.service.jobs.bots.play_bot_turn", "nogame", 0)
    queue.remove(job)
    job.set_status(JobStatus.FAILED)
    queue.failed_job_registry.add(job, ttl=600, exc_string="boom")
    return queue, job.id


def as_browser(**headers: str) -> dict:
    """What the dashboard's own buttons send: its form posts, with the cached Basic credentials."""
    return {**basic("ops", TOKEN), "Content-Type": "application/x-www-form-urlencoded; charset=UTF-8", **headers}


def test_its_buttons_work_in_a_process_that_served_nothing_else_yet(redis_db_url):
    queue, job_id = failed_job(redis_db_url)
    cold = create_app({"REDIS_URL": redis_db_url, "BOT_QUEUE": "bots", "ADMIN_TOKEN": TOKEN}).test_client()
    reply = cold.post(f"/admin/rq/job/{job_id}/requeue", headers=as_browser(Origin=SITE))
    assert reply.status_code == 200 and reply.get_json()["status"] == "OK"
    assert job_id in queue.job_ids and job_id not in queue.failed_job_registry.get_job_ids()
    assert admin_post(cold, f"/admin/rq/job/{job_id}/delete", Origin=SITE).status_code == 200
    assert job_id not in queue.job_ids


def admin_post(client, path: str, **headers: str):
    return client.post(path, headers=as_browser(**headers))


def test_what_changes_the_queues_takes_post_only(admin, redis_db_url):
    queue, job_id = failed_job(redis_db_url)
    refused = admin.get("/admin/rq/requeue/bots", headers=basic("ops", TOKEN))
    assert refused.status_code == 405 and refused.headers["Allow"] == "POST"
    assert job_id in queue.failed_job_registry.get_job_ids()
    done = admin_post(admin, "/admin/rq/requeue/bots", Origin=SITE)
    assert done.status_code == 200 and done.get_json() == {"status": "OK", "count": 1}
    assert job_id in queue.job_ids


def test_another_site_cannot_lead_an_operator_s_browser_there(admin, redis_db_url):
    queue, job_id = failed_job(redis_db_url)
    for headers in ({"Origin": "https://evil.example"}, {"Origin": "null"},
                    {"Referer": "https://evil.example/page"}):
        assert admin_post(admin, "/admin/rq/requeue/bots", **headers).status_code == 403, headers
    assert admin.get("/admin/rq/0/data/queues.json",
                     headers={**basic("ops", TOKEN), "Origin": "https://evil.example"}).status_code == 403
    assert job_id in queue.failed_job_registry.get_job_ids()
    # A link from elsewhere to a page is a plain visit; curl with the token names no origin at all.
    assert admin.get("/admin/rq/", headers={**basic("ops", TOKEN), "Referer": "https://wiki.example/"}).status_code \
        == 200
    assert admin.post("/admin/rq/requeue/bots", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 200


def test_no_page_of_it_can_be_framed_or_kept(admin):
    for path in ("/admin/rq/", "/admin/rq/0/data/queues.json", "/admin/rq/nothing-here"):
        reply = admin.get(path, headers=basic("ops", TOKEN))
        assert reply.headers["Content-Security-Policy"] == "frame-ancestors 'none'", path
        assert reply.headers["X-Frame-Options"] == "DENY" and reply.headers["Cache-Control"] == "no-store"
    assert admin.get("/admin/rq/").headers["X-Frame-Options"] == "DENY"  # the 401 too
