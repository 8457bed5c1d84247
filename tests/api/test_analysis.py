"""Game analysis outside the engine: ``rulehouse analyse`` and ``GET /v1/games/{id}/analysis``."""

from __future__ import annotations

import json

import pytest
import redis as redis_lib
from rq import Queue

from api.analysis.computing import analysis_job_id
from api.analysis.routes import reservation
from api.cli import main as cli_main
from api.service.jobs.analysis import compute_analysis
from engine.analysis.game import analyse
from tests.api.helpers import assert_problem, auth
from tests.api.test_records import create, drive, record_of
from tests.engine.test_analysis import finished_record


def test_rulehouse_analyse_tells_a_record_in_words_or_as_json_and_refuses_an_unfinished_one(tmp_path, capsys):
    record = finished_record("whipcash", 3)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    assert cli_main(["analyse", str(path)]) == 0
    told = capsys.readouterr().out
    assert "Key moments" in told and "Costliest move" in told and "Luck-skill split" in told
    assert cli_main(["analyse", "--json", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == analyse(record)
    path.write_text(json.dumps(dict(record, log=record["log"][:4], status="active", result=None, version=4)))
    assert cli_main(["analyse", str(path)]) == 2
    assert "(not_finished)" in capsys.readouterr().err
    path.write_text("{not json")
    assert cli_main(["analyse", str(path)]) == 2
    assert "cannot read" in capsys.readouterr().err


# -- the service ----------------------------------------------------------------------------------

TWO = {"ruleset": "whipcash", "seats": [{"name": "Ann"}, {"name": "Bob"}], "seed": 4}


@pytest.fixture
def analysis_queue(redis_db_url) -> Queue:
    return Queue("analysis", connection=redis_lib.Redis.from_url(redis_db_url))


def search_work(client) -> int:
    return client.get("/v1/apps/me").get_json()["usage"]["search_work_today"]


def test_a_live_or_waiting_game_has_no_analysis_and_an_unknown_one_is_404(client, analysis_queue):
    game = create(client, TWO)
    body = assert_problem(client.get(f"/v1/games/{game['id']}/analysis"), 409, "illegal-action")
    assert body["reason"] == "not_finished" and body["version"] == 0
    waiting = create(client, {"ruleset": "whipcash", "seats": [{"name": "Ann"}, {"open": True}]})
    assert assert_problem(client.get(f"/v1/games/{waiting['id']}/analysis"), 409,
                          "illegal-action")["reason"] == "not_started"
    assert_problem(client.get("/v1/games/nosuchgame/analysis"), 404, "not-found")
    assert_problem(client.get(f"/v1/games/{game['id']}/analysis?wait=11"), 422, "validation-error")
    assert analysis_queue.count == 0 and search_work(client) == 0  # none of these queued or cost anything


def test_a_finished_games_analysis_is_queued_once_charged_by_its_work_and_equals_its_records(
        client, app, analysis_queue):
    game = create(client, TWO)
    drive(client, app, game, seed=4)
    url = f"/v1/games/{game['id']}/analysis"
    pending = client.get(url)
    assert pending.status_code == 202 and pending.headers["Retry-After"] == "2"
    assert pending.get_json()["status"] == "pending" and pending.headers["Location"] == url
    job_id = analysis_job_id(game["id"])
    assert analysis_queue.job_ids == [job_id]
    shown = client.get(f"/v1/games/{game['id']}").get_json()
    assert shown["status"] == "finished"
    reserved = reservation(app.extensions["rulehouse.store"].load(game["id"]))
    assert search_work(client) == reserved  # the first ask reserves the work bound
    assert client.get(url).status_code == 202 and analysis_queue.job_ids == [job_id]  # asked once
    store = app.extensions["rulehouse.store"]
    assert compute_analysis(game["id"], job_id, "local", reserved, store=store).startswith("ready")
    ready = client.get(url)
    assert ready.status_code == 200 and ready.headers["ETag"] == f'"{shown["version"]}"'
    body = ready.get_json()
    assert (body["game_id"], body["version"], body["status"]) == (game["id"], shown["version"], "ready")
    analysed = analyse(record_of(client, game["id"]))
    assert {key: value for key, value in body.items() if key not in ("game_id", "version", "status")} == analysed
    assert search_work(client) == analysed["work"] > 0  # settled: the work done, not the bound
    assert client.get(url, headers={"If-None-Match": ready.headers["ETag"]}).status_code == 304
    # Deleting the game deletes its analysis.
    assert json.loads(store.analyses.costs([game["id"]])[0]) == [
        [seat["decisions"], seat["cost"]] for seat in analysed["split"]]  # what a player's move_cost reads
    store.delete(game["id"])
    assert store.analyses.get(game["id"]) is None and store.analyses.costs([game["id"]]) == [None]


def test_a_record_the_analysis_cannot_read_is_a_422_with_its_reason(client, app, toy_ruleset, analysis_queue):
    game = create(client, {"ruleset": toy_ruleset.id, "seats": [{"name": "a"}, {"name": "b"}], "seed": 1,
                           "options": {"rounds": 1}})
    drive(client, app, game, seed=1)
    url = f"/v1/games/{game['id']}/analysis"
    assert client.get(url).status_code == 202
    store = app.extensions["rulehouse.store"]
    reserved = reservation(store.load(game["id"]))
    assert compute_analysis(game["id"], analysis_job_id(game["id"]), "local", reserved, store=store) == \
        "failed: 0 engine actions"
    body = assert_problem(client.get(url), 422, "validation-error")
    assert body["reason"] == "no_value_model" and "value model" in body["detail"]
    assert search_work(client) == 0  # nothing was done, nothing is charged


def test_the_analysis_is_charged_to_the_calling_app_not_to_the_games(keyed_app, keyed_client, keys):
    from api.play.moves import load_state
    from engine.core.registry import get_ruleset
    from engine.core.rng import Rng

    app, client = keyed_app, keyed_client
    owner_id, owner = keys.create_app("Owner")
    _, frugal = keys.create_app("Frugal", quotas={"search_work_per_day": 100})
    analyst_id, analyst = keys.create_app("Analyst")
    game = client.post("/v1/games", json=TWO, headers={"X-Api-Key": owner}).get_json()
    store, ruleset, chooser = app.extensions["rulehouse.store"], get_ruleset("whipcash"), Rng(1)
    while (record := store.load(game["id"])).status != "finished":
        decision = ruleset.pending(load_state(ruleset, record))[0]
        token = game["seats"][decision.seat]["token"]
        reply = client.post(f"/v1/games/{game['id']}/actions", json=ruleset.bot("random").act(None, decision, chooser),
                            headers={"X-Api-Key": owner, **auth(token), "If-Match": f'"{record.version}"'})
        assert reply.status_code == 200, reply.get_json()

    def used(key: str) -> int:
        return client.get("/v1/apps/me", headers={"X-Api-Key": key}).get_json()["usage"]["search_work_today"]

    url = f"/v1/games/{game['id']}/analysis"
    refused = assert_problem(client.get(url, headers={"X-Api-Key": frugal}), 403, "quota-exceeded")
    assert refused["reason"] == "quota_search_work_per_day" and used(frugal) == 0
    assert client.get(url, headers={"X-Api-Key": analyst}).status_code == 202
    reserved = reservation(record)
    assert (used(analyst), used(owner)) == (reserved, 0)
    assert compute_analysis(game["id"], analysis_job_id(game["id"]), analyst_id, reserved, store=store)
    ready = client.get(url, headers={"X-Api-Key": owner})  # asked: the owner reads it for nothing
    assert ready.status_code == 200
    assert (used(analyst), used(owner)) == (ready.get_json()["work"], 0) and owner_id != analyst_id
