"""An agent that plays a whole game through Rulehouse's MCP server, with no model at all.

    pip install -e "./sdk[mcp]"      # or: pip install "rulehouse-sdk[mcp]"
    python examples/mcp_agent.py [BASE_URL] [RULESET]

It starts ``rulehouse-mcp --url BASE_URL`` over stdio as an agent host does, creates a game against a
heuristic bot, and then loops as a language model would: wait_for_turn, observe, act. Its rule is
simple: the first option on offer, and a ranged amount at the middle of its range. It never sees a
token: the server keeps the seat's.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
from typing import Any

from mcp import Client
from mcp.client.stdio import StdioServerParameters


async def tool(client: Client, name: str, **arguments: Any) -> Any:
    answer = await client.call_tool(name, arguments)
    if answer.is_error:
        raise RuntimeError(" ".join(part.text for part in answer.content))
    content = answer.structured_content
    return content["result"] if isinstance(content, dict) and set(content) == {"result"} else content


def pick(option: dict[str, Any]) -> dict[str, Any]:
    """The act arguments for ``option``: a ranged one at the middle of each range."""
    amounts = {name: (span["min"] + span["max"]) // 2 for name, span in option.get("parameters", {}).items()}
    return {"option": option["id"], **({"amounts": amounts} if amounts else {})}


async def play(base_url: str, ruleset: str, seed: int, turn_cap: int | None) -> dict[str, Any]:
    command = shutil.which("rulehouse-mcp") or "rulehouse-mcp"
    async with Client(StdioServerParameters(command=command, args=["--url", base_url])) as client:
        about = next(entry for entry in await tool(client, "list_rulesets") if entry["id"] == ruleset)
        seats = [{"agent": True, "name": "Rulebot"}] + [{"bot": "heuristic"}] * (max(2, about["min_players"]) - 1)
        game = await tool(client, "create_game", ruleset=ruleset, seats=seats, seed=seed,
                          options={"turn_cap": turn_cap} if turn_cap else None)
        game_id, moves = game["game_id"], 0
        while True:
            if not (await tool(client, "wait_for_turn", game_id=game_id, timeout=60))["ready"]:
                continue
            seen = await tool(client, "observe", game_id=game_id)
            if seen["status"] != "active":
                break
            for decision in seen["decisions"][:1]:
                option = decision["options"][0]
                done = await tool(client, "act", game_id=game_id, **pick(option))
                moves += 1
                print(f"{decision['heading']} -> {done['accepted']}")
        result = seen["result"]
        winners = [seen["seats"][seat]["name"] for seat in result["winners"]]
        print(f"game {game_id} ({ruleset}): {moves} moves of ours; winners {winners} ({result['reason']})")
        return {**seen, "moves": moves}


def main(base_url: str = "http://127.0.0.1:8000", ruleset: str = "monopoly-cars2", *, seed: int = 7,
         turn_cap: int | None = None) -> dict[str, Any]:
    return asyncio.run(play(base_url, ruleset, seed, turn_cap))


if __name__ == "__main__":
    main(*sys.argv[1:3])
