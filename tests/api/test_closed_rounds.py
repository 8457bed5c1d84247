"""A duplicate round's tables are closed until the round ends, whatever reads them (docs/competition.md,
"Duplicate and secrets"): every route of the service whose path names a game, enumerated from the
Flask url map (so a route added later is covered, or this test fails), answers only a seat of that
table, and that seat only what playing its own table needs; the analysis, win chances, hints, the
record, a fork and everything else are 403 ``round_running`` to everyone. So it stays after the
game's own TTL has passed, and for a table that finished as for one that still plays."""

from __future__ import annotations

import redis as redis_lib

from api.competition import closed_round
from api.play.game_keys import chat_key, events_key, game_key
from tests.api.helpers import api_key, assert_problem, auth
from tests.processes import wait_for

TOY = "toy-secrets"
#: What a seat of a closed table may still use, as docs/competition.md lists it (written out here, not
#: read from the code: a route that joins it must be added to the docs and to this list on purpose).
SEAT_PLAY = {
    ("/v1/games/<game_id>", "GET"), ("/v1/games/<game_id>/decisions", "GET"), ("/v1/games/<game_id>/events", "GET"),
    ("/v1/games/<game_id>/stream", "GET"), ("/v1/games/<game_id>/actions", "POST"),
    ("/v1/games/<game_id>/views/<version>", "GET"), ("/v1/games/<game_id>/chat", "GET"),
    ("/v1/games/<game_id>/chat", "POST"), ("/v1/games/<game_id>/chat/stream", "GET"),
    ("/v1/games/<game_id>/seats/<int:seat>/bot", "POST"),
}
#: Values for a route's other path arguments.
OTHER_ARGUMENTS = {"seat": "0", "version": "1"}


def game_routes(app) -> list[tuple[str, str, object]]:
    """(rule, method, view) of every route whose path names a game."""
    found = []
    for rule in app.url_map.iter_rules():
        if closed_round.GAME_ARGUMENT not in rule.arguments:
            continue
        assert rule.arguments <= {closed_round.GAME_ARGUMENT, *OTHER_ARGUMENTS}, f"a value for {rule.rule}'s arguments"
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            found.append((rule.rule, method, app.view_functions[rule.endpoint]))
    return found


def path_of(rule: str, game_id: str) -> str:
    path = rule.replace(f"<{closed_round.GAME_ARGUMENT}>", game_id)
    for name, value in OTHER_ARGUMENTS.items():
        path = path.replace(f"<int:{name}>", value).replace(f"<{name}>", value)
    return path


#: The body of every write asked: a field no schema takes, so that no write the guard lets through acts
#: (a seat handed to a bot would lose its token)
PROBE = {"closed_round_probe": 1}


def ask(client, method: str, path: str, headers: dict):
    reply = client.open(path, method=method, headers=headers, json=PROBE if method == "POST" else None)
    status, body = reply.status_code, reply.get_data() if reply.status_code != 200 else b""
    reply.close()  # a stream the seat may open is closed at once
    return status, body


def refused(status: int, body: bytes) -> bool:
    import json

    return status == 403 and json.loads(body).get("reason") == "round_running"


def duplicate_round(client, secret: str) -> tuple[dict, dict]:
    """A duplicate round of two 2-seat tables of people: the first played to its end, the second
    running. Both tables, each ``{"game", "tokens": [by seat]}``."""
    made = client.post("/v1/tournaments", headers=api_key(secret), json={
        "ruleset": TOY, "format": "duplicate", "table_size": 2, "entrants": ["ann", "bob", "cy", "dee"],
        "options": {"rounds": 1}})
    assert made.status_code == 201, made.get_json()
    tables = [{"game": table["game"], "tokens": [table["tokens"][entrant] for entrant in table["entrants"]]}
              for table in made.get_json()["played"][0]["tables"]]
    done = tables[0]
    while (state := client.get(f"/v1/games/{done['game']}", headers={**api_key(secret), **auth(done["tokens"][0])}
                               ).get_json())["status"] != "finished":
        seat = state["waiting_for"][0]
        seat_headers = {**api_key(secret), **auth(done["tokens"][seat])}
        pending = client.get(f"/v1/games/{done['game']}/decisions", headers=seat_headers).get_json()
        moved = client.post(f"/v1/games/{done['game']}/actions", json=pending["decisions"][0]["options"][0],
                            headers={**seat_headers, "If-Match": f'"{state["version"]}"'})
        assert moved.status_code == 200, moved.get_json()
    return tables[0], tables[1]


def test_every_route_that_names_a_closed_game_answers_only_its_seats_play(app, client, keys, toy_ruleset):
    _, secret = keys.create_app("League")
    _, stranger = keys.create_app("Stranger")
    finished, running = duplicate_round(client, secret)
    elsewhere = client.post("/v1/games", headers=api_key(stranger), json={
        "ruleset": TOY, "seats": [{"name": "x"}, {"name": "y"}]}).get_json()["seats"][0]["token"]
    routes = game_routes(app)
    assert {(rule, method) for rule, method, view in routes if not getattr(view, "reads_no_game", False)} >= SEAT_PLAY
    assert any(rule.endswith("/analysis") for rule, _, _ in routes), "the url map was read"
    for table in (finished, running):
        for rule, method, view in routes:
            path = path_of(rule, table["game"])
            if getattr(view, "reads_no_game", False):
                # A page shell reads nothing of the game: it answers a closed game as it answers no game.
                assert ask(client, method, path, {}) == ask(client, method, path_of(rule, "0" * 16), {}), rule
                continue
            for who, headers in (("no token", api_key(stranger)), ("another game's seat",
                                                                    {**api_key(stranger), **auth(elsewhere)}),
                                 ("no app key or token", {})):
                assert refused(*ask(client, method, path, headers)), (rule, method, who)
            own = ask(client, method, path, {**api_key(secret), **auth(table["tokens"][0])})
            assert refused(*own) == ((rule, method) not in SEAT_PLAY), (rule, method, own)
    # The reported leak: the finished table's seat read every seat's secrets from its analysis.
    analysis = client.get(f"/v1/games/{finished['game']}/analysis",
                          headers={**api_key(secret), **auth(finished["tokens"][1])})
    assert assert_problem(analysis, 403, "forbidden")["reason"] == "round_running"
    forked = client.post("/v1/games", headers=api_key(secret), json={"fork": {"game": finished["game"]}})
    assert assert_problem(forked, 403, "forbidden")["reason"] == "round_running"
    # Past the game's own TTL (its keys expire while the round still runs): still closed, not 404.
    client_redis = redis_lib.Redis.from_url(app.config["REDIS_URL"])
    for key in (game_key(finished["game"]), events_key(finished["game"]), chat_key(finished["game"])):
        client_redis.pexpire(key, 1)
    wait_for(lambda: not client_redis.exists(game_key(finished["game"])), 10)
    for rule, method, view in routes:
        if not getattr(view, "reads_no_game", False):
            path = path_of(rule, finished["game"])
            assert refused(*ask(client, method, path, api_key(stranger))), (rule, method, "after its TTL")
            assert refused(*ask(client, method, path, {**api_key(secret), **auth(finished["tokens"][0])})) \
                or (rule, method) in SEAT_PLAY, (rule, method, "after its TTL")
    client_redis.close()
