"""Rate limits and quotas kept apart over real Redis: an app's publishable key (anyone's, being in
every page) counts per client address in buckets of its own, at the publishable figures, and never
spends its app's secret-key bucket; X-Forwarded-For counts only from trusted proxies; IPv6 by /64;
every read (the lobby's too) counts as a read."""

from __future__ import annotations

import ipaddress

import pytest

from api.apps.app_store import PUBLISHABLE
from api.http.client_address import client_ip, group, trusted_networks
from tests.api.helpers import assert_problem, auth

ORIGIN = "https://table.example"
GAME = {"ruleset": "monopoly-cars2", "seats": [{"name": "Ann"}, {"name": "Bob"}], "seed": 3}


def service(redis_db_url: str, **config):
    from api.app import create_app

    app = create_app({"REDIS_URL": redis_db_url, "BOT_QUEUE": None, "REQUIRE_API_KEYS": True, **config})
    app.testing = True
    return app


def page(key: str) -> dict:
    return {"X-Api-Key": key, "Origin": ORIGIN}


def from_address(address: str, forwarded: str | None = None) -> dict:
    """Test-client arguments for a request whose peer is ``address``."""
    headers = {} if forwarded is None else {"X-Forwarded-For": forwarded}
    return {"environ_base": {"REMOTE_ADDR": address}, "headers": headers}


def get(client, path: str, key: str, address: str = "203.0.113.5", forwarded: str | None = None):
    found = from_address(address, forwarded)
    return client.get(path, headers={**page(key), **found["headers"]}, environ_base=found["environ_base"])


def test_the_public_key_cannot_lock_its_app_out(redis_db_url, keys):
    """The review's case: the app's own reads=40/minute; 41 reads through the public key leave the
    secret key untouched, and the public key counts at the publishable figures, not the app's."""
    client = service(redis_db_url).test_client()
    app_id, secret = keys.create_app("Table", limits={"reads": "40/minute"})
    public = keys.create_key(app_id, PUBLISHABLE, (ORIGIN,))
    for _ in range(41):
        assert get(client, "/v1/rulesets", public).status_code == 200
    assert client.get("/v1/rulesets", headers={"X-Api-Key": secret}).status_code == 200
    me = get(client, "/v1/apps/me", public).get_json()
    assert me["rate_limits"]["reads"] == "600/minute"  # PUBLISHABLE_RATE_LIMITS, not the app's 40
    # And the other way round: the secret key spending its 40 leaves every browser its own reads.
    for _ in range(38):  # 40, less the one above and the /v1/apps/me below
        client.get("/v1/rulesets", headers={"X-Api-Key": secret})
    assert client.get("/v1/apps/me", headers={"X-Api-Key": secret}).status_code == 200
    assert_problem(client.get("/v1/rulesets", headers={"X-Api-Key": secret}), 429, "too-many-requests")
    assert get(client, "/v1/rulesets", public).status_code == 200


def test_public_key_quotas_are_the_publishable_ones_whatever_the_apps_overrides(redis_db_url, keys):
    client = service(redis_db_url).test_client()
    app_id, secret = keys.create_app("Table", quotas={"live_games": 5, "search_work_per_day": 10**12})
    public = keys.create_key(app_id, PUBLISHABLE, (ORIGIN,))
    publishable = get(client, "/v1/apps/me", public).get_json()["quotas"]
    mine = client.get("/v1/apps/me", headers={"X-Api-Key": secret}).get_json()["quotas"]
    # Every quota the app has, the publishable key has at 0 (a quota added later included).
    assert set(publishable) == set(mine) >= {"live_games", "simulation_work_per_day", "queued_chunks",
                                              "search_work_per_day", "search_work_per_seat_per_day", "rated_players"}
    assert set(publishable.values()) == {0}
    assert mine["live_games"] == 5 and mine["search_work_per_day"] == 10**12


def test_each_browser_has_its_own_bucket(redis_db_url, keys):
    """One visitor over the publishable limit is refused; another visitor, and the app, are not."""
    client = service(redis_db_url, PUBLISHABLE_RATE_LIMITS={"reads": "5/minute", "moves": "5/minute",
                                                            "writes": "5/minute", "streams": "5/minute"}).test_client()
    app_id, secret = keys.create_app("Table")
    public = keys.create_key(app_id, PUBLISHABLE, (ORIGIN,))
    for _ in range(5):
        assert get(client, "/v1/rulesets", public, "198.51.100.7").status_code == 200
    body = assert_problem(get(client, "/v1/rulesets", public, "198.51.100.7"), 429, "too-many-requests")
    assert body["limit_class"] == "reads" and "this client's rate limit" in body["detail"]
    assert get(client, "/v1/rulesets", public, "198.51.100.8").status_code == 200
    assert client.get("/v1/rulesets", headers={"X-Api-Key": secret}).status_code == 200


def test_forwarded_for_counts_only_from_a_trusted_proxy(redis_db_url, keys):
    limits = {"reads": "3/minute"}
    untrusting = service(redis_db_url, PUBLISHABLE_RATE_LIMITS=limits).test_client()
    app_id, _ = keys.create_app("Table")
    public = keys.create_key(app_id, PUBLISHABLE, (ORIGIN,))
    # Off by default: a client inventing a new X-Forwarded-For each time gains nothing.
    for number in range(3):
        assert get(untrusting, "/v1/rulesets", public, "192.0.2.10", f"10.9.9.{number}").status_code == 200
    assert_problem(get(untrusting, "/v1/rulesets", public, "192.0.2.10", "10.9.9.200"), 429, "too-many-requests")

    behind_proxy = service(redis_db_url, PUBLISHABLE_RATE_LIMITS=limits, TRUSTED_PROXIES="10.0.0.0/8").test_client()
    proxy = "10.0.0.2"
    for _ in range(3):
        assert get(behind_proxy, "/v1/rulesets", public, proxy, "198.51.100.20").status_code == 200
    assert_problem(get(behind_proxy, "/v1/rulesets", public, proxy, "198.51.100.20"), 429, "too-many-requests")
    # Another client behind the same proxy has its own bucket; what a client writes in front of the
    # address the proxy appended is never read.
    assert get(behind_proxy, "/v1/rulesets", public, proxy, "198.51.100.21").status_code == 200
    assert_problem(get(behind_proxy, "/v1/rulesets", public, proxy, "203.0.113.99, 198.51.100.20"),
                   429, "too-many-requests")
    # A peer that is not a trusted proxy is the client, whatever it forwards.
    assert get(behind_proxy, "/v1/rulesets", public, "192.0.2.77", "198.51.100.20").status_code == 200


def test_client_addresses_ipv6_by_64_and_the_proxy_chain():
    trusted = trusted_networks("10.0.0.0/8, 2001:db8:ffff::/48")
    same = {group(client_ip(peer, None, ())) for peer in ("2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:ffff")}
    assert same == {"2001:db8:1:2::/64"}
    assert group(client_ip("2001:db8:1:3::1", None, ())) == "2001:db8:1:3::/64"
    assert group(client_ip("::ffff:198.51.100.4", None, ())) == "198.51.100.4"
    assert client_ip("10.1.1.1", "198.51.100.1, 10.2.2.2", trusted) == ipaddress.ip_address("198.51.100.1")
    assert client_ip("2001:db8:ffff::1", "[2001:db8:5::9]:443", trusted) == ipaddress.ip_address("2001:db8:5::9")
    assert client_ip("10.1.1.1", "not-an-address", trusted) == ipaddress.ip_address("10.1.1.1")
    assert client_ip("198.51.100.9", "10.0.0.1", trusted) == ipaddress.ip_address("198.51.100.9")
    with pytest.raises(ValueError, match="TRUSTED_PROXIES"):
        trusted_networks("10.0.0.0/8, proxy.example")


def test_a_bad_trusted_proxies_setting_stops_the_start(redis_db_url):
    with pytest.raises(ValueError, match="'nope'"):
        service(redis_db_url, TRUSTED_PROXIES="nope")


def test_every_read_counts_as_a_read_the_lobby_too(redis_db_url, keys):
    """The class of every GET route is ``reads`` (the live streams' ``streams``), whatever blueprint
    it is in; and a visitor reading the lobby again and again can still move."""
    from api.apps.limits import STREAM_ENDPOINTS, rate_class

    app = service(redis_db_url, PUBLISHABLE_RATE_LIMITS={"moves": "2/minute", "reads": "600/minute"})
    classes = {}
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/v1/") or "GET" not in rule.methods:
            continue
        path = rule.rule.replace("<int:", "<").replace("<", "").replace(">", "")
        with app.test_request_context(path, method="GET"):
            from flask import request
            request.url_rule, request.view_args = rule, {}
            classes[rule.endpoint] = rate_class()
    assert "seats.Lobby" in classes and len(classes) > 15
    assert {endpoint for endpoint, cls in classes.items() if cls != "reads"} == STREAM_ENDPOINTS & set(classes)

    client = app.test_client()
    app_id, secret = keys.create_app("Table")
    public = keys.create_key(app_id, PUBLISHABLE, (ORIGIN,))
    game = client.post("/v1/games", json=GAME, headers={"X-Api-Key": secret}).get_json()
    for _ in range(5):
        assert get(client, "/v1/games", public).status_code == 200  # the lobby
    token = game["seats"][0]["token"]
    decisions = client.get(f"/v1/games/{game['id']}/decisions", headers={**page(public), **auth(token)}).get_json()
    if not decisions["decisions"]:
        token = game["seats"][1]["token"]
        decisions = client.get(f"/v1/games/{game['id']}/decisions", headers={**page(public), **auth(token)}).get_json()
    option = decisions["decisions"][0]["options"][0]
    moved = client.post(f"/v1/games/{game['id']}/actions", json=option,
                        headers={**page(public), **auth(token), "If-Match": '"0"'})
    assert moved.status_code == 200, moved.get_json()
