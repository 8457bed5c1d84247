"""A deleted game leaves nothing, and an expired one nothing a TTL later (docs/apps.md, "Retention";
docs/competition.md, "Players"): games created with fresh player ids (rated or not, with deadlines, listed
and joined, asked for hints) through a real gunicorn server, with real workers running their sweeps, then
deleted or expired, leave no key, member, field or entry that names them or their players, on any Redis."""

from __future__ import annotations

import pytest
import redis as redis_lib
import requests

from tests.api.helpers import api_key, auth
from tests.conftest import suite_db_url
from tests.processes import ApiServer, wait_for

GAMES = 30
#: Keys that go by themselves within this many seconds are not left behind (a computation's claim).
TRANSIENT_SECONDS = 60


@pytest.fixture
def scanned(redis_db_url) -> list:
    """Every Redis the server keeps keys on (the cluster layout's tests add the games' cluster)."""
    return [redis_lib.Redis.from_url(redis_db_url)]


def _text(value: str | bytes) -> str:
    return value if isinstance(value, str) else value.decode(errors="replace")


def traces(client, names: set[str]) -> list[str]:
    """Every key of ``client`` whose name, members, fields or values hold one of ``names``."""
    found = []
    for key in client.scan_iter(count=1000):
        kind, key = _text(client.type(key)), _text(key)
        if kind == "zset":
            parts = [member for member, _ in client.zscan_iter(key)]
        elif kind == "set":
            parts = list(client.sscan_iter(key))
        elif kind == "hash":
            parts = [item for pair in client.hscan_iter(key) for item in pair]
        elif kind == "list":
            parts = client.lrange(key, 0, -1)
        elif kind == "string":
            parts = [client.get(key) or b""]
        elif kind == "stream":
            parts = [repr(entry).encode() for entry in client.xrange(key)]
        else:
            parts = []
        if key.startswith("rq:") or 0 <= client.ttl(key) <= TRANSIENT_SECONDS:
            continue  # RQ's own bookkeeping of jobs, which expires after them; claims and rate windows
        texts = [key, *(_text(part) for part in parts)]
        if any(name in text for name in names for text in texts):
            found.append(key)
    return found


def test_deleted_games_leave_no_key_or_index_of_theirs_or_of_their_players(server, keys, workers, scanned):
    workers.start(1, "--queues", "bots,search")
    _, key = keys.create_app("Club")
    app = api_key(key)
    names: set[str] = set()
    for number in range(GAMES):
        ann, bob, cy = f"ann-{number}", f"bob-{number}", f"cy-{number}"
        kind = number % 3
        if kind == 0:  # rated, with a deadline
            body = {"seats": [{"player": ann}, {"player": bob}], "rated": True, "decision_timeout": 600}
        elif kind == 1:  # hints on, one of them asked
            body = {"seats": [{"player": ann}, {"name": "Bob", "player": bob}], "hints": True}
        else:  # listed, a player joins by the app's secret key
            body = {"seats": [{"player": ann}, {"open": True}], "listed": True}
        game = requests.post(f"{server}/v1/games", headers=app, timeout=30,
                             json={"ruleset": "whipcash", "seed": number, **body}).json()
        names |= {game["id"], ann, bob}
        if kind == 1:
            seat = requests.get(f"{server}/v1/games/{game['id']}", headers=app, timeout=30).json()["waiting_for"][0]
            asked = requests.get(f"{server}/v1/games/{game['id']}/hint?wait=5", timeout=30,
                                 headers={**app, **auth(game["seats"][seat]["token"])})
            assert asked.status_code in (200, 202), asked.text
        if kind == 2:
            joined = requests.post(f"{server}/v1/games/{game['id']}/join", headers=app, timeout=30,
                                   json={"invite": game["invites"][0]["invite"], "name": "Cy", "player": cy})
            assert joined.status_code == 201, joined.text
            names.add(cy)
        assert requests.get(f"{server}/v1/players/{ann}/games", headers=app, timeout=30).json()["games"]
        gone = requests.delete(f"{server}/v1/games/{game['id']}", headers={**app, **auth(game["creator_token"])},
                               timeout=30)
        assert gone.status_code == 204, gone.text
    for player in (f"ann-{GAMES - 1}", f"cy-{GAMES - 1}"):
        assert requests.get(f"{server}/v1/players/{player}", headers=app, timeout=30).status_code == 404
    assert [key for client in scanned for key in traces(client, names)] == []


@pytest.fixture(scope="module")
def short_lived(redis_url):
    """The API under gunicorn keeping finished games 3 s: the players' lists are looked at 3 s after a game."""
    api = ApiServer(suite_db_url(redis_url), RULEHOUSE_FINISHED_GAME_TTL_SECONDS="3")
    yield api.start(web_workers=2, threads=8)
    api.stop()


def test_expired_games_leave_their_players_lists_within_one_ttl(short_lived, keys, workers, scanned):
    """Nothing names their players once a worker's sweep has looked (the app's own listing of its games and its
    count of live ones drop an expired game when they are next read); the rated ones' players, never rated,
    leave the app's rated_players with their lists."""
    _, key = keys.create_app("Club")
    names: set[str] = set()
    for number in range(GAMES // 3):
        ann, bob = f"ann-{number}", f"bob-{number}"
        game = requests.post(f"{short_lived}/v1/games", headers=api_key(key), timeout=30, json={
            "ruleset": "whipcash", "seed": number, "seats": [{"player": ann}, {"player": bob}],
            "rated": number % 2 == 0}).json()
        names |= {ann, bob}
        for client in scanned:  # the game expires: every key of its own goes, and nothing tells anyone
            for game_key in client.scan_iter(match=f"game:{{{game['id']}}}*"):
                client.pexpire(game_key, 1)
    workers.start(1, "--queues", "bots")
    wait_for(lambda: not [key for client in scanned for key in traces(client, names)], timeout=60, interval=0.5)
    assert requests.get(f"{short_lived}/v1/players/ann-0", headers=api_key(key), timeout=30).status_code == 404
    me = requests.get(f"{short_lived}/v1/apps/me", headers=api_key(key), timeout=30).json()
    assert me["usage"]["rated_players"] == 0
