"""Every count-limited quota holds against requests released together (docs/apps.md, "Quotas"): bursts of
threads let go at once by a barrier against a real gunicorn server (two processes) and real workers admit
never more than the quota, and what they hold comes back when it ends, is deleted or expires."""

from __future__ import annotations

import pytest
import redis as redis_lib
import requests

from api.experiments.spec import MAX_EXPERIMENTS_IN_FLIGHT
from api.play.game_keys import game_key
from tests.api.helpers import api_key, auth
from tests.processes import together, wait_for

BURST = 12
GAME = {"ruleset": "monopoly-cars2", "seats": [{"name": "Ann"}, {"name": "Bob"}], "seed": 3}
#: Two random bots and a short turn cap: the workers play it to its end within seconds.
BOT_GAME = {"ruleset": "monopoly-cars2", "seats": [{"bot": "random"}, {"bot": "random"}], "seed": 5,
            "options": {"turn_cap": 4}}
TOURNAMENT = {"ruleset": "monopoly-cars2", "format": "round_robin", "table_size": 2, "entrants": ["ann", "bob"],
              "rounds": 1}
SIMULATION = {"ruleset": "monopoly-cars2", "players": 2, "bots": ["random"], "games": 10, "chunk_size": 1, "seed": 1}
EXPERIMENT = {"ruleset": "monopoly-cars2", "players": 2, "bots": ["random"], "games": 20, "seed": 1,
              "sweep": {"starting_money": [10]}}


@pytest.fixture
def games_redis(redis_db_url):
    """Where the server keeps its games (the cluster layout's tests give theirs)."""
    client = redis_lib.Redis.from_url(redis_db_url)
    yield client
    client.close()


def burst(send, count: int = BURST) -> list[requests.Response]:
    """``send(n)`` from ``count`` threads released together; their answers."""
    replies = together(count, send)
    assert all(reply.status_code in (201, 202, 403, 422) for reply in replies), [reply.text for reply in replies]
    return replies


def admitted(replies: list[requests.Response], refusal: str = "quota-exceeded") -> list[dict]:
    """The bodies of the answers that made something; every other answer must be a refusal of kind ``refusal``."""
    refused = [reply.json() for reply in replies if reply.status_code not in (201, 202)]
    assert all(body["type"].endswith(f"/{refusal}") for body in refused), refused
    return [reply.json() for reply in replies if reply.status_code in (201, 202)]


def usage(server: str, key: str) -> dict:
    return requests.get(f"{server}/v1/apps/me", headers=api_key(key), timeout=30).json()["usage"]


def test_a_burst_of_games_is_admitted_up_to_the_live_games_quota_and_ended_games_give_it_back(
        server, keys, workers, games_redis):
    _, key = keys.create_app("Small", quotas={"live_games": 3})
    made = admitted(burst(lambda _: requests.post(f"{server}/v1/games", json=GAME, headers=api_key(key), timeout=30)))
    assert len(made) == 3 and usage(server, key)["live_games"] == 3
    # Deleted: given back at once.
    deleted = made.pop()
    assert requests.delete(f"{server}/v1/games/{deleted['id']}", timeout=30,
                           headers={**api_key(key), **auth(deleted["creator_token"])}).status_code == 204
    assert usage(server, key)["live_games"] == 2
    # Expired (no signal): given back when the quota is next counted.
    games_redis.pexpire(game_key(made.pop()["id"]), 1)
    wait_for(lambda: usage(server, key)["live_games"] == 1, timeout=30)
    # Finished (by the bots, on the workers): given back too.
    workers.start(1)
    bots = requests.post(f"{server}/v1/games", json=BOT_GAME, headers=api_key(key), timeout=30)
    assert bots.status_code == 201, bots.text
    wait_for(lambda: usage(server, key)["live_games"] == 1, timeout=60)
    again = admitted(burst(lambda _: requests.post(f"{server}/v1/games", json=GAME, headers=api_key(key), timeout=30)))
    assert len(again) == 2 and usage(server, key)["live_games"] == 3


def test_tournaments_and_games_released_together_share_the_live_games_quota(server, keys):
    _, key = keys.create_app("Clubs", quotas={"live_games": 3})

    def create(slot: int) -> requests.Response:
        kind, body = ("tournaments", TOURNAMENT) if slot % 2 else ("games", GAME)
        return requests.post(f"{server}/v1/{kind}", json=body, headers=api_key(key), timeout=30)

    made = admitted(burst(create))
    tables = sum(len(body["played"][0]["tables"]) if "played" in body else 1 for body in made)
    assert tables == 3 and usage(server, key)["live_games"] == 3
    tournaments = admitted(burst(lambda _: requests.post(f"{server}/v1/tournaments", json=TOURNAMENT,
                                                         headers=api_key(key), timeout=30)))
    assert tournaments == []


def test_a_burst_of_experiments_is_admitted_up_to_the_experiments_in_flight_and_cancelled_ones_give_them_back(
        server, keys):
    _, key = keys.create_app("Lab", scopes=["simulations"])
    made = admitted(burst(lambda _: requests.post(f"{server}/v1/experiments", json=EXPERIMENT, headers=api_key(key),
                                                  timeout=30)))
    assert len(made) == MAX_EXPERIMENTS_IN_FLIGHT
    for experiment in made:
        assert requests.delete(f"{server}/v1/experiments/{experiment['id']}", headers=api_key(key),
                               timeout=30).json()["status"] == "cancelled"
    assert usage(server, key)["queued_chunks"] == 0
    again = admitted(burst(lambda _: requests.post(f"{server}/v1/experiments", json=EXPERIMENT, headers=api_key(key),
                                                   timeout=30)))
    assert len(again) == MAX_EXPERIMENTS_IN_FLIGHT


def test_a_burst_of_simulations_is_admitted_up_to_the_queued_chunks_and_played_chunks_give_them_back(
        server, keys, workers):
    _, key = keys.create_app("Lab", scopes=["simulations"], quotas={"queued_chunks": 10})
    made = admitted(burst(lambda _: requests.post(f"{server}/v1/simulations", json=SIMULATION, headers=api_key(key),
                                                  timeout=30)))
    assert len(made) == 1 and usage(server, key)["queued_chunks"] == 10
    workers.start(1)
    wait_for(lambda: usage(server, key)["queued_chunks"] == 0, timeout=60)
    assert len(admitted(burst(lambda _: requests.post(f"{server}/v1/simulations", json=SIMULATION,
                                                      headers=api_key(key), timeout=30)))) == 1


def test_a_burst_of_webhooks_is_registered_up_to_the_most_an_app_may_have(server, keys):
    from api.apps.webhooks import MAX_WEBHOOKS_PER_APP

    _, key = keys.create_app("Hooks")
    made = admitted(burst(lambda n: requests.post(f"{server}/v1/webhooks", headers=api_key(key), timeout=30, json={
        "url": f"http://127.0.0.1:9/{n}", "events": ["game.finished"]}), count=MAX_WEBHOOKS_PER_APP + 10),
                    refusal="validation-error")
    assert len(made) == MAX_WEBHOOKS_PER_APP
    listed = requests.get(f"{server}/v1/webhooks", headers=api_key(key), timeout=30).json()
    assert len(listed["webhooks"]) == MAX_WEBHOOKS_PER_APP


def rated(*players: str) -> dict:
    return {"ruleset": "monopoly-cars2", "rated": True, "seed": 3, "seats": [{"player": p} for p in players]}


def test_bursts_of_rated_games_and_tournaments_never_pass_rated_players_and_deleted_games_free_their_players(
        server, keys):
    _, key = keys.create_app("Ladder", quotas={"rated_players": 5})
    app = api_key(key)

    def fresh(slot: int, prefix: str = "") -> requests.Response:  # two new players, by a rated game or tournament
        if slot % 2:
            return requests.post(f"{server}/v1/tournaments", headers=app, timeout=30,
                                 json={**TOURNAMENT, "rated": True,
                                       "entrants": [f"{prefix}t{slot}a", f"{prefix}t{slot}b"]})
        return requests.post(f"{server}/v1/games", json=rated(f"{prefix}g{slot}a", f"{prefix}g{slot}b"), headers=app,
                             timeout=30)

    made = admitted(burst(fresh))
    assert len(made) == 2 and usage(server, key)["rated_players"] == 4
    refusals = [reply.json() for reply in burst(lambda slot: fresh(slot, "more-")) if reply.status_code == 403]
    assert len(refusals) == BURST and all(body["reason"] == "quota_rated_players" for body in refusals)
    held = ([seat["player"] for seat in made[0]["seats"]] if "seats" in made[0] else made[0]["entrants"])
    # One place left: of a burst of games each with a held player and a new one, one is admitted.
    one_new = admitted(burst(lambda slot: requests.post(f"{server}/v1/games", json=rated(held[0], f"new{slot}"),
                                                        headers=app, timeout=30)))
    assert len(one_new) == 1 and usage(server, key)["rated_players"] == 5
    # Held players only: each costs nothing again, every game is admitted.
    same = admitted(burst(lambda _: requests.post(f"{server}/v1/games", json=rated(*held), headers=app, timeout=30)))
    assert len(same) == BURST and usage(server, key)["rated_players"] == 5
    # Their games deleted (never rated): the players with no game left and no rating give their places back.
    games = [body for body in made + one_new + same if "creator_token" in body]
    for game in games:
        assert requests.delete(f"{server}/v1/games/{game['id']}", timeout=30,
                               headers={**app, **auth(game["creator_token"])}).status_code == 204
    tournaments = [body for body in made if "played" in body]
    assert usage(server, key)["rated_players"] == 2 * len(tournaments)
