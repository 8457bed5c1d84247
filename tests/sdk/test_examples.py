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


def test_records_example_checks_the_dice_forks_and_evaluates(base_url, checker, capsys):
    found = load_example("records").main(base_url, seed=3, session=checker.session())
    record, fork, answer = found["record"], found["fork"], found["evaluation"]
    assert record["status"] == "finished" and record["seed"] is not None
    assert fork["fork"] == {"game": record["game"], "version": record["version"] // 2, "hidden_redealt": False}
    assert answer["legal"] and answer["applied"] == record["version"] // 2
    assert "matches the commitment" in capsys.readouterr().out
    for operation in (("GET", "/v1/games/{game_id}/record", 200), ("POST", "/v1/rulesets/{ruleset_id}/evaluate", 200),
                      ("POST", "/v1/games", 201)):
        assert operation in checker.checked
def test_lobby_fills_a_listed_table_and_plays_it(base_url, checker, worker, capsys):
    final = load_example("lobby").main(base_url, seed=5, session=checker.session())
    assert final["status"] == "finished"
    assert [seat["name"] for seat in final["seats"][:2]] == ["Ann", "Bea"]
    assert "winners" in capsys.readouterr().out
    for operation in (("GET", "/v1/games", 200), ("POST", "/v1/games/{game_id}/join", 201),
                      ("POST", "/v1/games/{game_id}/actions", 200)):
        assert operation in checker.checked


def test_cash_n_guns_with_bots_plays_a_whole_game(base_url, checker, worker, capsys):
    final = load_example("cash_n_guns_with_bots").main(base_url, seed=3, session=checker.session())
    assert final["status"] == "finished" and final["stale"] == 0 and final["moves"] > 5
    assert "rejected as stale" in capsys.readouterr().out
