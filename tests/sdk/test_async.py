"""The asyncio client against a live server: the same operations (generated from the same spec),
typed results, errors, resumed streams and simulation waits."""

from __future__ import annotations

import asyncio
import inspect
import threading

import pytest
from rulehouse_sdk import Client, IllegalAction, InvalidRequest, NotFound, Operations, types
from rulehouse_sdk._generated import AsyncOperations
from rulehouse_sdk.aio import AsyncClient

from tests.sdk.test_typed import LINE_TYPES, fits, short_streams_url, slow_start  # noqa: F401 (a fixture)

RULESET = "monopoly-cars2"


def operations(cls) -> dict[str, inspect.Signature]:
    return {name: inspect.signature(member) for name, member in vars(cls).items()
            if not name.startswith("_") and callable(member)}


def test_the_async_operations_are_the_same_operations():
    blocking, awaited = operations(Operations), operations(AsyncOperations)
    assert set(blocking) == set(awaited)
    for name, signature in blocking.items():
        assert list(signature.parameters) == list(awaited[name].parameters), name
        assert inspect.iscoroutinefunction(getattr(AsyncOperations, name)), name


def test_a_game_through_the_async_client(base_url):
    async def play() -> None:
        async with AsyncClient(base_url, retries=1, backoff=0.05) as service:
            created = await service.create_game(RULESET, [{"name": "Ann"}, {"name": "Ben"}], seed=7)
            assert fits(created, types.CreatedGame)
            ann = service.with_token(created["seats"][0]["token"])
            decisions = await ann.get_decisions(created["id"])
            assert fits(decisions, types.Decisions) and decisions["decisions"][0]["kind"] == "turn"
            done = await ann.submit_action(created["id"], {"type": "roll"}, if_match=decisions["version"])
            assert fits(done, types.ActionResult) and done["version"] == 1
            with pytest.raises(IllegalAction) as illegal:
                await ann.submit_action(created["id"], {"type": "roll"}, if_match=1)
            assert illegal.value.reason == "not_your_turn"
            with pytest.raises(NotFound):
                await service.get_game("no-such-game")
            with pytest.raises(InvalidRequest, match="/seats/1/bot"):
                await service.create_game(RULESET, [{"name": "Ann"}, {"name": "Ben", "bot": "nobody"}])
            logged = [entry async for entry in service.iter_events(created["id"])]
            blocking = Client(base_url)
            assert logged == list(blocking.iter_events(created["id"]))
            assert (await service.get_rules_doc(RULESET)).startswith("# ")
            blocking.close()

    asyncio.run(play())


def test_an_async_stream_resumes_after_the_time_limit(short_streams_url):  # noqa: F811
    blocking = Client(short_streams_url)
    game = blocking.create_game(RULESET, [{"name": "Ann"}, {"name": "Ben"}], seed=5)
    seats = {seat["seat"]: blocking.with_token(seat["token"]) for seat in game["seats"]}

    async def follow() -> list:
        async with AsyncClient(short_streams_url) as service:
            lines = await service.stream_events(game["id"])
            return [line async for line in lines]

    player = threading.Thread(target=slow_start, args=(seats, game["id"]))
    player.start()
    streamed = asyncio.run(follow())
    player.join()
    assert [line["kind"] for line in streamed].count("state") == 1
    assert streamed[-1]["kind"] == "end" and streamed[-1]["reason"] == "finished"
    events = [{key: line[key] for key in ("cursor", "version", "event")}
              for line in streamed if line["kind"] == "event"]
    assert events == list(blocking.iter_events(game["id"], after=streamed[0]["cursor"]))
    assert all(fits(line, LINE_TYPES[line["kind"]]) for line in streamed)
    blocking.close()


def test_an_async_wait_for_a_simulation(base_url, worker):
    async def run() -> types.Simulation:
        async with AsyncClient(base_url) as service:
            created = await service.create_simulation(RULESET, 40, players=2, seed=3, chunk_size=20)
            return await service.wait_for_simulation(created["id"], poll_interval=0.05, timeout=120)

    done = asyncio.run(run())
    assert done["status"] == "finished" and done["result"]["games"] == 40 and fits(done, types.Simulation)
