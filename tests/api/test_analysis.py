"""Game analysis outside the engine: ``rulehouse analyse`` and ``GET /v1/games/{id}/analysis``."""

from __future__ import annotations

import json
import time

import pytest
import redis as redis_lib
from rq import Queue

from api.analysis.computing import PROGRESS_SECONDS, PROGRESS_STEP, ProgressWriter, analysis_job_id
from api.analysis.routes import reservation
from api.cli import main as cli_main
from api.play.game_keys import analysis_costs_key, analysis_key, analysis_progress_key
from api.service.jobs.analysis import compute_analysis
from engine.analysis.game import ANALYSIS_FORMAT, analyse
from engine.analysis.report import describe
from tests.api.helpers import assert_problem, auth
from tests.api.test_records import create, drive, record_of
from tests.engine.test_analysis import finished_record


def test_rulehouse_analyse_tells_a_record_in_words_or_as_json_and_refuses_an_unfinished_one(tmp_path, capsys):
    record = finished_record("monopoly-cars2", 3)  # a short game: format 2 plays out every option
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    assert cli_main(["analyse", str(path)]) == 0
    told = capsys.readouterr().out
    assert "Key moments" in told and "Costliest move" in told and "Luck-skill split" in told and "drift" in told
    assert cli_main(["analyse", "--json", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == analyse(record)
    path.write_text(json.dumps(dict(record, log=record["log"][:4], status="active", result=None, version=4)))
    assert cli_main(["analyse", str(path)]) == 2
    assert "(not_finished)" in capsys.readouterr().err
    path.write_text("{not json")
    assert cli_main(["analyse", str(path)]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_the_text_report_tells_each_seats_drift_and_costly_moves_and_the_costliest_ones_interval():
    analysis = analyse(finished_record("monopoly-cars2", 3))
    lines = describe(analysis)
    header = next(index for index, line in enumerate(lines) if line.split()[:2] == ["seat", "start"])
    assert lines[header].split()[7] == "drift" and lines[header].split()[-1] == "costly"
    rows = [line.split() for line in lines[header + 1:]]
    assert [(row[7], int(row[-1])) for row in rows] == [
        (f"{100 * part['drift']:+.1f}", part["costly_moves"]) for part in analysis["split"]]
    costly = sum(move["costly"] for move in analysis["moves"])
    assert f"Costly moves: {costly} of {len(analysis['moves'])} moves" in "\n".join(lines)
    # The costliest costly move is told with its interval (the game's costliest move, marked costly to be told).
    move = max(analysis["moves"], key=lambda move: move["cost"])
    low, high = move["cost_ci95"]
    told = "\n".join(describe(dict(analysis, costliest_move=dict(move, costly=True))))
    assert f"{100 * move['cost']:.1f} points (95% interval {100 * low:.1f} to {100 * high:.1f})" in told


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


def test_an_analysis_of_an_older_format_is_never_served_the_game_is_analysed_anew(client, app, analysis_queue):
    """A deploy that changes the analysis format (``ANALYSIS_FORMAT``) leaves the older analyses in Redis: they
    are not read (nor their costs), the first ask queues the current format's job and is charged for it, a
    job queued under the older format before the deploy gives its charge back, and deleting the game deletes
    them all."""
    game = create(client, TWO)
    drive(client, app, game, seed=4)
    store, game_id = app.extensions["rulehouse.store"], game["id"]
    # Format 1's layout: no format in the keys, job and charge ``analysis-<game>``.
    old_key, old_costs_key = f"game:{{{game_id}}}:analysis", f"game:{{{game_id}}}:analysis:costs"
    old_body = {"game_id": game_id, "version": 0, "status": "ready", "format": 1, "split": []}
    store.redis.set(old_key, json.dumps(old_body))
    store.redis.set(old_costs_key, json.dumps([[3, 0.5], [3, 0.0]]))
    assert ANALYSIS_FORMAT > 1 and analysis_key(game_id) != old_key
    assert store.analyses.get(game_id) is None and store.analyses.costs([game_id]) == [None]
    url = f"/v1/games/{game_id}/analysis"
    pending = client.get(url)
    assert pending.status_code == 202 and pending.get_json()["progress"] is None  # queued, not started
    job_id = analysis_job_id(game_id)
    assert analysis_queue.job_ids == [job_id] and job_id != f"analysis-{game_id}"
    reserved = reservation(store.load(game_id))
    assert search_work(client) == reserved
    # A job of format 1 queued before the deploy runs now: it neither computes nor stores, and gives back
    # its own charge (here reserved as that job's ask did) without touching the current one.
    old_charge = f"analysis-{game_id}"
    assert ownership_reserve(app, old_charge, 1000) and search_work(client) == reserved + 1000
    assert compute_analysis(game_id, old_charge, store=store).startswith("outdated")
    assert search_work(client) == reserved and store.analyses.get(game_id) == job_id
    assert compute_analysis(game_id, job_id, "local", reserved, store=store).startswith("ready")
    body = client.get(url).get_json()
    assert body["status"] == "ready" and body["format"] == ANALYSIS_FORMAT
    assert json.loads(store.analyses.costs([game_id])[0]) == [[seat["decisions"], seat["cost"]]
                                                             for seat in body["split"]]
    assert search_work(client) == body["work"]
    store.delete(game_id)
    assert not store.redis.exists(old_key, old_costs_key, analysis_key(game_id), analysis_costs_key(game_id))


def ownership_reserve(app, charge_id: str, bound: int) -> bool:
    """Reserve ``bound`` under ``charge_id`` for the local app, as an ask of the analysis does."""
    from api.apps import ownership

    with app.test_request_context():
        return ownership.claim_search(ownership.current_app_id(), bound, charge_id) is not None


def test_a_running_analysis_writes_its_progress_at_a_bounded_rate_and_only_its_own_is_told(app):
    store, game_id = app.extensions["rulehouse.store"], "progressing"
    write, entries = ProgressWriter(store, game_id, "the-job"), 2000
    started, seen = time.monotonic(), []
    for done in range(1, entries + 1):
        write(done, entries)
        seen.append(store.analyses.progress(game_id, "the-job")["entries_done"])
    elapsed = time.monotonic() - started
    writes = len(set(seen))
    # The first entry, then at most one write a second and one every twentieth of the log.
    assert round(1 / PROGRESS_STEP) <= writes <= 1 + round(1 / PROGRESS_STEP) + int(elapsed / PROGRESS_SECONDS) + 1
    assert seen == sorted(seen) and seen[0] == 1
    assert store.analyses.progress(game_id, "the-job")["entries"] == entries
    assert store.analyses.progress(game_id, "another-job") is None  # a replaced job's progress is not told
    assert 0 < store.redis.ttl(analysis_progress_key(game_id)) <= store.queues.analysis_timeout
