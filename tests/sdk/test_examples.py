"""The examples run against a live server, through SDK clients checked against openapi.yaml."""

from __future__ import annotations

import importlib.util
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def load_example(name: str):
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_play_game_plays_a_whole_monopoly_game(base_url, checker, capsys):
    final = load_example("play_game").main(base_url, seed=11, session=checker.session())
    assert final["status"] == "finished"
    assert final["result"]["winners"] and set(final["result"]["winners"]) <= {0, 1}
    assert final["waiting_for"] == []
    assert "winners" in capsys.readouterr().out
    assert ("POST", "/v1/games/{game_id}/actions", 200) in checker.checked
