"""Game analysis through the SDK (every request and answer checked against openapi.yaml), on a real worker."""

from __future__ import annotations

import time

import pytest
from rulehouse_sdk import IllegalAction

from engine.analysis.game import analyse


def test_get_analysis_answers_pending_then_the_analysis_of_the_games_record(client, worker):
    game = client.create_game("whipcash", [{"bot": "heuristic"}, {"bot": "heuristic"}], seed=5)
    deadline = time.monotonic() + 60
    while client.get_game(game["id"])["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.1)
    while (analysis := client.get_analysis(game["id"], wait=5))["status"] == "pending":
        assert time.monotonic() < deadline, analysis
    expected = analyse(client.get_record(game["id"]))
    assert {key: value for key, value in analysis.items() if key not in ("game_id", "version", "status")} == expected
    for part in analysis["split"]:
        assert part["skill"] + part["luck"] + part["others"] + part["drift"] == part["change"]


def test_a_live_game_has_no_analysis(client):
    game = client.create_game("whipcash", [{"name": "Ann"}, {"name": "Bob"}], seed=7)
    with pytest.raises(IllegalAction) as refused:
        client.get_analysis(game["id"])
    assert refused.value.reason == "not_finished" and refused.value.status == 409
