"""The bot job's logic, run in-process: it moves only at its version, from its own view, deterministically."""

from __future__ import annotations

from api.service.jobs.bots import play_bot_turn
from tests.api.helpers import act, auth, create_game


def bots_only(client, seed: int) -> str:
    return create_game(client, "monopoly-cars2", [{"name": "x", "bot": "heuristic"}, {"name": "y", "bot": "random"}],
                       seed=seed)["id"]


def play_out(store, game_id: str) -> int:
    version = 0
    while (said := play_bot_turn(game_id, version, store)).startswith("seat"):
        version += 1
    assert said == "over"
    return version


def test_bots_replay_the_same_game_from_the_same_seed(client, app):
    store = app.extensions["rulehouse.store"]
    first, second = bots_only(client, 9), bots_only(client, 9)
    assert play_out(store, first) == play_out(store, second) > 0
    assert store.action_log(first) == store.action_log(second)


def test_a_job_for_an_old_version_does_nothing(client, app):
    store = app.extensions["rulehouse.store"]
    game_id = bots_only(client, 4)
    assert play_bot_turn(game_id, 0, store).startswith("seat")
    assert play_bot_turn(game_id, 0, store) == "moved-on"  # a duplicate or late job
    assert store.load(game_id).version == 1
    assert play_bot_turn("no-such-game", 0, store) == "gone"


def test_a_job_does_not_move_for_a_human_seat(client, app):
    from engine.core.registry import get_ruleset

    ruleset = get_ruleset("monopoly-cars2")
    seed = next(seed for seed in range(100) if ruleset.pending(ruleset.new_game(2, None, seed))[0].seat == 0)
    store = app.extensions["rulehouse.store"]
    game = create_game(client, "monopoly-cars2", [{"name": "human"}, {"name": "bot", "bot": "random"}], seed=seed)
    assert play_bot_turn(game["id"], 0, store) == "no-bot-pending"
    assert store.load(game["id"]).version == 0
    token = game["seats"][0]["token"]
    decision = client.get(f"/v1/games/{game['id']}/decisions", headers=auth(token)).get_json()["decisions"][0]
    assert act(client, game["id"], token, decision["options"][0], 0).status_code == 200
