"""App keys belong to the session: over HTTP each client's own header, over stdio the session's
environment; the service's quotas and key rules apply to each app through the MCP server."""

from __future__ import annotations

import asyncio

import pytest
import redis as redis_lib

from api.apps.app_store import AppKeys
from tests.mcp.conftest import call, http_client, http_server, refused, stdio_client
from tests.sdk.conftest import serving

SEATS = [{"agent": True, "name": "Ann"}, {"agent": True, "name": "Bo"}]


@pytest.fixture
def keyed(redis_db_url):
    """A service that requires app keys, and two apps: one allowed a single live game."""
    keys = AppKeys(redis_lib.Redis.from_url(redis_db_url, decode_responses=True))
    _, small = keys.create_app("one game", quotas={"live_games": 1})
    _, large = keys.create_app("many games")
    with serving({"REDIS_URL": redis_db_url, "REQUIRE_API_KEYS": True, "BOT_QUEUE": None}) as url:
        yield url, small, large


def test_over_http_each_client_acts_with_its_own_key_and_seats(keyed):
    url, small, large = keyed

    async def clients(endpoint):
        async with http_client(endpoint, small) as one, http_client(endpoint, large) as other, \
                http_client(endpoint) as keyless:
            first = await call(one, "create_game", ruleset="monopoly-cars2", seats=SEATS, seed=1)
            return {
                "over quota": await refused(one, "create_game", ruleset="monopoly-cars2", seats=SEATS, seed=2),
                "other's game": await call(other, "create_game", ruleset="monopoly-cars2", seats=SEATS, seed=3),
                "other's seats": await call(other, "my_games"),
                "one's seats": await call(one, "my_games"),
                "other observes one's game": await refused(other, "observe", game_id=first["game_id"], seat=0),
                "keyless": await refused(keyless, "list_rulesets"),
                "first": first,
            }

    with http_server(url) as endpoint:
        found = asyncio.run(clients(endpoint))
    first, second = found["first"]["game_id"], found["other's game"]["game_id"]
    assert "403" in found["over quota"] and "(reason: quota_live_games)" in found["over quota"]
    assert found["one's seats"] == [{"game_id": first, "seats": [0, 1]}]
    assert found["other's seats"] == [{"game_id": second, "seats": [0, 1]}]
    assert f"holds no seat in game {first}" in found["other observes one's game"]
    assert "401" in found["keyless"]


def test_over_http_two_agents_of_one_app_hold_their_own_seats(keyed):
    """Agents of one app name their sessions: each holds its own seats, and naming another agent's session
    with another app's key reaches none of them."""
    url, small, large = keyed

    async def agents(endpoint):
        async with http_client(endpoint, large, session="agent-a") as first, \
                http_client(endpoint, large, session="agent-b") as second, \
                http_client(endpoint, small, session="agent-a") as impostor:
            game = await call(first, "create_game", ruleset="monopoly-cars2", seats=SEATS, seed=4)
            return {
                "game": game,
                "first's seats": await call(first, "my_games"),
                "second's seats": await call(second, "my_games"),
                "second observes": await refused(second, "observe", game_id=game["game_id"], seat=0),
                "impostor's seats": await call(impostor, "my_games"),
                "impostor observes": await refused(impostor, "observe", game_id=game["game_id"], seat=0),
            }

    with http_server(url) as endpoint:
        found = asyncio.run(agents(endpoint))
    game_id = found["game"]["game_id"]
    assert found["first's seats"] == [{"game_id": game_id, "seats": [0, 1]}]
    assert found["second's seats"] == [] and found["impostor's seats"] == []
    assert f"holds no seat in game {game_id}" in found["second observes"]
    assert f"holds no seat in game {game_id}" in found["impostor observes"]


def test_over_stdio_the_key_comes_from_the_sessions_environment(keyed):
    url, _, large = keyed

    async def sessions():
        async with stdio_client(url, large) as keyed_session, stdio_client(url) as keyless:
            return await call(keyed_session, "list_rulesets"), await refused(keyless, "list_rulesets")

    rulesets, keyless = asyncio.run(sessions())
    assert "monopoly-cars2" in [entry["id"] for entry in rulesets]
    assert "401" in keyless
