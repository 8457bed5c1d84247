"""Decision deadlines: a human seat too slow to decide gets its decision's default (api/play/deadlines.py)."""

from __future__ import annotations

import time

import pytest

from api.play.deadline_store import DEADLINES_KEY
from api.play.timeouts import Defaults, Outcome, apply_defaults, sweep
from tests.api.helpers import act, assert_problem, auth
from tests.processes import wait_for

SEATS = [{"name": name} for name in ("Ann", "Bob", "Cy", "Di")]
BULLET = {"type": "choose_bullet", "card": "bang"}


def new_game(client, timeout: int | None = 1, seats: list[dict] = SEATS) -> dict:
    body = {"ruleset": "cash-n-guns", "seats": seats, "seed": 5}
    if timeout is not None:
        body["decision_timeout"] = timeout
    reply = client.post("/v1/games", json=body)
    assert reply.status_code == 201, reply.get_json()
    return reply.get_json()


def everyone_but_last_chooses(client, game: dict) -> int:
    """Seats 0..2 send their bullet card; the last seat stays silent. The version reached."""
    for version, seat in enumerate(game["seats"][:-1]):
        assert act(client, game["id"], seat["token"], BULLET, version).status_code == 200
    return len(game["seats"]) - 1


def game_of(client, game: dict, seat: int = 3) -> dict:
    return client.get(f"/v1/games/{game['id']}", headers=auth(game["seats"][seat]["token"])).get_json()


def test_a_seat_too_slow_to_choose_its_bullet_gets_a_random_card_and_the_game_moves_on(client, app):
    store = app.extensions["rulehouse.store"]
    game = new_game(client)
    assert game["decision_timeout"] == 1 and game["deadline"] is not None
    version = everyone_but_last_chooses(client, game)
    seen = game_of(client, game)
    assert seen["version"] == version and seen["waiting_for"] == [3] and seen["deadline"] is not None
    assert store.control.zrange(DEADLINES_KEY, 0, -1) == [f"{game['id']}:{version}"]

    assert sweep(store, now=time.time()) == 0  # not due yet
    assert sweep(store, now=time.time() + 2) == 1
    assert store.control.zcard(DEADLINES_KEY) == 1  # only the next phase's deadline

    seen = game_of(client, game)
    assert seen["version"] == version + 1
    assert seen["view"]["phase"] == "aim" and seen["waiting_for"] == [0, 1, 2, 3]
    assert seen["view"]["bullet"] in ("click", "bang")
    assert seen["deadline"] is not None
    assert store.action_log(game["id"])[-1] == (3, {"type": "choose_bullet", "card": seen["view"]["bullet"]})
    page = client.get(f"/v1/games/{game['id']}/events?after=0&limit=1000",
                      headers=auth(game["seats"][0]["token"])).get_json()
    last = [entry["event"] for entry in page["events"] if entry["version"] == version + 1]
    assert last[0] == {"type": "timed_out", "seat": 3}
    assert {"type": "bullet_chosen", "seat": 3} in last
    assert not any(event["type"] == "bullet_card" for event in last)  # seat 3's card stays its secret


def test_an_overdue_deadline_is_applied_when_the_game_is_read(client):
    game = new_game(client)
    version = everyone_but_last_chooses(client, game)
    time.sleep(1.1)
    decisions = client.get(f"/v1/games/{game['id']}/decisions", headers=auth(game["seats"][3]["token"])).get_json()
    assert decisions["version"] == version + 1
    assert decisions["decisions"][0]["kind"] == "aim"


def test_several_silent_seats_all_get_their_default(client, app):
    store = app.extensions["rulehouse.store"]
    game = new_game(client)
    assert act(client, game["id"], game["seats"][0]["token"], BULLET, 0).status_code == 200
    assert apply_defaults(store, game["id"], 1, now=time.time() + 2) == Defaults(Outcome.DEFAULTED, (1, 2, 3))
    seen = game_of(client, game, 0)
    assert seen["version"] == 4 and seen["view"]["phase"] == "aim"
    assert [seat for seat, _ in store.action_log(game["id"])] == [0, 1, 2, 3]


def test_no_deadline_without_the_option(client, app):
    store = app.extensions["rulehouse.store"]
    game = new_game(client, timeout=None)
    assert game["decision_timeout"] is None and game["deadline"] is None
    version = everyone_but_last_chooses(client, game)
    assert store.control.zcard(DEADLINES_KEY) == 0
    assert apply_defaults(store, game["id"], version, now=time.time() + 10**6).outcome is Outcome.NO_DEADLINE
    seen = game_of(client, game)
    assert seen["version"] == version and seen["deadline"] is None and seen["decision_timeout"] is None


def test_a_move_in_time_cancels_the_deadline(client, app):
    store = app.extensions["rulehouse.store"]
    game = new_game(client)
    version = everyone_but_last_chooses(client, game)
    assert act(client, game["id"], game["seats"][3]["token"], BULLET, version).status_code == 200
    assert f"{game['id']}:{version}" not in store.control.zrange(DEADLINES_KEY, 0, -1)
    assert sweep(store, now=time.time() + 0.5) == 0
    assert store.action_log(game["id"])[-1] == (3, BULLET)  # the Bang! chosen, not the default Click
    assert game_of(client, game)["view"]["bullet"] == "bang"


def test_a_stale_deadline_does_nothing(client, app):
    store = app.extensions["rulehouse.store"]
    game = new_game(client)
    version = everyone_but_last_chooses(client, game)
    # A late member of an older version (e.g. left by a crash before its ZREM) is popped and ignored.
    store.control.zadd(DEADLINES_KEY, {f"{game['id']}:0": 0, "no-such-game:3": 0})
    assert apply_defaults(store, game["id"], 0, now=time.time() + 2).outcome is Outcome.MOVED_ON
    assert sweep(store, now=time.time()) == 0
    assert store.control.zrange(DEADLINES_KEY, 0, -1) == [f"{game['id']}:{version}"]
    assert store.load(game["id"]).version == version


def test_bot_seats_get_no_deadline(client, app):
    store = app.extensions["rulehouse.store"]
    game = new_game(client, seats=[{"name": "Ann"}, *({"name": f"b{i}", "bot": "random"} for i in range(3))])
    assert act(client, game["id"], game["seats"][0]["token"], BULLET, 0).status_code == 200
    assert store.control.zcard(DEADLINES_KEY) == 0  # only bots are pending: they answer themselves
    assert game_of(client, game, 0)["deadline"] is None
    assert apply_defaults(store, game["id"], 1, now=time.time() + 2).outcome is Outcome.NO_HUMAN_PENDING


@pytest.mark.parametrize("timeout", [0, -1, 86401, 1.5, "10", True])
def test_an_invalid_decision_timeout_is_422(client, timeout):
    reply = client.post("/v1/games", json={"ruleset": "cash-n-guns", "seats": SEATS, "decision_timeout": timeout})
    body = assert_problem(reply, 422, "validation-error")
    assert [error["pointer"] for error in body["errors"]] == ["/decision_timeout"]


def test_a_worker_plays_the_default_of_an_overdue_seat(redis_db_url, workers):
    from api.app import create_app

    app = create_app({"REDIS_URL": redis_db_url, "BOT_QUEUE": "bots"})
    client = app.test_client()
    game = new_game(client)
    version = everyone_but_last_chooses(client, game)
    store = app.extensions["rulehouse.store"]
    workers.start(1)
    wait_for(lambda: store.load(game["id"]).version > version, timeout=20)
    seat, action = store.action_log(game["id"])[-1]
    assert seat == 3 and action["type"] == "choose_bullet" and action["card"] in ("click", "bang")


TRIALS = 24


def test_what_a_timed_out_secret_choice_played_cannot_be_told_from_what_the_others_see(client, app):
    """A fixed default (Click when too slow) plus the public timed_out event would tell the table the
    slow seat's face-down card: the service draws it at random from the legal cards instead."""
    store = app.extensions["rulehouse.store"]
    played = set()
    for _ in range(TRIALS):
        game = new_game(client)
        version = everyone_but_last_chooses(client, game)
        listed = client.get(f"/v1/games/{game['id']}/decisions", headers=auth(game["seats"][3]["token"])).get_json()
        assert listed["decisions"][0]["secret"] is True and listed["decisions"][0]["default"] is None
        assert apply_defaults(store, game["id"], version, now=time.time() + 2) == Defaults(Outcome.DEFAULTED, (3,))
        seat, action = store.action_log(game["id"])[-1]
        assert seat == 3 and action["type"] == "choose_bullet"
        played.add(action["card"])
        seen_by_others = client.get(f"/v1/games/{game['id']}/events?after=0&limit=1000",
                                    headers=auth(game["seats"][0]["token"])).get_json()
        timed_out = [entry["event"] for entry in seen_by_others["events"] if entry["version"] == version + 1]
        assert timed_out[:2] == [{"type": "timed_out", "seat": 3}, {"type": "bullet_chosen", "seat": 3}]
    assert played == {"click", "bang"}  # 2 in 2^23 to fail by chance


def test_the_aim_of_a_slow_seat_is_still_nobody(client, app):
    store = app.extensions["rulehouse.store"]
    game = new_game(client)
    for version, seat in enumerate(game["seats"]):
        assert act(client, game["id"], seat["token"], BULLET, version).status_code == 200
    listed = client.get(f"/v1/games/{game['id']}/decisions", headers=auth(game["seats"][0]["token"])).get_json()
    assert listed["decisions"][0]["default"] == {"type": "aim", "target": None}
    assert "secret" not in listed["decisions"][0]
    assert sweep(store, now=time.time() + 2) == 1
    assert {action["target"] for _, action in store.action_log(game["id"])[-4:]} == {None}


@pytest.mark.parametrize("ruleset_id", ["cash-n-guns", "hitchiker", "monopoly-cars2", "whipcash"])
def test_what_a_timeout_plays_is_the_default_published_in_decisions(client, app, ruleset_id):
    """Every seat stays silent, so every decision is played by its deadline: each move the service plays
    is the `default` `/decisions` showed its seat (for a secret choice, `null`, one of its options)."""
    from engine.core.registry import get_ruleset

    store = app.extensions["rulehouse.store"]
    ruleset = get_ruleset(ruleset_id)
    seats = [{"name": f"p{seat}"} for seat in range(ruleset.min_players)]
    reply = client.post("/v1/games", json={"ruleset": ruleset_id, "seats": seats, "seed": 23,
                                           "decision_timeout": 3600})
    assert reply.status_code == 201, reply.get_json()
    game = reply.get_json()
    tokens = [seat["token"] for seat in game["seats"]]
    played = 0
    for _ in range(40):
        seen = client.get(f"/v1/games/{game['id']}").get_json()
        if seen["status"] != "active":
            break
        published = {}
        for seat in seen["waiting_for"]:
            listed = client.get(f"/v1/games/{game['id']}/decisions", headers=auth(tokens[seat])).get_json()
            assert listed["version"] == seen["version"]
            published[seat] = listed["decisions"][0]
        said = apply_defaults(store, game["id"], seen["version"], now=time.time() + 7200)
        assert said == Defaults(Outcome.DEFAULTED, tuple(sorted(published))), said
        for seat, action in store.action_log(game["id"])[seen["version"]:]:
            decision = published[seat]
            if decision.get("secret"):
                assert decision["default"] is None and action in decision["options"]
            else:
                assert action == decision["default"], (decision, action)
            played += 1
    finished = client.get(f"/v1/games/{game['id']}").get_json()["status"] == "finished"
    assert played >= 40 or (finished and played >= 10), played
