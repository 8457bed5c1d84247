"""The helpers that were copies in api/ (issue 27), now one each: where the copies could have differed,
each caller still gets what it got (times at each field's precision, the stream's first line as GET
shows the game, the human seats a webhook names, a job's age and waiting states)."""

from __future__ import annotations

import json
import random
import re
import time
from datetime import UTC, datetime, timedelta

from rq.utils import utcformat

from api.games.bodies import STREAM_STATE_FIELDS
from api.ground import heartbeats, times
from api.play.deadlines import human_seats_pending
from api.runs import lifecycle, store
from engine.core.decisions import Decision

#: What ``datetime.isoformat()`` writes by default: seconds, or microseconds when there are any.
AUTO = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?Z")
MILLISECONDS = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")


def old_iso(timestamp: float) -> str:
    """api/http.py's and api/apps/webhooks.py's copy, as it was."""
    return datetime.fromtimestamp(timestamp, UTC).isoformat().replace("+00:00", "Z")


def test_each_precision_is_the_one_its_fields_always_had():
    rng = random.Random(27)
    moments = [1764600000.0, 1764600000.25, 1764600000.000001, 0.5,
               *(rng.uniform(0, 4e9) for _ in range(500))]
    for moment in moments:
        assert times.iso_time(moment) == old_iso(moment)
        assert lifecycle.iso_time(moment) == datetime.fromtimestamp(moment, UTC).isoformat(
            timespec="milliseconds").replace("+00:00", "Z")
        # the deadline.near webhook wrote time.strftime over time.gmtime: whole seconds
        whole = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(moment))
        assert times.iso_time(moment, "seconds") == whole
    assert times.iso_time(1764600000.25) == "2025-12-01T14:40:00.250000Z"
    assert times.iso_time(1764600000.0) == "2025-12-01T14:40:00Z"
    assert lifecycle.iso_time(1764600000.0) == "2025-12-01T14:40:00.000Z"
    assert times.iso_time(1764600000.9, "seconds") == "2025-12-01T14:40:00Z"
    assert lifecycle.iso_time(None) is None


def test_a_games_times_and_a_simulations_keep_their_formats(client, app, toy_ruleset):
    game = client.post("/v1/games", json={"ruleset": "toy-secrets", "seats": [{"name": "A"}, {"name": "B"}],
                                          "seed": 1}).get_json()
    shown = client.get(f"/v1/games/{game['id']}").get_json()
    record = app.extensions["rulehouse.store"].load(game["id"])
    assert AUTO.fullmatch(shown["created"]) and AUTO.fullmatch(shown["updated"])
    assert shown["created"] == old_iso(record.created) and shown["updated"] == old_iso(record.updated)
    sim = client.post("/v1/simulations", json={"ruleset": "toy-secrets", "players": 2, "games": 4,
                                               "seed": 2}).get_json()
    status = client.get(f"/v1/simulations/{sim['id']}").get_json()
    assert MILLISECONDS.fullmatch(status["created_at"]), status["created_at"]


def test_the_streams_first_line_shows_the_game_as_get_does(client, toy_ruleset):
    game = client.post("/v1/games", json={"ruleset": "toy-secrets", "seats": [{"name": "A"}, {"name": "B"}],
                                          "seed": 3}).get_json()
    waiting = client.post("/v1/games", json={"ruleset": "toy-secrets", "seats": [{"name": "A"}, {"open": True}],
                                             "seed": 3}).get_json()
    assert waiting["status"] == "waiting"
    callers = [(game["id"], None), (game["id"], game["seats"][0]["token"]), (game["id"], game["seats"][1]["token"]),
               (game["id"], game["creator_token"]), (waiting["id"], waiting["seats"][0]["token"])]
    for game_id, token in callers:
        headers = {} if token is None else {"Authorization": f"Bearer {token}"}
        shown = client.get(f"/v1/games/{game_id}", headers=headers).get_json()
        reply = client.get(f"/v1/games/{game_id}/stream", headers=headers, buffered=False)
        first = json.loads(next(reply.response))
        reply.close()
        as_get = {name: shown[name] for name in STREAM_STATE_FIELDS}
        assert first == {"kind": "state", "cursor": first["cursor"], **as_get}
        assert list(first)[2:] == list(STREAM_STATE_FIELDS)  # in the order the schema lists them
    assert set(STREAM_STATE_FIELDS) >= {"id", "version", "status", "role", "seat", "view", "waiting_for", "deadline"}


def old_webhook_seats(seats: list[dict], pending: list[Decision]) -> list[int]:
    """api/apps/notify.py's two copies, as they were."""
    return sorted({d.seat for d in pending if not seats[d.seat].get("bot")})


def test_the_human_seats_a_webhook_names_are_those_it_named_before():
    rng = random.Random(5)
    for _ in range(300):
        players = rng.randint(1, 6)
        seats = [{"name": f"p{n}", "bot": rng.choice([None, None, "random"])} for n in range(players)]
        pending = [Decision(seat=rng.randrange(players), kind=rng.choice(["act", "pick"]), options=[])
                   for _ in range(rng.randint(0, 5))]
        assert human_seats_pending(seats, pending) == old_webhook_seats(seats, pending)


def test_a_jobs_age_reads_rq_times_as_text_and_as_bytes():
    started = utcformat(datetime.now(UTC) - timedelta(seconds=30))
    for value in (started, started.encode()):
        assert 29 < heartbeats.seconds_since(value) < 60
    assert heartbeats.seconds_since(None) == 0.0 and heartbeats.seconds_since("") == 0.0


def test_a_chunk_is_lost_in_the_same_states_as_before():
    old = utcformat(datetime.now(UTC) - timedelta(seconds=30)).encode()
    for state in (b"queued", b"deferred", b"scheduled"):
        assert not store.chunk_is_lost(state, old, leased=False, lease_seconds=10)
    assert not store.chunk_is_lost(b"started", old, leased=True, lease_seconds=10)
    assert store.chunk_is_lost(b"started", old, leased=False, lease_seconds=10)
    assert not store.chunk_is_lost(b"started", old, leased=False, lease_seconds=60)
    for state in (b"finished", b"failed", b"stopped", None):
        assert store.chunk_is_lost(state, old, leased=False, lease_seconds=10)
