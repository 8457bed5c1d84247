"""GET /v1/games/{id}/views/{version}: the view each caller had at every version, replayed from the log."""

from __future__ import annotations

import pytest

from api.views import timeline
from tests.api.helpers import act, assert_problem, auth, create_game

NAMES = ["Ann", "Bo", "Cy", "Di"]


def _play(client, ruleset: str, players: int, moves: int, seed: int = 5):
    """Plays each pending decision's first option (every seat a person) and keeps, after every version,
    what each seat's token and a spectator read from GET /v1/games/{id} then."""
    game = create_game(client, ruleset, [{"name": name} for name in NAMES[:players]], seed=seed)
    tokens = [seat["token"] for seat in game["seats"]]
    seen: dict[int, dict] = {}

    def look():
        views = {None: client.get(f"/v1/games/{game['id']}").get_json()}
        for seat, token in enumerate(tokens):
            views[seat] = client.get(f"/v1/games/{game['id']}", headers=auth(token)).get_json()
        seen[views[None]["version"]] = views

    look()
    for _ in range(moves):
        current = seen[max(seen)][None]
        if current["status"] != "active":
            break
        seat = current["waiting_for"][0]
        pending = client.get(f"/v1/games/{game['id']}/decisions", headers=auth(tokens[seat])).get_json()
        reply = act(client, game["id"], tokens[seat], pending["decisions"][0]["options"][0], pending["version"])
        assert reply.status_code == 200, reply.get_json()
        look()
    return game, tokens, seen


def _view_at(client, game_id: str, version: int, token: str | None = None, **query):
    reply = client.get(f"/v1/games/{game_id}/views/{version}", headers=auth(token), query_string=query)
    assert reply.status_code == 200, reply.get_json()
    return reply.get_json()


@pytest.mark.parametrize("ruleset", ["cash-n-guns", "hitchiker"])
def test_each_caller_gets_the_view_it_had_at_every_version(client, ruleset):
    game, tokens, seen = _play(client, ruleset, 4, 40)
    assert len(seen) > 20
    for version in sorted(seen, reverse=True):  # backwards: every step from a checkpoint, not from the last step
        for seat, token in [(None, None), *enumerate(tokens)]:
            then = seen[version][seat]
            past = _view_at(client, game["id"], version, token)
            assert (past["version"], past["seat"], past["status"]) == (version, seat, then["status"])
            assert past["view"] == then["view"], (version, seat)
            assert past["waiting_for"] == then["waiting_for"]


def test_a_running_game_shows_other_seats_views_to_nobody(client):
    game, tokens, seen = _play(client, "cash-n-guns", 4, 6)
    latest = max(seen)
    assert_problem(client.get(f"/v1/games/{game['id']}/views/2?seat=1", headers=auth(tokens[0])), 403, "forbidden")
    assert_problem(client.get(f"/v1/games/{game['id']}/views/2?seat=1"), 403, "forbidden")
    assert _view_at(client, game["id"], 2, tokens[1], seat=1)["view"] == seen[2][1]["view"]  # its own: fine
    body = assert_problem(client.get(f"/v1/games/{game['id']}/views/{latest + 1}"), 404, "not-found")
    assert f"at version {latest}" in body["detail"]
    # Past 4,300 digits Python's int() of a string raises: still a 422, never a 500.
    out_of_range = ("-1", "x", "1.5", "99999999999999999999", "1" * 5000, "0" * 5000, "\u0663", " 1")
    for bad in out_of_range:
        body = assert_problem(client.get(f"/v1/games/{game['id']}/views/{bad}"), 422, "validation-error")
        assert body["errors"][0]["pointer"] == "/path/version"
    for bad in ("9", *out_of_range):
        body = assert_problem(client.get(f"/v1/games/{game['id']}/views/1", query_string={"seat": bad},
                                         headers=auth(tokens[0])), 422, "validation-error")
        assert body["errors"][0]["pointer"] == "/query/seat"
    assert_problem(client.get("/v1/games/nope/views/0"), 404, "not-found")
    assert_problem(client.get(f"/v1/games/{game['id']}/views/0", headers=auth("not-a-token")), 401, "unauthorized")


def test_a_finished_game_shows_every_seats_view_to_anyone(client):
    game, _, seen = _play(client, "monopoly-cars2", 2, 400, seed=3)
    latest = max(seen)
    assert seen[latest][None]["status"] == "finished"
    final = _view_at(client, game["id"], latest)
    assert final["status"] == "finished" and final["result"] == seen[latest][None]["result"]
    for version in (0, latest // 2, latest):
        for seat in range(2):
            assert _view_at(client, game["id"], version, seat=seat)["view"] == seen[version][seat]["view"]


def test_a_table_waiting_for_players_has_no_view_yet(client):
    created = client.post("/v1/games", json={"ruleset": "monopoly-cars2", "seed": 1,
                                             "seats": [{"name": "Ann"}, {"open": True}]}).get_json()
    past = _view_at(client, created["id"], 0)
    assert (past["status"], past["view"], past["waiting_for"]) == ("waiting", None, [])


def test_stepping_replays_at_most_a_checkpoints_worth_of_entries(client, monkeypatch):
    game, _, seen = _play(client, "hitchiker", 2, 4 * timeline.CHECKPOINT_EVERY)
    assert max(seen) > 3 * timeline.CHECKPOINT_EVERY
    played = []
    original = timeline._play
    monkeypatch.setattr(timeline, "_play", lambda ruleset, state, entry: (played.append(1), original(ruleset, state,
                                                                                                    entry)))
    _view_at(client, game["id"], max(seen))  # the first look builds the checkpoints on the way
    for version in range(max(seen), max(seen) - 5, -1):
        played.clear()
        _view_at(client, game["id"], version)
        assert len(played) < timeline.CHECKPOINT_EVERY


def test_a_player_joining_mid_game_is_in_the_past_views_from_the_join_on(client):
    game = create_game(client, "hitchiker", [{"name": "Ann"}, {"name": "Bea"}], seed=5)
    tokens = [seat["token"] for seat in game["seats"]]
    seen = {0: client.get(f"/v1/games/{game['id']}").get_json()}
    for step in range(6):
        if step == 2:
            joined = client.post(f"/v1/games/{game['id']}/join", json={"name": "Cy", "invite": game["invite"]})
            tokens.append(joined.get_json()["token"])
            now = client.get(f"/v1/games/{game['id']}").get_json()
            seen[now["version"]] = now
        for token in tokens:
            for decision in client.get(f"/v1/games/{game['id']}/decisions", headers=auth(token)).get_json()[
                    "decisions"]:
                reply = client.post(f"/v1/games/{game['id']}/actions", json=decision["default"],
                                    headers={**auth(token), "If-Match": f'"d:{decision["id"]}"'})
                assert reply.status_code == 200, reply.get_json()
                now = client.get(f"/v1/games/{game['id']}").get_json()
                seen[now["version"]] = now
    players = {version: len(then["view"]["players"]) for version, then in seen.items()}
    assert set(players.values()) == {2, 3}
    for version, then in sorted(seen.items(), reverse=True):
        assert _view_at(client, game["id"], version)["view"] == then["view"], version
