"""Players, ratings and tournaments through the SDK, every request and answer checked against
openapi.yaml (docs/competition.md)."""

from __future__ import annotations

import pytest
from rulehouse_sdk import InvalidRequest, NotFound


def test_players_ratings_and_a_tournament_through_the_sdk(client):
    game = client.create_game("cash-n-guns", [{"player": "ann"}, {"player": "bob"}, {"bot": "heuristic"},
                                              {"bot": "heuristic", "player": "bot:heuristic#2"}], rated=True, seed=4)
    assert game["rated"] is True and [s["player"] for s in game["seats"]][:2] == ["ann", "bob"]
    ann = client.get_player("ann")
    assert ann["ratings"] == [] and ann["games_played"] == 1
    listed = client.list_player_games("ann", limit=5)
    assert [(g["id"], g["seat"], g["rated"]) for g in listed["games"]] == [(game["id"], 0, True)]
    assert client.get_leaderboard("cash-n-guns")["ratings"] == []
    with pytest.raises(NotFound):
        client.get_player("nobody")
    made = client.create_tournament("whipcash", "round_robin", 2, ["ann", "bob", "bot:random#1", "bot:random#2"],
                                    decision_timeout=60)
    assert made["rounds"] == 3 and made["status"] == "running"
    tokens = [token for table in made["played"][0]["tables"] for token in table["tokens"].values()]
    assert len(tokens) == 2
    read = client.get_tournament(made["id"])
    assert read["played"][0]["tables"] == made["played"][0]["tables"]
    assert [t["id"] for t in client.list_tournaments()["tournaments"]] == [made["id"]]
    with pytest.raises(InvalidRequest) as refused:
        client.create_tournament("whipcash", "duplicate", 2, ["ann", "bob", "cy"])
    assert refused.value.errors[0]["pointer"] == "/entrants"
