"""What the competition room guarantees on real workers, whatever the games' TTLs and other apps' loads
(docs/competition.md): a duplicate round stays closed, and its finished tables unrated, until the round
ends, even once the round has outlasted the game TTL; every round of a tournament is admitted against
its app's search work as it starts (a round that does not fit waits), and the app may cancel a
tournament (its running games end aborted, unrated, kept); the sweeps reach an interrupted finish of
one app behind any backlog of another's."""

from __future__ import annotations

import pytest
import redis as redis_lib

from api.apps import accounting
from api.apps.app_store import PUBLISHABLE, AppKeys
from api.competition.competition_keys import RUNNING_TOURNAMENTS_KEY
from api.ground.config import settings
from api.play.game_keys import game_key
from api.play.moves import submit_action
from api.play.store import GameStore
from tests.api.helpers import act, api_key, auth
from tests.processes import wait_for

TIMEOUT = 90


@pytest.fixture
def keys(redis_db_url) -> AppKeys:
    client = redis_lib.Redis.from_url(redis_db_url, decode_responses=True)
    yield AppKeys(client)
    client.close()


def make_app(redis_db_url: str, **settings):
    from api.app import create_app

    app = create_app({"REDIS_URL": redis_db_url, "BOT_QUEUE": "bots", **settings})
    app.testing = True
    return app


def tournament(client, key: str, tournament_id: str) -> dict:
    return client.get(f"/v1/tournaments/{tournament_id}", headers=api_key(key)).get_json()


def play_a_move(client, key: str, game_id: str, tokens: list[str]) -> dict:
    """The pending seat of a toy race rolls; the game as it is then."""
    state = client.get(f"/v1/games/{game_id}", headers={**api_key(key), **auth(tokens[0])}).get_json()
    if state["status"] == "active":
        seat = state["waiting_for"][0]
        moved = act(client, game_id, tokens[seat], {"type": "roll"}, state["version"], **api_key(key))
        assert moved.status_code in (200, 412), moved.get_json()
    return state


def test_a_duplicate_round_stays_closed_and_unrated_past_the_game_ttl_until_it_ends(redis_db_url, keys, workers,
                                                                                   toy_race):
    """The service keeps unfinished games 3 s after their last move: the round outlasts that, and its
    finished table (kept a day) stays closed to a stranger and unrated until the other table ends."""
    workers.start(1)
    app = make_app(redis_db_url, GAME_TTL_SECONDS=3)
    client = app.test_client()
    _, secret = keys.create_app("League")
    _, stranger = keys.create_app("Stranger")
    made = client.post("/v1/tournaments", headers=api_key(secret), json={
        "ruleset": "toy-race", "format": "duplicate", "table_size": 2, "rated": True, "options": {"goal": 30},
        "entrants": ["ann", "bob", "bot:random#1", "bot:random#2"]})
    assert made.status_code == 201, made.get_json()
    # A game made as the round started, never moved: it expires by the game TTL, as a mark with it would.
    sentinel = client.post("/v1/games", headers=api_key(secret), json={
        "ruleset": "toy-race", "seats": [{"name": "x"}, {"name": "y"}]}).get_json()["id"]
    people, bots = made.get_json()["played"][0]["tables"]
    tokens = [people["tokens"][entrant] for entrant in people["entrants"]]
    games = app.extensions["rulehouse.store"]

    def people_play_on_until(done) -> None:
        """Keep the people's table alive (a move whenever its TTL runs low) until ``done()``."""
        def look():
            if games.redis.pttl(game_key(people["game"])) < 2000:
                assert play_a_move(client, secret, people["game"], tokens)["status"] == "active"
            return done()
        wait_for(look, TIMEOUT)

    people_play_on_until(lambda: games.redis.hget(game_key(bots["game"]), "status") == "finished")
    people_play_on_until(lambda: not games.redis.exists(game_key(sentinel)))
    assert games.redis.exists(game_key(bots["game"])), "the finished table is kept: what it holds is readable"
    for path in ("", "/record", "/views/1?seat=1", "/analysis", "/events"):
        refused = client.get(f"/v1/games/{bots['game']}{path}", headers=api_key(stranger))
        assert refused.status_code == 403 and refused.get_json()["reason"] == "round_running", path
    # Its result is withheld everywhere until the round ends: no rating, leaderboard or player result.
    assert client.get("/v1/ratings/toy-race", headers=api_key(secret)).get_json()["ratings"] == []
    assert client.get("/v1/players/bot:random%231", headers=api_key(secret)).get_json()["ratings"] == []
    # The people's table ends: the round ends, every table opens and is rated.
    wait_for(lambda: play_a_move(client, secret, people["game"], tokens)["status"] == "finished", TIMEOUT)
    record = client.get(f"/v1/games/{bots['game']}/record", headers=api_key(stranger))
    assert record.status_code == 200 and record.get_json()["seed"] is not None
    board = client.get("/v1/ratings/toy-race", headers=api_key(secret)).get_json()["ratings"]
    assert sorted(entry["player"] for entry in board) == ["ann", "bob", "bot:random#1", "bot:random#2"]


def test_a_round_that_does_not_fit_the_search_work_of_the_day_waits_until_it_does(redis_db_url, keys, workers,
                                                                                 toy_race):
    """A round robin of searching bots: the app's other work spends its day while round 0 runs, so round 1
    waits (as a plain game with a searching bot is refused), and starts once the quota is raised."""
    app = make_app(redis_db_url)
    client = app.test_client()
    quota = 300_000
    app_id, secret = keys.create_app("League", quotas={"search_work_per_day": quota})
    made = client.post("/v1/tournaments", headers=api_key(secret), json={
        "ruleset": "toy-race", "format": "round_robin", "table_size": 2, "options": {"goal": 12},
        "entrants": ["bot:mcts-1#1", "bot:mcts-1#2", "bot:random#1", "bot:random#2"]})
    assert made.status_code == 201, made.get_json()
    tournament_id = made.get_json()["id"]
    # Round 0 holds one move at its bound of each of its two searching seats.
    assert client.get("/v1/apps/me", headers=api_key(secret)).get_json()["usage"]["search_work_today"] == 2 * 102_400
    accounting.Accounting(keys.redis).add_work(app_id, "search_work_per_day", quota)  # the app's other games' searches
    workers.start(1)
    waiting = wait_for(lambda: (lambda t: t if t["reason"] or len(t["played"]) > 1 else None)(
        tournament(client, secret, tournament_id)), TIMEOUT)
    assert (waiting["status"], waiting["reason"], len(waiting["played"])) == ("running", "search_quota", 1)
    assert waiting["played"][0]["finished"] is not None
    plain = client.post("/v1/games", headers=api_key(secret), json={
        "ruleset": "toy-race", "seats": [{"bot": "mcts-1"}, {"name": "x"}]})
    assert plain.status_code == 403 and plain.get_json()["quota"] == "search_work_per_day"
    assert client.get("/v1/apps/me", headers=api_key(secret)).get_json()["usage"]["search_work_today"] == quota
    keys.update_app(app_id, quotas={"search_work_per_day": 10 * quota})
    ended = wait_for(lambda: (lambda t: t if t["status"] != "running" else None)(
        tournament(client, secret, tournament_id)), TIMEOUT)
    assert (ended["status"], ended["reason"], len(ended["played"])) == ("finished", None, 3)
    # Every round's reservation was given back: the day holds the other work and the moves (forced: none).
    assert client.get("/v1/apps/me", headers=api_key(secret)).get_json()["usage"]["search_work_today"] == quota


def test_the_app_cancels_a_tournament_its_running_games_end_aborted_unrated_and_kept(redis_db_url, keys, workers,
                                                                                    toy_race):
    workers.start(1)
    app = make_app(redis_db_url)
    client = app.test_client()
    app_id, secret = keys.create_app("League")
    _, other = keys.create_app("Other")
    browser = {**api_key(keys.create_key(app_id, PUBLISHABLE, ("https://league.example",))),
               "Origin": "https://league.example"}
    made = client.post("/v1/tournaments", headers=api_key(secret), json={
        "ruleset": "toy-race", "format": "swiss", "table_size": 2, "rated": True, "options": {"goal": 12},
        "entrants": ["ann", "bob", "bot:random#1", "bot:random#2"]})
    assert made.status_code == 201, made.get_json()
    tournament_id = made.get_json()["id"]
    people, bots = made.get_json()["played"][0]["tables"]
    tokens = [people["tokens"][entrant] for entrant in people["entrants"]]
    play_a_move(client, secret, people["game"], tokens)
    wait_for(lambda: client.get(f"/v1/games/{bots['game']}").get_json()["status"] == "finished", TIMEOUT)
    assert client.delete(f"/v1/tournaments/{tournament_id}", headers=api_key(other)).status_code == 404
    assert client.delete(f"/v1/tournaments/{tournament_id}", headers=browser).status_code == 403
    cancelled = client.delete(f"/v1/tournaments/{tournament_id}", headers=api_key(secret))
    assert cancelled.status_code == 200, cancelled.get_json()
    body = cancelled.get_json()
    assert (body["status"], body["reason"], len(body["played"])) == ("cancelled", "app_cancelled", 1)
    game = client.get(f"/v1/games/{people['game']}", headers=auth(tokens[0])).get_json()
    assert (game["status"], game["waiting_for"], game["rated"], game["result"]) == ("aborted", [], False, None)
    refused = act(client, people["game"], tokens[0], {"type": "roll"}, game["version"])
    assert refused.status_code == 409 and refused.get_json()["reason"] == "game_over"
    events = client.get(f"/v1/games/{people['game']}/events").get_json()["events"]
    assert events[-1]["event"] == {"type": "game_aborted", "reason": "tournament_cancelled"}
    kept = client.get(f"/v1/games/{people['game']}/record")
    assert kept.status_code == 200 and len(kept.get_json()["log"]) >= 1, "nothing lost: its moves are kept"
    replayed = client.post("/v1/rulesets/toy-race/evaluate", json={"record": kept.get_json()}).get_json()
    assert replayed["legal"] and replayed["applied"] == len(kept.get_json()["log"]), "its record replays"
    # Unrated: its people have no rating; the finished table was rated as any.
    assert client.get("/v1/players/ann", headers=api_key(secret)).get_json()["ratings"] == []
    assert client.get("/v1/players/bot:random%231", headers=api_key(secret)).get_json()["ratings"][0]["games"] == 1
    assert client.get("/v1/apps/me", headers=api_key(secret)).get_json()["usage"]["live_games"] == 0
    store = app.extensions["rulehouse.store"]
    assert store.control.zscore(RUNNING_TOURNAMENTS_KEY, tournament_id) is None, "no sweep starts another round"
    again = client.delete(f"/v1/tournaments/{tournament_id}", headers=api_key(secret)).get_json()
    assert (again["status"], again["reason"]) == ("cancelled", "app_cancelled")


def test_the_sweeps_reach_an_interrupted_finish_behind_another_app_s_backlog(redis_db_url, keys, workers, toy_race):
    """App B holds 200 rated games and 100 tournaments that wait (its people do not move), all older than
    app A's rated game and tournament, whose finishing moves' processes died before rating the game and
    ending the tournament. The workers' sweeps rate A's game and end A's tournament all the same."""
    app = make_app(redis_db_url)
    client = app.test_client()
    many = {"writes": "2000/minute", "reads": "5000/minute"}
    _, busy = keys.create_app("Busy", limits=many)
    _, mine = keys.create_app("Mine", limits=many)
    for _ in range(200):
        made = client.post("/v1/games", headers=api_key(busy), json={
            "ruleset": "toy-race", "rated": True, "seats": [{"player": "p1"}, {"player": "p2"}]})
        assert made.status_code == 201, made.get_json()
    for _ in range(100):
        made = client.post("/v1/tournaments", headers=api_key(busy), json={
            "ruleset": "toy-race", "format": "round_robin", "table_size": 2, "entrants": ["p1", "p2"]})
        assert made.status_code == 201, made.get_json()
    rated = client.post("/v1/games", headers=api_key(mine), json={
        "ruleset": "toy-race", "rated": True, "options": {"goal": 12},
        "seats": [{"player": "ann"}, {"player": "bob"}]}).get_json()["id"]
    cup = client.post("/v1/tournaments", headers=api_key(mine), json={
        "ruleset": "toy-race", "format": "round_robin", "table_size": 2, "options": {"goal": 12},
        "entrants": ["cy", "dee"]}).get_json()
    # Their moves stored by a process that tells no listener: as if it died between storing and rating.
    unwired = GameStore.from_settings(settings({"REDIS_URL": redis_db_url, "BOT_QUEUE": None}))
    for game_id in (rated, cup["played"][0]["tables"][0]["game"]):
        while (record := unwired.load(game_id)).status == "active":
            submit_action(unwired, game_id, record.version % 2, {"type": "roll"}, record.version)
    assert client.get("/v1/ratings/toy-race", headers=api_key(mine)).get_json()["ratings"] == []
    assert tournament(client, mine, cup["id"])["status"] == "running"
    workers.start(1)
    board = wait_for(lambda: client.get("/v1/ratings/toy-race", headers=api_key(mine)).get_json()["ratings"], TIMEOUT)
    assert sorted(entry["player"] for entry in board) == ["ann", "bob"]
    ended = wait_for(lambda: (lambda t: t if t["status"] != "running" else None)(
        tournament(client, mine, cup["id"])), TIMEOUT)
    assert ended["status"] == "finished" and ended["played"][0]["tables"][0]["ranks"] is not None
