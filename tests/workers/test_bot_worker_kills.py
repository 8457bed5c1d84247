"""Bot games survive workers killed (SIGKILL) at seeded random moments: every game finishes,
and every move was applied exactly once (the stored state is the replay of the action log)."""

from __future__ import annotations

import random
import signal
import time

from tests.processes import wait_for
from tests.workers.test_bot_seats import assert_log_replays_to_stored_state

#: Replay a failure with the same seed (the kill moments and victims derive from it).
SEED = 20261130
#: Enough play to outlast the kills: a bot job plays a run of moves (issue 29), so 30 games were over in seconds.
GAMES = 90
PLAYERS = 4
#: Seconds of killing (or less, once every game is over), then the survivors must finish.
KILL_SECONDS = 20
FINISH_SECONDS = 40


def finished(store, game_ids: list[str]) -> list[str]:
    # Straight from the store: a read through the API would queue missing jobs itself and hide the sweep.
    return [game_id for game_id in game_ids if store.status(game_id)[0] == "finished"]


def test_bot_games_finish_with_each_move_once_while_workers_are_killed_at_random(app, workers, monkeypatch):
    # A started job whose worker was killed is taken for dead after 1 s (the default is seconds too).
    monkeypatch.setenv("RULEHOUSE_BOT_JOB_LEASE", "1")
    rng = random.Random(SEED)
    client = app.test_client()
    store = app.extensions["rulehouse.store"]
    alive = workers.start(2)
    game_ids = []
    for number in range(GAMES):
        reply = client.post("/v1/games", json={"ruleset": "monopoly-cars2", "seed": number, "seats": [
            {"name": f"bot{seat}", "bot": rng.choice(["random", "heuristic"])} for seat in range(PLAYERS)]})
        assert reply.status_code == 201, reply.get_json()
        game_ids.append(reply.get_json()["id"])

    kills = 0
    stop_at = time.monotonic() + KILL_SECONDS
    while time.monotonic() < stop_at and len(finished(store, game_ids)) < GAMES:
        time.sleep(rng.uniform(0.05, 0.4))
        victim = alive.pop(rng.randrange(len(alive)))
        victim.send_signal(signal.SIGKILL)
        victim.wait()
        kills += 1
        alive += workers.start(1, wait=False)  # it joins within a second or two
    assert kills >= 8, "the games ended before the workers were killed often enough to test anything"

    wait_for(lambda: len(finished(store, game_ids)) == GAMES, timeout=FINISH_SECONDS, interval=0.2)
    for number, game_id in enumerate(game_ids):
        assert_log_replays_to_stored_state(app, game_id, "monopoly-cars2", PLAYERS, number)
        # No gap and no double: one logged action per version.
        assert len(store.action_log(game_id)) == store.load(game_id).version
