"""A whole Monopoly: Cars 2 game refereed over HTTP, each move made with its seat's token and checked."""

from __future__ import annotations

import pytest

from tests.api.helpers import act, assert_problem
from tests.api.playthrough import play_over_http


@pytest.mark.parametrize("players, seed", [(2, 3), (4, 12)])
def test_monopoly_cars2_game_played_to_the_end_over_http(client, players, seed):
    play = play_over_http(client, "monopoly-cars2", players, seed=seed)
    assert play.finished
    assert len(play.actions) >= players  # everyone rolled at least once
    game = client.get(f"/v1/games/{play.game_id}").get_json()
    assert game["status"] == "finished" and game["waiting_for"] == []
    assert game["result"]["winners"] and sorted(game["result"]["ranking"]) == list(range(players))
    # Nothing more is accepted once the game is over.
    body = assert_problem(act(client, play.game_id, play.tokens[0], {"type": "roll"}, game["version"]),
                          409, "illegal-action")
    assert body["reason"] in ("game_over", "not_your_turn")
