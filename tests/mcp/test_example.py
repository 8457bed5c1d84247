"""examples/mcp_agent.py plays a whole game through rulehouse-mcp against a live service and its bots."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from tests.sdk.test_examples import load_example


def test_the_mcp_agent_example_plays_a_whole_game(service, capsys, monkeypatch):
    # The example finds rulehouse-mcp on PATH, as a shell does: this checkout's.
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    final = load_example("mcp_agent").main(service, "hitchiker", seed=5, turn_cap=12)
    assert final["status"] == "finished" and final["moves"] > 0 and final["result"]["winners"]
    printed = capsys.readouterr().out
    assert " -> " in printed and f"game {final['game_id']} (hitchiker)" in printed
