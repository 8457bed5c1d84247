"""Ratings and tournaments on real RQ workers (docs/competition.md): the move that finishes a rated
game, played by a worker's bot, rates both players as openskill says."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from engine.competition import ranks_from_result
from tests.api.helpers import act, auth
from tests.processes import wait_for

WORKERS = 2
TIMEOUT = 90


@pytest.fixture
def client(app, toy_race):
    return app.test_client()


def test_a_rated_game_finished_by_a_worker_rates_both_players_as_openskill_says(client, workers):
    workers.start(WORKERS)
    created = client.post("/v1/games", json={"ruleset": "toy-race", "seed": 3, "rated": True, "options": {"goal": 12},
                                             "seats": [{"player": "ann"}, {"bot": "random"}]}).get_json()
    game_id, token = created["id"], created["seats"][0]["token"]
    while True:
        game = wait_for(lambda: (lambda g: g if g["status"] == "finished" or 0 in g["waiting_for"] else None)(
            client.get(f"/v1/games/{game_id}", headers=auth(token)).get_json()), TIMEOUT)
        if game["status"] == "finished":
            break
        reply = act(client, game_id, token, {"type": "roll"}, game["version"])
        assert reply.status_code in (200, 412), reply.get_json()
    ranks = ranks_from_result(game["result"])
    model = PlackettLuce()
    expected = model.rate([[model.rating()], [model.rating()]], ranks=ranks)
    board = wait_for(lambda: (lambda b: b if len(b["ratings"]) == 2 else None)(
        client.get("/v1/ratings/toy-race").get_json()), TIMEOUT)
    got = {entry["player"]: (entry["mu"], entry["sigma"]) for entry in board["ratings"]}
    assert got["ann"] == pytest.approx((expected[0][0].mu, expected[0][0].sigma))
    assert got["bot:random"] == pytest.approx((expected[1][0].mu, expected[1][0].sigma))
    assert got["ann"] != got["bot:random"], "one of them won"
    # Rated once: the sweep of the workers finds nothing left to rate.
    bot = client.get("/v1/players/bot:random").get_json()
    assert bot["ratings"][0]["games"] == 1 and len(bot["recent"]) == 1
