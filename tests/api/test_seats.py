"""Open seats, joining, leaving, starting, handing a seat to a bot, the lobby, and display names."""

from __future__ import annotations

import threading

import pytest

from tests.api.helpers import SHOWABLE_TEXTS, UNSHOWABLE_TEXTS, assert_problem, auth

OPEN = {"open": True}


def create(client, ruleset: str, seats: list[dict], **extra) -> dict:
    reply = client.post("/v1/games", json={"ruleset": ruleset, "seats": seats, "seed": 5, **extra})
    assert reply.status_code == 201, reply.get_json()
    return reply.get_json()


def join(client, game_id: str, name: str, invite: str | None = None):
    body = {"name": name} if invite is None else {"name": name, "invite": invite}
    return client.post(f"/v1/games/{game_id}/join", json=body)


def events(client, game_id: str) -> list[dict]:
    return [entry["event"] for entry in client.get(f"/v1/games/{game_id}/events").get_json()["events"]]


def test_a_game_with_open_seats_waits_then_starts_when_the_last_is_taken(client, toy_ruleset):
    game = create(client, toy_ruleset.id, [{"name": "Ann"}, OPEN, OPEN])
    assert game["status"] == "waiting" and game["invite"] is None
    assert [seat["token"] is None for seat in game["seats"]] == [False, True, True]
    assert [seat["open"] for seat in game["seats"]] == [False, True, True]
    assert [invite["seat"] for invite in game["invites"]] == [1, 2]
    waiting = client.get(f"/v1/games/{game['id']}").get_json()
    assert waiting["status"] == "waiting" and waiting["view"] is None and waiting["waiting_for"] == []
    early = client.post(f"/v1/games/{game['id']}/actions", json={"type": "roll"},
                        headers={**auth(game["seats"][0]["token"]), "If-Match": '"0"'})
    assert assert_problem(early, 409, "illegal-action")["reason"] == "not_started"

    first = join(client, game["id"], "Bea", game["invites"][1]["invite"])
    assert first.status_code == 201
    assert set(first.get_json()) == {"seat", "token", "version"} and first.get_json()["seat"] == 2
    taken = join(client, game["id"], "Cy", game["invites"][1]["invite"])
    assert assert_problem(taken, 409, "seat-conflict")["reason"] == "seat_taken"
    assert client.get(f"/v1/games/{game['id']}").get_json()["status"] == "waiting"

    last = join(client, game["id"], "Cy", game["invites"][0]["invite"]).get_json()
    started = client.get(f"/v1/games/{game['id']}", headers=auth(last["token"])).get_json()
    assert started["status"] == "active" and started["seat"] == 1 and started["view"] is not None
    assert [seat["name"] for seat in started["seats"]] == ["Ann", "Cy", "Bea"]
    kinds = [event["type"] for event in events(client, game["id"])]
    assert kinds[:4] == ["game_created", "seat_joined", "seat_joined", "table_started"]
    assert events(client, game["id"])[1] == {"type": "seat_joined", "seat": 2, "name": "Bea"}
    # The game plays: seat 0 rolls first.
    roll = client.post(f"/v1/games/{game['id']}/actions", json={"type": "roll"},
                       headers={**auth(game["seats"][0]["token"]), "If-Match": f'"{started["version"]}"'})
    assert roll.status_code == 200, roll.get_json()


def test_an_unknown_invite_is_403_and_an_unlisted_game_needs_one(client, toy_ruleset):
    game = create(client, toy_ruleset.id, [{"name": "Ann"}, OPEN])
    assert_problem(join(client, game["id"], "Bea", "not-an-invite"), 403, "forbidden")
    assert_problem(join(client, game["id"], "Bea"), 403, "forbidden")


def test_two_people_racing_for_the_last_seat_get_one_seat(app, toy_ruleset):
    client = app.test_client()
    game = create(client, toy_ruleset.id, [{"name": "Ann"}, OPEN], listed=True)
    answers: list[int] = []

    def take(number: int) -> None:
        answers.append(join(app.test_client(), game["id"], f"P{number}").status_code)

    threads = [threading.Thread(target=take, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == [201] + [409] * 7
    assert [event["type"] for event in events(client, game["id"])].count("seat_joined") == 1


def test_leaving_before_the_start_reopens_the_seat(client, toy_ruleset):
    game = create(client, toy_ruleset.id, [{"name": "Ann"}, OPEN, OPEN])
    joined = join(client, game["id"], "Bea", game["invites"][0]["invite"]).get_json()
    other = join(client, game["id"], "Cy", game["invites"][1]["invite"]).get_json()
    assert other["seat"] == 2
    # ... which started the game; a fresh one to leave in:
    game = create(client, toy_ruleset.id, [{"name": "Ann"}, OPEN, OPEN])
    joined = join(client, game["id"], "Bea", game["invites"][0]["invite"]).get_json()
    forbidden = client.post(f"/v1/games/{game['id']}/seats/1/leave", headers=auth(game["seats"][0]["token"]))
    assert_problem(forbidden, 403, "forbidden")
    left = client.post(f"/v1/games/{game['id']}/seats/1/leave", headers=auth(joined["token"]))
    assert left.status_code == 200 and left.get_json()["seats"][1]["open"] is True
    assert_problem(client.get(f"/v1/games/{game['id']}", headers=auth(joined["token"])), 401, "unauthorized")
    assert events(client, game["id"])[-1] == {"type": "seat_left", "seat": 1, "name": "Bea"}
    again = join(client, game["id"], "Dee", game["invites"][0]["invite"])
    assert again.status_code == 201 and again.get_json()["seat"] == 1


def test_the_creator_starts_early_with_bots_or_by_removing_open_seats(client, toy_ruleset):
    game = create(client, toy_ruleset.id, [{"name": "Ann"}, OPEN, {"name": "Cy"}, OPEN])
    not_creator = client.post(f"/v1/games/{game['id']}/start", json={"fill": "remove"},
                              headers=auth(game["seats"][0]["token"]))
    assert_problem(not_creator, 403, "forbidden")
    creator = auth(game["creator_token"])
    started = client.post(f"/v1/games/{game['id']}/start", json={"fill": "remove"}, headers=creator)
    assert started.status_code == 200, started.get_json()
    assert [seat["name"] for seat in started.get_json()["seats"]] == ["Ann", "Cy"]
    # Cy's token follows the seat to its new number.
    cy = client.get(f"/v1/games/{game['id']}", headers=auth(game["seats"][2]["token"])).get_json()
    assert cy["seat"] == 1 and cy["status"] == "active"
    assert [e["type"] for e in events(client, game["id"])][1:4] == ["seat_removed", "seat_removed", "table_started"]
    again = client.post(f"/v1/games/{game['id']}/start", json={"fill": "remove"}, headers=creator)
    assert assert_problem(again, 409, "seat-conflict")["reason"] == "already_started"

    game = create(client, toy_ruleset.id, [{"name": "Ann"}, OPEN])
    too_few = client.post(f"/v1/games/{game['id']}/start", json={"fill": "remove"},
                          headers=auth(game["creator_token"]))
    assert assert_problem(too_few, 409, "seat-conflict")["reason"] == "too_few_players"
    bots = client.post(f"/v1/games/{game['id']}/start", json={"fill": "bot", "bot": "random"},
                       headers=auth(game["creator_token"]))
    assert bots.status_code == 200
    assert bots.get_json()["seats"][1] == {"seat": 1, "name": "random bot", "bot": "random",
                                              "player": "bot:random", "open": False}


def test_a_seat_is_handed_to_a_bot_during_the_game(client, toy_ruleset):
    game = create(client, toy_ruleset.id, [{"name": "Ann"}, {"name": "Bea"}])
    tokens = [seat["token"] for seat in game["seats"]]
    before_start = client.post(f"/v1/games/{game['id']}/seats/1/bot", json={"bot": "nobody"},
                               headers=auth(tokens[1]))
    assert_problem(before_start, 422, "validation-error")
    assert_problem(client.post(f"/v1/games/{game['id']}/seats/1/bot", json={}, headers=auth(tokens[0])),
                   403, "forbidden")
    handed = client.post(f"/v1/games/{game['id']}/seats/1/bot", json={"bot": "random"},
                         headers=auth(game["creator_token"]))
    assert handed.status_code == 200 and handed.get_json()["version"] == 1
    assert handed.get_json()["seats"][1] == {"seat": 1, "name": "Bea", "bot": "random", "player": None, "open": False}
    assert events(client, game["id"])[-1] == {"type": "seat_to_bot", "seat": 1, "name": "Bea", "bot": "random"}
    assert_problem(client.get(f"/v1/games/{game['id']}", headers=auth(tokens[1])), 401, "unauthorized")
    twice = client.post(f"/v1/games/{game['id']}/seats/1/bot", json={}, headers=auth(game["creator_token"]))
    assert assert_problem(twice, 409, "seat-conflict")["reason"] == "seat_is_bot"
    assert_problem(client.post(f"/v1/games/{game['id']}/seats/5/bot", json={}, headers=auth(game["creator_token"])),
                   404, "not-found")
    # Seat 0's move still needs its precondition: the version moved with the seat change.
    stale = client.post(f"/v1/games/{game['id']}/actions", json={"type": "roll"},
                        headers={**auth(tokens[0]), "If-Match": '"0"'})
    assert assert_problem(stale, 412, "version-mismatch")["decisions"] == ["0.0"]
    assert client.post(f"/v1/games/{game['id']}/actions", json={"type": "roll"},
                       headers={**auth(tokens[0]), "If-Match": '"d:0.0"'}).status_code == 200


def test_a_ruleset_without_mid_game_joins_refuses_a_join_once_started(client, toy_ruleset):
    game = create(client, toy_ruleset.id, [{"name": "Ann"}, OPEN])
    client.post(f"/v1/games/{game['id']}/start", json={"fill": "bot"}, headers=auth(game["creator_token"]))
    late = join(client, game["id"], "Bea", game["invites"][0]["invite"])
    assert assert_problem(late, 409, "seat-conflict")["reason"] == "no_mid_game_join"


def test_the_lobby_lists_listed_waiting_games_only_paged(client, toy_ruleset):
    listed = [create(client, toy_ruleset.id, [{"name": "Ann"}, OPEN], listed=True) for _ in range(5)]
    create(client, toy_ruleset.id, [{"name": "Ann"}, OPEN])  # unlisted
    create(client, "cash-n-guns", [{"name": "Ann"}, OPEN, OPEN, OPEN], listed=True)
    seen, cursor = [], None
    while True:
        query = f"/v1/games?status=waiting&ruleset={toy_ruleset.id}&limit=2" + (f"&cursor={cursor}" if cursor else "")
        page = client.get(query).get_json()
        assert len(page["games"]) <= 2
        seen += page["games"]
        cursor = page["next"]
        if cursor is None:
            break
    assert [game["id"] for game in seen] == [game["id"] for game in listed]
    assert set(seen[0]) == {"id", "ruleset", "status", "players", "open_seats", "seats", "decision_timeout",
                            "hints", "created"}
    assert seen[0]["open_seats"] == 1 and "token" not in str(seen[0])
    # A stranger joins from the lobby; the started game leaves it.
    assert join(client, listed[0]["id"], "Stranger").status_code == 201
    ids = [game["id"] for game in client.get(f"/v1/games?ruleset={toy_ruleset.id}").get_json()["games"]]
    assert listed[0]["id"] not in ids and len(ids) == 4
    assert len(client.get("/v1/games").get_json()["games"]) == 5
    assert_problem(client.get("/v1/games?status=active"), 422, "validation-error")
    assert_problem(client.get("/v1/games?cursor=nonsense"), 422, "validation-error")


@pytest.mark.parametrize("name", ["", "   ", "x" * 65, 7, *UNSHOWABLE_TEXTS])
def test_display_names_are_checked_at_creation_and_at_join(client, toy_ruleset, name):
    bad = client.post("/v1/games", json={"ruleset": toy_ruleset.id, "seats": [{"name": name}, OPEN]})
    assert assert_problem(bad, 422, "validation-error")["errors"][0]["pointer"] == "/seats/0/name"
    game = create(client, toy_ruleset.id, [{"name": "Ann"}, OPEN])
    refused = join(client, game["id"], name, game["invites"][0]["invite"])
    assert assert_problem(refused, 422, "validation-error")["errors"][0]["pointer"] == "/name"


@pytest.mark.parametrize("name", SHOWABLE_TEXTS)
def test_zero_width_joiners_that_join_two_visible_characters_are_kept_in_names(client, toy_ruleset, name):
    game = create(client, toy_ruleset.id, [{"name": name}, OPEN])
    assert game["seats"][0]["name"] == name


def test_a_lone_surrogate_name_is_refused_and_names_are_normalized(client, toy_ruleset):
    raw = '{"ruleset": "' + toy_ruleset.id + '", "seats": [{"name": "\\ud800"}, {"name": "b"}]}'
    assert_problem(client.post("/v1/games", data=raw, content_type="application/json"), 422, "validation-error")
    game = create(client, toy_ruleset.id, [{"name": "  Zoe\u0301  "}, OPEN])
    assert game["seats"][0]["name"] == "Zo\u00e9"
    joined = join(client, game["id"], "Rene\u0301", game["invites"][0]["invite"])
    assert joined.status_code == 201
    names = [seat["name"] for seat in client.get(f"/v1/games/{game['id']}").get_json()["seats"]]
    assert names == ["Zo\u00e9", "Ren\u00e9"]


def test_hitchiker_seats_players_mid_game_through_the_per_game_invite(client):
    game = create(client, "hitchiker", [{"name": "Ann"}, {"name": "Bea"}])
    assert game["status"] == "active" and game["invites"] == [] and game["invite"]
    joined = join(client, game["id"], "Cy", game["invite"])
    assert joined.status_code == 201, joined.get_json()
    cy = joined.get_json()
    assert cy["seat"] == 2 and cy["version"] == 1
    # The opening picks are under way: Cy picks last, after Ann and Bea.
    tokens = [seat["token"] for seat in game["seats"]]
    for _ in range(2):
        for token in tokens:
            for decision in client.get(f"/v1/games/{game['id']}/decisions", headers=auth(token)).get_json()[
                    "decisions"]:
                move = client.post(f"/v1/games/{game['id']}/actions", json=decision["options"][0],
                                   headers={**auth(token), "If-Match": f'"d:{decision["id"]}"'})
                assert move.status_code == 200, move.get_json()
    mine = client.get(f"/v1/games/{game['id']}/decisions", headers=auth(cy["token"])).get_json()
    assert [(d["kind"], d["id"]) for d in mine["decisions"]] == [("pick_hometown", "2.3")]
    seen = client.get(f"/v1/games/{game['id']}", headers=auth(cy["token"])).get_json()
    assert len(seen["seats"]) == 3 and seen["view"]["players"][2]["cash"] == 25_000
    kinds = [e["type"] for e in events(client, game["id"])]
    assert kinds[kinds.index("seat_joined"):][:3] == ["seat_joined", "player_joined", "collected"]
    for name in ("Dee", "Eve", "Fay"):
        assert join(client, game["id"], name, game["invite"]).status_code == 201
    full = join(client, game["id"], "Gus", game["invite"])
    assert assert_problem(full, 409, "seat-conflict")["reason"] == "table_full"
    assert_problem(join(client, game["id"], "Gus", "wrong"), 403, "forbidden")


def test_a_hitchiker_game_with_a_mid_game_join_replays_from_its_log(client):
    import json

    from engine.core.registry import get_ruleset

    game = create(client, "hitchiker", [{"name": "Ann"}, {"name": "Bea"}])
    tokens = [seat["token"] for seat in game["seats"]]
    for step in range(6):
        if step == 2:
            tokens.append(join(client, game["id"], "Cy", game["invite"]).get_json()["token"])
        for token in tokens:
            for decision in client.get(f"/v1/games/{game['id']}/decisions", headers=auth(token)).get_json()[
                    "decisions"]:
                client.post(f"/v1/games/{game['id']}/actions", json=decision["default"],
                            headers={**auth(token), "If-Match": f'"d:{decision["id"]}"'})
    store = client.application.extensions["rulehouse.store"]
    ruleset = get_ruleset("hitchiker")
    state = ruleset.new_game(2, {}, 5)
    joins = 0
    for _, fields in store.redis.xrange(f"game:{{{game['id']}}}:events"):
        entry = json.loads(fields["d"])
        if fields["k"] == "a":
            ruleset.apply(state, entry["seat"], entry["action"])
        elif entry["type"].startswith("seat_"):  # what a record's replay hands the engine
            change = {"seat": entry["seat"], "kind": entry["type"], "name": entry.get("name"), "bot": None}
            joins += bool(ruleset.seat_changed(state, change))
    assert joins == 1
    stored = store.load(game["id"])
    assert stored.players == 2 and len(stored.seats) == 3  # set up with two; Cy joined
    assert stored.version >= 6 and state.players == 3 and ruleset.to_dict(state) == json.loads(stored.state)
