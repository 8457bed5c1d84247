"""The accounting of work (api/apps/accounting.py) with a real search worker and Redis: a hint is
charged the engine actions its search played, a forced move's hint nothing, a searching bot seat
its searches; one seat of a game cannot spend its app's day."""

from __future__ import annotations

import pytest
import redis as redis_lib

from api.apps.app_store import AppKeys
from api.hints.computing import HINT_BOT, HINT_SEED_STREAM, hint_bound, hint_cost
from engine.core.registry import get_ruleset
from engine.core.rng import Rng, derive_seed
from tests.api.helpers import assert_problem, auth
from tests.processes import wait_for

TIMEOUT = 90


@pytest.fixture
def service(redis_db_url):
    from api.app import create_app

    app = create_app({"REDIS_URL": redis_db_url, "REQUIRE_API_KEYS": True})
    app.testing = True
    return app.test_client(), AppKeys(redis_lib.Redis.from_url(redis_db_url, decode_responses=True))


def search_work(client, key: str) -> int:
    return client.get("/v1/apps/me", headers={"X-Api-Key": key}).get_json()["usage"]["search_work_today"]


def test_a_hint_is_charged_the_search_it_played_and_a_forced_moves_hint_nothing(service, workers):
    workers.start(1, "--queues", "search")
    client, keys = service
    ruleset = get_ruleset("whipcash")
    first = ruleset.pending(ruleset.new_game(2, {}, 7))[0]
    # The day holds exactly one reservation of this hint: charged in full, a second one would not fit.
    _, key = keys.create_app("Coach", quotas={"search_work_per_day": hint_bound(ruleset, first)})
    app = {"X-Api-Key": key}
    body = {"ruleset": "whipcash", "seats": [{"name": "Ann"}, {"name": "Bob"}], "seed": 7, "hints": True}
    game = client.post("/v1/games", json=body, headers=app).get_json()
    url = f"/v1/games/{game['id']}/hint?wait=10"
    ann = {**app, **auth(game["seats"][0]["token"])}
    wait_for(lambda: client.get(url, headers=ann).status_code == 200, TIMEOUT)
    searched = ruleset.bot(HINT_BOT).analyse(ruleset.new_game(2, {}, 7), first,
                                             Rng(derive_seed(7, HINT_SEED_STREAM, 0, 0)))
    assert 0 < searched["actions"] < hint_bound(ruleset, first) < hint_cost(ruleset)
    assert wait_for(lambda: search_work(client, key) == searched["actions"], 10)
    # Asking again costs nothing more.
    assert client.get(url, headers=ann).status_code == 200 and search_work(client, key) == searched["actions"]

    # Monopoly's first decision is forced (one option): its hint is free, even past the day's quota.
    _, spent = keys.create_app("Spent", quotas={"search_work_per_day": 0})
    forced = client.post("/v1/games", json={"ruleset": "monopoly-cars2", "seats": [{"name": "Ann"}, {"name": "Bob"}],
                                            "seed": 5, "hints": True}, headers={"X-Api-Key": spent}).get_json()
    seat = forced["seats"][client.get(f"/v1/games/{forced['id']}", headers={"X-Api-Key": spent}).get_json()
                                      ["waiting_for"][0]]
    asker = {"X-Api-Key": spent, **auth(seat["token"])}
    decision = client.get(f"/v1/games/{forced['id']}/decisions", headers=asker).get_json()["decisions"][0]
    assert len(decision["options"]) == 1
    hint_url = f"/v1/games/{forced['id']}/hint?wait=10"
    hint = wait_for(lambda: (r := client.get(hint_url, headers=asker)).status_code == 200 and r.get_json(), TIMEOUT)
    assert hint["action"] == decision["options"][0] and search_work(client, spent) == 0


def test_one_seat_cannot_spend_its_apps_day(service):
    """No search worker: each hint stays reserved at its bound. A seat's own bound of the day holds
    one hint here; the app's day holds many: the second hint of Ann is refused, Bob's is not."""
    client, keys = service
    ruleset = get_ruleset("whipcash")
    first = ruleset.pending(ruleset.new_game(2, {}, 7))[0]
    bound = hint_bound(ruleset, first)
    _, key = keys.create_app("Coach", quotas={"search_work_per_day": 100 * bound,
                                              "search_work_per_seat_per_day": bound})
    app = {"X-Api-Key": key}
    body = {"ruleset": "whipcash", "seats": [{"name": "Ann"}, {"name": "Bob"}], "seed": 7, "hints": True}
    game = client.post("/v1/games", json=body, headers=app).get_json()
    seats = [{**app, **auth(seat["token"])} for seat in game["seats"]]
    hint = f"/v1/games/{game['id']}/hint"
    assert client.get(hint, headers=seats[0]).status_code == 202
    asked = {0: 1, 1: 0}
    refused = None
    # Play on; each seat asks a hint at each of its decisions until Ann's bound stops her.
    for _ in range(40):
        state = client.get(f"/v1/games/{game['id']}", headers=app).get_json()
        seat = state["waiting_for"][0]
        if state["version"] > 0:
            reply = client.get(hint, headers=seats[seat])
            if reply.status_code == 403:
                refused = (seat, assert_problem(reply, 403, "quota-exceeded"))
                break
            assert reply.status_code == 202, reply.get_json()
            asked[seat] += 1
        decision = client.get(f"/v1/games/{game['id']}/decisions", headers=seats[seat]).get_json()["decisions"][0]
        moved = client.post(f"/v1/games/{game['id']}/actions", json=decision["options"][0],
                            headers={**seats[seat], "If-Match": f'"d:{decision["id"]}"'})
        assert moved.status_code == 200, moved.get_json()
    assert refused is not None, asked
    seat, problem = refused
    assert seat == 0 and problem["reason"] == "quota_search_work_per_seat_per_day" and asked[1] >= 1
    assert problem["allowed"] == bound and search_work(client, key) <= sum(asked.values()) * bound


def test_work_of_a_known_cost_is_admitted_under_the_same_day_and_seat_bounds(service):
    """Work computed in the request (its cost known before) goes through the same accounting: counted
    when it fits the app's day and the seat's own, refused whole when not, and given back on demand."""
    from api.apps import ownership
    from api.http.problems import ApiProblem

    client, keys = service
    app_id, key = keys.create_app("Analyst", quotas={"search_work_per_day": 1000,
                                                     "search_work_per_seat_per_day": 600})
    with client.application.test_request_context():
        assert ownership.admit_hint(app_id, 500, game_id="g_1", seat=0)
        with pytest.raises(ApiProblem) as refused:
            ownership.admit_hint(app_id, 200, game_id="g_1", seat=0)  # past the seat's 600
        assert refused.value.extra["reason"] == "quota_search_work_per_seat_per_day"
        assert ownership.admit_hint(app_id, 400, game_id="g_1", seat=1)
        with pytest.raises(ApiProblem) as refused:
            ownership.admit_hint(app_id, 200, game_id="g_2", seat=0)  # past the app's day of 1000
        assert refused.value.extra["reason"] == "quota_search_work_per_day"
        ownership.refund_hint(app_id, 400)
    assert search_work(client, key) == 500
