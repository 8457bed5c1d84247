"""One job and one charge per computation (docs/apps.md, "Quotas"): asks of one analysis or one hint released
together by a barrier, against two gunicorn processes and real workers, queue one job between them and
charge the app the work that job did, never a second reservation."""

from __future__ import annotations

import requests

from api.analysis.computing import analysis_job_id
from api.hints.computing import HINT_BOT, HINT_SEED_STREAM
from engine.core.registry import get_ruleset
from engine.core.rng import Rng, derive_seed
from tests.api.helpers import api_key, auth
from tests.processes import together, wait_for

ASKS = 12
TIMEOUT = 120


def jobs_of(redis, prefix: str) -> list[str]:
    """Every RQ job ever queued under ids starting with ``prefix`` (their hashes outlive them a minute)."""
    return sorted(key.decode()[len("rq:job:"):] for key in redis.scan_iter(f"rq:job:{prefix}*"))


def search_work(server: str, key: str) -> int:
    return requests.get(f"{server}/v1/apps/me", headers=api_key(key), timeout=30).json()["usage"]["search_work_today"]


def test_asks_of_one_analysis_released_together_queue_one_job_charged_its_work(server, keys, workers, redis):
    _, owner = keys.create_app("Table")
    _, analyst = keys.create_app("Analyst")
    workers.start(1, "--queues", "bots")
    game = requests.post(f"{server}/v1/games", headers=api_key(owner), timeout=30, json={
        "ruleset": "whipcash", "seats": [{"bot": "random"}, {"bot": "heuristic"}], "seed": 11}).json()
    wait_for(lambda: requests.get(f"{server}/v1/games/{game['id']}", headers=api_key(owner),
                                  timeout=30).json()["status"] == "finished", TIMEOUT)
    url = f"{server}/v1/games/{game['id']}/analysis"
    replies = together(ASKS, lambda _: requests.get(url, headers=api_key(analyst), timeout=30))
    assert {reply.status_code for reply in replies} == {202}, [reply.text for reply in replies]
    assert len(jobs_of(redis, analysis_job_id(game["id"]))) == 1
    workers.start(1, "--queues", "analysis")
    body = wait_for(lambda: (r := requests.get(f"{url}?wait=5", headers=api_key(analyst), timeout=30)).status_code
                    == 200 and r.json(), TIMEOUT)
    assert len(jobs_of(redis, analysis_job_id(game["id"]))) == 1
    assert body["work"] > 0 and wait_for(lambda: search_work(server, analyst) == body["work"], 10)


def test_asks_of_one_hint_released_together_queue_one_job_charged_its_search(server, keys, workers, redis):
    _, key = keys.create_app("Coach")
    game = requests.post(f"{server}/v1/games", headers=api_key(key), timeout=30, json={
        "ruleset": "whipcash", "seats": [{"name": "Ann"}, {"name": "Bob"}], "seed": 7, "hints": True}).json()
    seat = requests.get(f"{server}/v1/games/{game['id']}", headers=api_key(key), timeout=30).json()["waiting_for"][0]
    asker = {**api_key(key), **auth(game["seats"][seat]["token"])}
    url = f"{server}/v1/games/{game['id']}/hint"
    replies = together(ASKS, lambda _: requests.get(url, headers=asker, timeout=30))
    assert {reply.status_code for reply in replies} == {202}, [reply.text for reply in replies]
    assert len(jobs_of(redis, f"hint-{game['id']}-{seat}-0")) == 1
    workers.start(1, "--queues", "search")
    wait_for(lambda: requests.get(f"{url}?wait=5", headers=asker, timeout=30).status_code == 200, TIMEOUT)
    ruleset = get_ruleset("whipcash")
    state = ruleset.new_game(2, {}, 7)
    decision = next(d for d in ruleset.pending(state) if d.seat == seat)
    searched = ruleset.bot(HINT_BOT).analyse(state, decision, Rng(derive_seed(7, HINT_SEED_STREAM, seat, 0)))
    assert len(jobs_of(redis, f"hint-{game['id']}-{seat}-0")) == 1
    assert wait_for(lambda: search_work(server, key) == searched["actions"] > 0, 10)
