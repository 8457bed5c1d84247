"""A publishable key (in every page, so anyone's) sees what the public lobby shows, nothing more:
every GET route of the service, asked through it, is checked for the ids of the app's unlisted
games (one of named players), of its simulation, of its experiment and of its tournament and its
tables (over real Redis; the routes are read from the app itself, so a new route is checked too)."""

from __future__ import annotations

import pytest
import redis as redis_lib

from api.apps.app_store import PUBLISHABLE, AppKeys
from tests.api.helpers import assert_problem

ORIGIN = "https://table.example"
SEATS = [{"name": "Ann"}, {"open": True}]


@pytest.fixture
def service(redis_db_url):
    from api.app import create_app

    app = create_app({"REDIS_URL": redis_db_url, "BOT_QUEUE": None, "REQUIRE_API_KEYS": True,
                      "STREAM_MAX_SECONDS": 0.5, "STREAM_KEEPALIVE_SECONDS": 0.2})
    app.testing = True
    keys = AppKeys(redis_lib.Redis.from_url(redis_db_url, decode_responses=True))
    app_id, secret = keys.create_app("Table")
    public = keys.create_key(app_id, PUBLISHABLE, (ORIGIN,))
    return app, secret, public


def test_the_app_listings_refuse_a_publishable_key(service):
    app, secret, public = service
    client = app.test_client()
    client.post("/v1/games", json={"ruleset": "monopoly-cars2", "seats": [{"player": "ann"}, {"player": "bob"}]},
                headers={"X-Api-Key": secret})
    for path, scope in (("/v1/apps/me/games", "games"), ("/v1/apps/me/simulations", "simulations"),
                        ("/v1/tournaments", "games"), ("/v1/players/ann", "games"), ("/v1/players/ann/games", "games")):
        refused = assert_problem(client.get(path, headers={"X-Api-Key": public, "Origin": ORIGIN}), 403, "forbidden")
        assert refused["reason"] == "scope_missing" and refused["scope"] == scope
        assert client.get(path, headers={"X-Api-Key": secret}).status_code == 200


def test_no_read_of_a_publishable_key_leads_to_an_unlisted_game_or_a_simulation(service):
    app, secret, public = service
    client = app.test_client()
    as_app = {"X-Api-Key": secret}
    listed = client.post("/v1/games", json={"ruleset": "monopoly-cars2", "seats": SEATS, "listed": True},
                         headers=as_app).get_json()
    unlisted = client.post("/v1/games", json={"ruleset": "monopoly-cars2", "seats": SEATS}, headers=as_app).get_json()
    simulation = client.post("/v1/simulations", json={"ruleset": "monopoly-cars2", "players": 2, "games": 10},
                             headers=as_app).get_json()
    experiment = client.post("/v1/experiments", json={"ruleset": "monopoly-cars2", "players": 2, "games": 10,
                                                      "sweep": {"starting_money": [10, 13]}},
                             headers=as_app).get_json()
    named = client.post("/v1/games", headers=as_app, json={
        "ruleset": "monopoly-cars2", "seats": [{"player": "ann"}, {"player": "bob"}]}).get_json()
    tournament = client.post("/v1/tournaments", json={
        "ruleset": "monopoly-cars2", "format": "swiss", "table_size": 2, "entrants": ["ann", "bob", "cy", "dee"]},
        headers=as_app).get_json()
    tables = [table["game"] for table in tournament["played"][0]["tables"]]
    secrets_of_the_app = (unlisted["id"], simulation["id"], experiment["id"], named["id"], tournament["id"], *tables)
    # The secret key's listings do name them (so the check below could fail).
    mine = client.get("/v1/apps/me/games", headers=as_app).get_data(as_text=True)
    assert unlisted["id"] in mine
    assert named["id"] in client.get("/v1/players/ann/games", headers=as_app).get_data(as_text=True)
    assert tournament["id"] in client.get("/v1/tournaments", headers=as_app).get_data(as_text=True)

    values = {"game_id": listed["id"], "ruleset_id": "monopoly-cars2", "sim_id": "sim_0000000000",
              "webhook_id": "wh_0000000000", "seat": "1", "player_id": "ann", "tournament_id": "tn_0000000000",
              "exp_id": experiment["id"], "version": "0"}
    read = 0
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/v1/") or "GET" not in rule.methods:
            continue
        path = rule.rule
        for name in rule.arguments:
            path = path.replace(f"<{name}>", values[name]).replace(f"<int:{name}>", values[name])
            path = path.replace(f"<string:{name}>", values[name])
        reply = client.get(path, headers={"X-Api-Key": public, "Origin": ORIGIN}, buffered=False)
        try:
            body = next(iter(reply.response), b"") if rule.endpoint.endswith("Stream") else reply.get_data()
        finally:
            reply.close()
        text = body.decode() if isinstance(body, bytes) else str(body)
        assert not any(secret_id in text for secret_id in secrets_of_the_app), (rule.rule, text[:300])
        assert reply.status_code < 500, (rule.rule, text[:300])
        read += reply.status_code == 200
    assert read >= 10  # the lobby, the listed game's reads, rulesets, ...
    lobby = client.get("/v1/games", headers={"X-Api-Key": public, "Origin": ORIGIN}).get_json()
    assert [game["id"] for game in lobby["games"]] == [listed["id"]]


def test_the_app_as_its_publishable_key_sees_it_shows_nothing_of_its_use(service):
    app, secret, public = service
    client = app.test_client()
    client.post("/v1/games", json={"ruleset": "monopoly-cars2", "seats": SEATS}, headers={"X-Api-Key": secret})
    assert client.get("/v1/apps/me", headers={"X-Api-Key": secret}).get_json()["usage"]["live_games"] == 1
    seen = client.get("/v1/apps/me", headers={"X-Api-Key": public, "Origin": ORIGIN}).get_json()
    assert seen["key_kind"] == "publishable" and seen["scopes"] == []
    assert set(seen["usage"].values()) == {0} and set(seen["quotas"].values()) == {0}
