"""The ``rulehouse-mcp`` script: without the extra it says what to install; its tools describe themselves."""

from __future__ import annotations

import asyncio
import subprocess
import sys

from mcp import Client
from rulehouse_sdk.mcp.server import build_server


def test_without_the_mcp_package_the_script_says_what_to_install():
    # `None` in sys.modules makes `import mcp` fail as it does where the package is not installed.
    code = "import sys; sys.modules['mcp'] = None; from rulehouse_sdk.mcp.cli import main; main(['--url', 'x'])"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert 'pip install "rulehouse-sdk[mcp]"' in done.stderr and "Traceback" not in done.stderr


def test_every_tool_has_a_description_and_a_schema_without_tokens():
    async def listed():
        async with Client(build_server("http://127.0.0.1:9")) as client:
            return (await client.list_tools()).tools

    tools = {tool.name: tool for tool in asyncio.run(listed())}
    assert set(tools) == {"list_rulesets", "read_rules", "create_game", "join_game", "my_games", "observe", "act",
                          "wait_for_turn", "chat", "hint", "win_chances", "record", "analysis"}
    for tool in tools.values():
        assert len(tool.description) > 40, tool.name
        assert not any("token" in name for name in tool.input_schema.get("properties", {})), tool.name
    assert tools["wait_for_turn"].input_schema["properties"]["timeout"]["maximum"] == 120
