"""Game analyses on real RQ workers: on their own queue, so a search bot's game never waits for one."""

from __future__ import annotations

from rq import Queue
from rq.job import Job

from api.analysis.computing import analysis_job_id
from engine.analysis.game import analyse
from tests.processes import wait_for
from tests.workers.test_search import GAME_TIMEOUT, SEARCHING, finished

QUICK = {"ruleset": "whipcash", "seed": 5, "seats": [{"bot": "heuristic"}, {"bot": "heuristic"}]}


def test_an_analysis_waits_on_its_own_queue_and_a_search_bots_game_goes_on_meanwhile(app, workers, redis):
    client = app.test_client()
    workers.start(1, "--queues", "bots")
    done = client.post("/v1/games", json=QUICK).get_json()
    wait_for(lambda: finished(client, done["id"]), GAME_TIMEOUT)
    url = f"/v1/games/{done['id']}/analysis"
    assert client.get(url).status_code == 202
    analysis_queue = Queue("analysis", connection=redis)
    assert analysis_queue.job_ids == [analysis_job_id(done["id"])]
    # A search worker takes searches only: a searching bots' game plays to its end past the waiting analysis.
    workers.start(1, "--queues", "search")
    searching = client.post("/v1/games", json=SEARCHING).get_json()
    wait_for(lambda: finished(client, searching["id"]), GAME_TIMEOUT)
    assert client.get(url).status_code == 202 and analysis_queue.job_ids == [analysis_job_id(done["id"])]
    # An analysis worker comes: the analysis is the record's.
    workers.start(1, "--queues", "analysis")
    reply = wait_for(lambda: (r := client.get(f"{url}?wait=5")).status_code == 200 and r, GAME_TIMEOUT)
    body = reply.get_json()
    assert Job.fetch(analysis_job_id(done["id"]), connection=redis).origin == "analysis"
    record = client.get(f"/v1/games/{done['id']}/record").get_json()
    assert {key: value for key, value in body.items() if key not in ("game_id", "version", "status")} == \
        analyse(record)


def test_a_running_analysis_answers_202_with_how_far_it_is(app, workers, redis, monkeypatch, tmp_path):
    """The job writes its progress as it goes (api/service/jobs/analysis.py): held at a test-only pause point
    once it wrote its first, the 202 tells it; released, the progress grows until the 200."""
    client = app.test_client()
    workers.start(1, "--queues", "bots")
    done = client.post("/v1/games", json=QUICK).get_json()
    wait_for(lambda: finished(client, done["id"]), GAME_TIMEOUT)
    entries = len(client.get(f"/v1/games/{done['id']}/record").get_json()["log"])
    url = f"/v1/games/{done['id']}/analysis"
    queued = client.get(url)
    assert queued.status_code == 202 and queued.get_json()["progress"] is None  # no analysis worker yet
    marker = tmp_path / "analysis-progress.pid"
    monkeypatch.setenv("RULEHOUSE_TEST_PAUSE", f"analysis-progress:{marker}")
    workers.start(1, "--queues", "analysis")
    monkeypatch.delenv("RULEHOUSE_TEST_PAUSE")
    wait_for(marker.exists, GAME_TIMEOUT)
    held = client.get(url)
    assert held.status_code == 202 and held.get_json()["status"] == "pending"
    assert held.get_json()["progress"] == {"entries_done": 1, "entries": entries}
    marker.unlink()
    told = [1]

    def answered():
        reply = client.get(f"{url}?wait=1")
        if reply.status_code == 202:
            told.append(reply.get_json()["progress"]["entries_done"])
        return reply.status_code == 200 and reply
    body = wait_for(answered, GAME_TIMEOUT).get_json()
    assert body["status"] == "ready" and body["entries"] == entries
    assert told == sorted(told) and told[-1] <= entries
