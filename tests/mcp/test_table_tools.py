"""The table's other tools through MCP: the served words, a hint as an option id, win chances, chat."""

from __future__ import annotations

import asyncio

from tests.mcp.conftest import call, stdio_client


def test_hint_win_chances_and_chat_of_a_live_game(service):
    async def session():
        async with stdio_client(service) as client:
            created = await call(client, "create_game", ruleset="monopoly-cars2", seed=6, hints=True, chat=True,
                                 seats=[{"agent": True, "name": "Ann"}, {"bot": "heuristic"}])
            game_id = created["game_id"]
            assert (await call(client, "wait_for_turn", game_id=game_id, timeout=30))["ready"]
            seen = await call(client, "observe", game_id=game_id)
            for _ in range(10):
                hint = await call(client, "hint", game_id=game_id)
                if hint["status"] == "ready":
                    break
            chances = await call(client, "win_chances", game_id=game_id)
            await call(client, "chat", game_id=game_id, text="good luck")
            said = await call(client, "chat", game_id=game_id)
            return seen, hint, chances, said

    seen, hint, chances, said = asyncio.run(session())
    decision = seen["decisions"][0]
    # The words are the served labels (engine/games/monopoly_cars2/data/labels.json), as the web table shows.
    assert decision["heading"] == "Your turn" and "Spin" in [option["label"] for option in decision["options"]]
    assert hint["status"] == "ready" and hint["option"] in [option["id"] for option in decision["options"]]
    assert len(chances["chances"]) == 2 and abs(sum(chances["chances"]) - 1) < 1e-6
    assert [message["text"] for message in said["messages"]] == ["good luck"]
