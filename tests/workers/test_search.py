"""Searches on real RQ workers: hints, search bot seats on their own queue, simulations with search bots."""

from __future__ import annotations

import json
import signal
import time
from datetime import timedelta

import pytest
from rq import Queue
from rq.job import Job
from rq.timeouts import JobTimeoutException, UnixSignalDeathPenalty
from rq.utils import now, utcformat

from api.app import create_app
from api.hints.computing import HINT_BOT, HINT_SEED_STREAM, hint_job_id, hint_options
from api.service.jobs.bots import play_bot_turn
from engine.core.decisions import Decision
from engine.core.registry import get_ruleset
from engine.core.rng import Rng, derive_seed
from tests.api.helpers import auth
from tests.processes import run_cli, wait_for

GAME_TIMEOUT = 90
#: Two people at a Whipca$h table: with seed 7 Ann (seat 0) rolls first, one die or two.
HINTED = {"ruleset": "whipcash", "seats": [{"name": "Ann"}, {"name": "Bob"}], "seed": 7, "hints": True}
#: A tiny game of two searching bots.
SEARCHING = {"ruleset": "whipcash", "seats": [{"bot": "mcts-1"}, {"bot": "mcts-1"}], "seed": 3,
             "options": {"turn_cap": 3}}


@pytest.fixture
def client(app):
    return app.test_client()


def finished(client, game_id: str) -> dict | None:
    game = client.get(f"/v1/games/{game_id}").get_json()
    return game if game["status"] == "finished" else None


def assert_replays(app, game_id: str, body: dict) -> None:
    """The stored action log, replayed on the engine, gives the stored state."""
    store = app.extensions["rulehouse.store"]
    ruleset = get_ruleset(body["ruleset"])
    state = ruleset.new_game(len(body["seats"]), body.get("options"), body["seed"])
    log = store.action_log(game_id)
    for seat, action in log:
        ruleset.apply(state, seat, action)
    assert json.loads(store.load(game_id).state) == ruleset.to_dict(state)


def test_a_search_worker_computes_a_hint_once_from_the_seats_view(client, workers, redis):
    workers.start(1, "--queues", "search")
    game = client.post("/v1/games", json=HINTED).get_json()
    ann = game["seats"][0]["token"]
    url = f"/v1/games/{game['id']}/hint?wait=10"
    reply = wait_for(lambda: (r := client.get(url, headers=auth(ann))).status_code == 200 and r, GAME_TIMEOUT)
    hint = reply.get_json()
    assert reply.headers["ETag"] == '"0.0"' and reply.headers["Cache-Control"] == "private"
    assert (hint["status"], hint["seat"], hint["version"], hint["bot"]) == ("ready", 0, 0, HINT_BOT)
    # Every candidate is a legal answer to Ann's decision, the suggestion among them.
    listed = client.get(f"/v1/games/{game['id']}/decisions", headers=auth(ann)).get_json()["decisions"][0]
    decision = Decision.from_dict(listed)
    assert hint["decision"] == listed["id"]
    assert all(decision.allows(option["action"]) for option in hint["options"])
    assert hint["action"] in [option["action"] for option in hint["options"]]
    assert hint["iterations"] > 1 and sum(option["visits"] for option in hint["options"]) == hint["iterations"]
    assert all(option["value"] is None or 0 <= option["value"] <= 1 for option in hint["options"])
    # Reproducible: the search of Ann's decision with the hint's own seed, outside the service.
    ruleset = get_ruleset("whipcash")
    state = ruleset.new_game(2, {}, HINTED["seed"])
    again = ruleset.bot(HINT_BOT).analyse(state, ruleset.pending(state)[0],
                                          Rng(derive_seed(HINTED["seed"], HINT_SEED_STREAM, 0, 0)))
    assert (again["action"], hint_options(again)) == (hint["action"], hint["options"])
    # Asked twice, computed once: the same answer, no second job.
    second = client.get(url, headers=auth(ann))
    assert second.status_code == 200 and second.get_json() == hint
    assert client.get(url, headers={**auth(ann), "If-None-Match": '"0.0"'}).status_code == 304
    assert sorted(key.decode() for key in redis.keys("rq:job:hint-*")) == [
        f"rq:job:{hint_job_id(game['id'], 0, 0)}"]
    # Ann follows the hint; her hint is now public.
    moved = client.post(f"/v1/games/{game['id']}/actions", json=hint["action"],
                        headers={**auth(ann), "If-Match": f'"d:{hint["decision"]}"'})
    assert moved.status_code == 200, moved.get_json()
    assert client.get(f"/v1/games/{game['id']}").get_json()["hint_counts"] == [1, 0]
    assert client.get(f"/v1/games/{game['id']}/record").get_json()["hint_counts"] == [1, 0]


def test_search_bots_play_on_their_own_queue_and_quick_bots_never_wait_for_them(client, app, workers, redis):
    workers.start(1, "--queues", "bots")
    searching = client.post("/v1/games", json=SEARCHING).get_json()
    search_queue = Queue("search", connection=redis)
    assert search_queue.job_ids == [f"bot-{searching['id']}-0"]
    job = Job.fetch(f"bot-{searching['id']}-0", connection=redis)
    assert job.timeout == app.config["SEARCH_JOB_TIMEOUT"]
    # No worker searches: a game of quick bots still plays to its end on the bots queue.
    quick = client.post("/v1/games", json={"ruleset": "monopoly-cars2", "seed": 5,
                                           "seats": [{"bot": "heuristic"}, {"bot": "random"}]}).get_json()
    wait_for(lambda: finished(client, quick["id"]), GAME_TIMEOUT)
    assert client.get(f"/v1/games/{searching['id']}").get_json()["version"] == 0
    assert search_queue.job_ids == [f"bot-{searching['id']}-0"]
    # A search worker comes: the searching game plays itself out, every move on the search queue.
    workers.start(1, "--queues", "search")
    game = wait_for(lambda: finished(client, searching["id"]), GAME_TIMEOUT)
    assert_replays(app, searching["id"], SEARCHING)
    def origins(game_id: str) -> set[str]:
        return {Job.fetch(key.decode().removeprefix("rq:job:"), connection=redis).origin
                for key in redis.keys(f"rq:job:bot-{game_id}-*")}

    assert origins(searching["id"]) == {"search"} and origins(quick["id"]) == {"bots"}
    # Each searching move counts against the game's app (here the local one): the engine actions its
    # search played, within the level's bound per move (tests/workers/test_accounting.py: exactly).
    cost = type(get_ruleset("whipcash").bot("mcts-1")).cost_per_move
    usage = client.get("/v1/apps/me").get_json()["usage"]
    assert 0 < usage["search_work_today"] < cost * game["version"]


def test_a_human_deadline_still_passes_beside_a_searching_bot(client, app, workers):
    workers.start(1, "--queues", "search")
    workers.start(1, "--queues", "bots,webhooks")  # sweeps the deadlines too
    body = {"ruleset": "whipcash", "seed": 7, "decision_timeout": 1,
            "seats": [{"name": "Ann"}, {"bot": "mcts-1"}]}
    game = client.post("/v1/games", json=body).get_json()

    def twice_timed_out() -> list[dict] | None:
        events = client.get(f"/v1/games/{game['id']}/events?limit=1000").get_json()["events"]
        found = [entry["event"] for entry in events if entry["event"]["type"] == "timed_out"]
        return found if len(found) >= 2 else None

    # Ann never answers: her default is played, the bot's search answers, Ann times out again.
    defaults = wait_for(twice_timed_out, GAME_TIMEOUT)
    assert {event["seat"] for event in defaults} == {0}
    assert 1 in {seat for seat, _ in app.extensions["rulehouse.store"].action_log(game["id"])}


def test_a_started_search_job_is_alive_for_its_timeout_a_quick_one_for_the_lease(app, client, redis):
    store = app.extensions["rulehouse.store"]
    searching = client.post("/v1/games", json=SEARCHING).get_json()
    quick = client.post("/v1/games", json={"ruleset": "whipcash", "seed": 3,
                                           "seats": [{"bot": "random"}, {"bot": "random"}]}).get_json()

    def started(game_id: str, seconds_ago: float) -> str:
        job = Job.fetch(f"bot-{game_id}-0", connection=redis)
        redis.hset(job.key, mapping={"status": "started",
                                     "started_at": utcformat(now() - timedelta(seconds=seconds_ago))})
        return job.id

    later = store.queues.bot_job_lease + 5
    assert store.job_alive(started(searching["id"], later))
    assert not store.job_alive(started(quick["id"], later))
    assert not store.job_alive(started(searching["id"], store.queues.search_timeout + store.queues.bot_job_lease + 1))


#: Searches long enough to kill their worker in the middle (Hitchiker's deepest search, its first pick).
LONG_SEARCH = {"ruleset": "hitchiker", "seed": 4, "seats": [{"bot": "mcts-5"}, {"bot": "mcts-5"}]}
#: A search job timeout far above what the re-queue must take: the old wait was timeout + lease.
LONG_TIMEOUT = 300
#: After a kill: the heartbeat lease, a sweep or an ask, and the new worker's own search.
REQUEUED_WITHIN = 90


def kill_when_started(redis, job_id: str, worker) -> float:
    wait_for(lambda: redis.hget(Job.key_for(job_id), "status") == b"started", timeout=GAME_TIMEOUT, interval=0.02)
    worker.send_signal(signal.SIGKILL)
    worker.wait()
    return time.monotonic()


@pytest.mark.timeout(300)
def test_the_move_of_a_killed_search_worker_is_played_within_seconds_not_after_its_timeout(redis_db_url, workers,
                                                                                           redis):
    app = create_app({"REDIS_URL": redis_db_url, "BOT_QUEUE": "bots", "SEARCH_JOB_TIMEOUT": LONG_TIMEOUT})
    client, store = app.test_client(), app.extensions["rulehouse.store"]
    [searcher] = workers.start(1, "--queues", "search")
    game = client.post("/v1/games", json=LONG_SEARCH).get_json()
    killed_at = kill_when_started(redis, f"bot-{game['id']}-0", searcher)
    assert store.load(game["id"]).version == 0  # killed in the middle of its search
    workers.start(1, "--queues", "bots,search")  # sweeps, and takes the move queued again
    wait_for(lambda: store.load(game["id"]).version >= 1, timeout=REQUEUED_WITHIN, interval=0.2)
    assert time.monotonic() - killed_at < REQUEUED_WITHIN < LONG_TIMEOUT
    assert len(store.action_log(game["id"])) == store.load(game["id"]).version  # each move once


@pytest.mark.timeout(300)
def test_a_hint_lost_with_its_worker_is_queued_again_by_the_next_ask(redis_db_url, workers, redis):
    app = create_app({"REDIS_URL": redis_db_url, "BOT_QUEUE": "bots", "SEARCH_JOB_TIMEOUT": LONG_TIMEOUT})
    client = app.test_client()
    [searcher] = workers.start(1, "--queues", "search")
    game = client.post("/v1/games", json={**LONG_SEARCH, "seats": [{"name": "Ann"}, {"name": "Bo"}],
                                          "hints": True}).get_json()
    seat = client.get(f"/v1/games/{game['id']}/decisions").get_json()["waiting_for"][0]
    token = next(entry["token"] for entry in game["seats"] if entry["seat"] == seat)
    url = f"/v1/games/{game['id']}/hint"
    assert client.get(url, headers=auth(token)).status_code == 202
    killed_at = kill_when_started(redis, hint_job_id(game["id"], seat, 0), searcher)
    assert not app.extensions["rulehouse.store"].hints.get(game["id"], seat, 0).startswith("{")  # not done
    workers.start(1, "--queues", "search")
    reply = wait_for(lambda: (r := client.get(url + "?wait=2", headers=auth(token))).status_code == 200 and r,
                     timeout=REQUEUED_WITHIN, interval=0.5)
    assert reply.get_json()["status"] == "ready" and time.monotonic() - killed_at < REQUEUED_WITHIN


def test_a_search_that_runs_out_of_time_still_moves_its_seat(app, client, monkeypatch):
    from engine.bots import search

    game = client.post("/v1/games", json=SEARCHING).get_json()
    monkeypatch.setitem(search.LEVEL_WORLDS, 1, 10**9)  # a search that would never end
    began = time.monotonic()
    with UnixSignalDeathPenalty(1, JobTimeoutException):
        said = play_bot_turn(game["id"], 0, store=app.extensions["rulehouse.store"])
    assert said.startswith("seat 0 played roll") and time.monotonic() - began < 10
    assert client.get(f"/v1/games/{game['id']}").get_json()["version"] == 1


def test_simulations_play_search_bots_on_the_workers_and_on_the_command_line(client, workers, redis_db_url):
    workers.start(1, "--queues", "simulations")
    body = {"ruleset": "whipcash", "players": 2, "bots": ["mcts-1", "random"], "games": 4, "seed": 1,
            "options": {"turn_cap": 3}}
    location = client.post("/v1/simulations", json=body).headers["Location"]
    done = wait_for(lambda: (r := client.get(location).get_json())["status"] == "finished" and r, GAME_TIMEOUT)
    assert done["result"]["bots"] == ["mcts-1", "random"] and done["progress"]["games_done"] == 4
    printed = run_cli("simulate", "whipcash", "--games", "2", "--players", "2", "--bots", "mcts-1,random",
                      "--options", '{"turn_cap": 3}', "--json", redis_url=redis_db_url)
    assert printed.returncode == 0, printed.stderr
    assert json.loads(printed.stdout)["bots"] == ["mcts-1", "random"]
