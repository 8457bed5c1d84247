"""Clients racing on one game: one winner per version, nothing lost, nothing applied twice."""

from __future__ import annotations

import json
import threading
import uuid

from engine.core.rng import Rng
from tests.api.helpers import act, auth, create_game

THREADS_PER_SEAT = 4


def race(app, game: dict, seat: int, thread: int, accepted: list, statuses: list) -> None:
    client = app.test_client()
    token = game["seats"][seat]["token"]
    rng = Rng(seat * 100 + thread)
    while True:
        listed = client.get(f"/v1/games/{game['id']}/decisions", headers=auth(token)).get_json()
        snapshot = client.get(f"/v1/games/{game['id']}").get_json()
        if snapshot["status"] == "finished":
            return
        if not listed["decisions"]:
            continue
        action = rng.choice(listed["decisions"][0]["options"])
        reply = act(client, game["id"], token, action, listed["version"], **{"Idempotency-Key": uuid.uuid4().hex})
        statuses.append(reply.status_code)
        if reply.status_code == 200:
            accepted.append((reply.get_json()["version"], seat, action))
        else:
            assert reply.status_code in (409, 412), reply.get_json()


def test_racing_clients_leave_exactly_the_replay_of_accepted_actions(app, client, toy_ruleset):
    store = app.extensions["rulehouse.store"]
    for seed in (1, 2):
        game = create_game(client, toy_ruleset.id, [{"name": "a"}, {"name": "b"}], seed=seed,
                           options={"rounds": 12})
        accepted: list = []
        statuses: list = []
        threads = [threading.Thread(target=race, args=(app, game, seat, n, accepted, statuses))
                   for seat in (0, 1) for n in range(THREADS_PER_SEAT)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        assert not any(thread.is_alive() for thread in threads)

        accepted.sort(key=lambda entry: entry[0])
        assert [version for version, _, _ in accepted] == list(range(1, len(accepted) + 1))
        assert len(accepted) == 12 * 3
        assert 412 in statuses  # the race really happened
        log = store.action_log(game["id"])
        assert log == [(seat, action) for _, seat, action in accepted]
        replayed = toy_ruleset.new_game(2, {"rounds": 12}, seed)
        for seat, action in log:
            toy_ruleset.apply(replayed, seat, action)
        record = store.load(game["id"])
        assert record.version == len(accepted)
        assert json.loads(record.state) == toy_ruleset.to_dict(replayed)
        assert record.status == "finished"
