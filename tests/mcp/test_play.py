"""An MCP client from the `mcp` package plays whole games of every ruleset against bots, over stdio and
over streamable HTTP, choosing among the offered options."""

from __future__ import annotations

import asyncio
import random

import pytest

from tests.mcp.conftest import call, http_client, http_server, stdio_client

#: short games: the turn caps end each within a few dozen moves
SHORT = {"monopoly-cars2": {"turn_cap": 12}, "whipcash": {"turn_cap": 12}, "hitchiker": {"turn_cap": 12},
         "cash-n-guns": {"turn_cap": 2}}


async def play_whole_game(client, ruleset: str, players: int, seed: int) -> dict:
    rng = random.Random(seed)
    seats = [{"agent": True, "name": "Agent"}] + [{"bot": "heuristic"}] * (players - 1)
    created = await call(client, "create_game", ruleset=ruleset, seats=seats, options=SHORT[ruleset], seed=seed)
    game_id = created["game_id"]
    assert created["your_seats"] == [0]
    moves = 0
    for _ in range(2000):
        waited = await call(client, "wait_for_turn", game_id=game_id, timeout=30)
        assert waited["ready"], waited
        seen = await call(client, "observe", game_id=game_id)
        if seen["status"] == "finished":
            seen["moves"] = moves
            return seen
        for decision in seen["decisions"][:1]:
            assert decision["heading"] and decision["options"]
            option = rng.choice(decision["options"])
            assert option["id"].startswith(decision["decision_id"] + ":") and option["label"]
            amounts = {name: rng.randint(span["min"], span["max"]) for name, span in
                       option.get("parameters", {}).items()}
            done = await call(client, "act", game_id=game_id, option=option["id"], **({"amounts": amounts}
                                                                                       if amounts else {}))
            assert done["version"] > seen["version"]
            moves += 1
    raise AssertionError("the game never finished")


async def play_every_ruleset(client) -> dict[str, dict]:
    rulesets = await call(client, "list_rulesets")
    assert {entry["id"] for entry in rulesets} == set(SHORT)
    finished = {}
    for index, entry in enumerate(sorted(rulesets, key=lambda entry: entry["id"])):
        finished[entry["id"]] = await play_whole_game(client, entry["id"], max(2, entry["min_players"]), seed=index)
    return finished


def check_finished(finished: dict[str, dict]) -> None:
    for ruleset, final in finished.items():
        assert final["status"] == "finished" and final["result"]["winners"], ruleset
        assert final["moves"] > 0 and final["decisions"] == [], ruleset


def test_stdio_client_plays_every_ruleset_against_bots(service):
    async def session():
        async with stdio_client(service) as client:
            tools = {tool.name: tool for tool in (await client.list_tools()).tools}
            assert {"observe", "act", "wait_for_turn", "create_game", "join_game"} <= set(tools)
            assert "option" in tools["act"].input_schema["properties"] and tools["act"].description
            return await play_every_ruleset(client)

    check_finished(asyncio.run(session()))


def test_streamable_http_client_plays_every_ruleset_against_bots(service):
    async def session(endpoint):
        async with http_client(endpoint) as client:
            return await play_every_ruleset(client)

    with http_server(service) as endpoint:
        check_finished(asyncio.run(session(endpoint)))


@pytest.mark.parametrize("ruleset", ["monopoly-cars2"])
def test_a_finished_game_has_its_record_and_analysis(service, ruleset):
    async def session():
        async with stdio_client(service) as client:
            final = await play_whole_game(client, ruleset, 2, seed=4)
            record = await call(client, "record", game_id=final["game_id"])
            for _ in range(10):
                analysis = await call(client, "analysis", game_id=final["game_id"])
                if analysis["status"] != "pending":
                    break
            return final, record, analysis

    final, record, analysis = asyncio.run(session())
    assert record["result"] == final["result"] and record["version"] == final["version"] >= final["moves"]
    assert analysis["status"] == "ready" and analysis["game_id"] == final["game_id"]
