"""Live streams are woken by their game's changes, not by polling."""

from __future__ import annotations

import json
import threading

from tests.api.helpers import auth, create_game


def test_deleting_a_game_ends_its_live_stream_at_once_with_gone(client, app, toy_ruleset):
    # Keep-alives so rare that only the deletion's wake-up can end the stream before its time limit.
    app.config["STREAM_KEEPALIVE_SECONDS"] = 60.0
    game = create_game(client, toy_ruleset.id, [{"name": "a"}, {"name": "b"}])
    reply = client.get(f"/v1/games/{game['id']}/stream", buffered=False)
    lines = iter(reply.response)
    assert json.loads(next(lines))["kind"] == "state"
    other = app.test_client()
    deleter = threading.Timer(0.3, lambda: other.delete(f"/v1/games/{game['id']}",
                                                        headers=auth(game["creator_token"])))
    deleter.start()
    rest = [json.loads(line) for line in lines]
    deleter.join()
    reply.close()
    assert rest == [{"kind": "end", "reason": "gone", "version": 0, "result": None}]
