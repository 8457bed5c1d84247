"""The MCP server as an agent host starts it: ``rulehouse-mcp`` as a process of its own (over stdio, or
over streamable HTTP on a free port), a client of a live service with real workers."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import requests
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from tests.sdk.conftest import serving

SCRIPT = str(Path(sys.executable).with_name("rulehouse-mcp"))


@pytest.fixture
def service(redis_db_url, workers):
    """A live service on the test database, and one worker for the bot seats; its base URL."""
    with serving({"REDIS_URL": redis_db_url}) as url:
        workers.start(1)
        yield url


def stdio_client(url: str, api_key: str | None = None) -> Client:
    env = {"RULEHOUSE_API_KEY": api_key} if api_key else {}
    return Client(StdioServerParameters(command=SCRIPT, args=["--url", url], env=env), read_timeout_seconds=180)


@contextlib.contextmanager
def http_server(url: str):
    """``rulehouse-mcp --http`` on a free port; its MCP endpoint."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen([SCRIPT, "--url", url, "--http", "--port", str(port)], env=os.environ.copy())
    endpoint = f"http://127.0.0.1:{port}/mcp"
    try:
        deadline = time.monotonic() + 30
        while True:
            assert process.poll() is None, "rulehouse-mcp --http exited"
            try:
                requests.get(endpoint, timeout=1)
                break
            except requests.ConnectionError:
                assert time.monotonic() < deadline, "rulehouse-mcp --http never listened"
                time.sleep(0.1)
        yield endpoint
    finally:
        process.terminate()
        process.wait(timeout=10)


@contextlib.asynccontextmanager
async def http_client(endpoint: str, api_key: str | None = None, session: str | None = None):
    headers = {**({"X-Api-Key": api_key} if api_key else {}), **({"X-Rulehouse-Session": session} if session else {})}
    headers = headers or None
    async with create_mcp_http_client(headers=headers) as http, \
            Client(streamable_http_client(endpoint, http_client=http), read_timeout_seconds=180) as client:
        yield client


async def call(client: Client, tool: str, **arguments: Any) -> Any:
    """The tool's answer; fails the test on a tool error."""
    answer = await client.call_tool(tool, arguments)
    assert not answer.is_error, f"{tool} {arguments}: {answer.content}"
    content = answer.structured_content
    return content["result"] if isinstance(content, dict) and set(content) == {"result"} else content


async def refused(client: Client, tool: str, **arguments: Any) -> str:
    """The text of the tool error ``tool`` answers."""
    answer = await client.call_tool(tool, arguments)
    assert answer.is_error, f"{tool} {arguments} was not refused: {json.dumps(answer.structured_content)[:300]}"
    return " ".join(part.text for part in answer.content)
