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


def finished_tournament(client, tournament_id: str, timeout: float = TIMEOUT) -> dict:
    return wait_for(lambda: (lambda t: t if t["status"] != "running" else None)(
        client.get(f"/v1/tournaments/{tournament_id}").get_json()), timeout)


def test_a_bot_only_swiss_tournament_of_twelve_at_four_seat_tables_runs_to_the_end_on_the_workers(client, workers):
    workers.start(WORKERS)
    entrants = [f"bot:random#{n}" for n in range(1, 13)]
    made = client.post("/v1/tournaments", json={"ruleset": "toy-race", "format": "swiss", "table_size": 4,
                                                "entrants": entrants, "options": {"goal": 10}, "rated": True})
    assert made.status_code == 201, made.get_json()
    tournament = finished_tournament(client, made.get_json()["id"])
    assert tournament["status"] == "finished" and tournament["rounds"] == 4 == len(tournament["played"])
    for played in tournament["played"]:
        seated = [entrant for table in played["tables"] for entrant in table["entrants"]]
        assert sorted(seated) == sorted(entrants), "every entrant at exactly one table of the round"
        assert len(played["tables"]) == 3 and all(table["ranks"] for table in played["tables"])
        for table in played["tables"]:
            game = client.get(f"/v1/games/{table['game']}").get_json()
            assert game["status"] == "finished" and game["tournament"] == tournament["id"]
            assert [seat["player"] for seat in game["seats"]] == table["entrants"]
    standings = tournament["standings"]
    assert [s["place"] for s in standings] == list(range(1, 13)) and all(s["games"] == 4 for s in standings)
    assert sum(s["points"] for s in standings) == 4 * 3 * 6, "each table hands out 6 points (pairs of seats)"
    # Rated: every entrant played 4 rated games.
    board = wait_for(lambda: (lambda b: b if len(b["ratings"]) == 12 and all(
        e["games"] == 4 for e in b["ratings"]) else None)(client.get("/v1/ratings/toy-race?limit=20").get_json()),
        TIMEOUT)
    assert len(board["ratings"]) == 12


def test_a_duplicate_round_shares_its_seed_seats_everyone_everywhere_and_stays_closed_until_it_ends(
        client, workers):
    workers.start(WORKERS)
    entrants = ["ann", *(f"bot:random#{n}" for n in range(1, 8))]
    made = client.post("/v1/tournaments", json={"ruleset": "toy-race", "format": "duplicate", "table_size": 4,
                                                "entrants": entrants, "options": {"goal": 10}})
    assert made.status_code == 201, made.get_json()
    tournament_id = made.get_json()["id"]
    closed_checked = False
    while True:
        tournament = client.get(f"/v1/tournaments/{tournament_id}").get_json()
        if tournament["status"] != "running":
            break
        current = tournament["played"][tournament["round"]]
        mine = next(table for table in current["tables"] if "ann" in table["entrants"])
        other = next(table for table in current["tables"] if "ann" not in table["entrants"])
        if not closed_checked:
            # The bots' table finishes while Ann's waits for her: it stays closed to a spectator.
            wait_for(lambda game_id=other["game"]: _status(store_of(client), game_id) == "finished", TIMEOUT)
            for path in ("", "/record", "/events"):
                closed = client.get(f"/v1/games/{other['game']}{path}")
                assert closed.status_code == 403 and closed.get_json()["reason"] == "round_running", path
            assert client.get(f"/v1/games/{mine['game']}/record", headers=auth(mine["tokens"]["ann"])
                              ).status_code == 403, "not even a seat reads the shared seed during the round"
            forked = client.post("/v1/games", json={"fork": {"game": other["game"]}})
            assert forked.status_code == 403
            closed_checked = True
        token = mine["tokens"]["ann"]
        game = client.get(f"/v1/games/{mine['game']}", headers=auth(token)).get_json()
        if game["status"] == "active" and game["seat"] in game["waiting_for"]:
            act(client, mine["game"], token, {"type": "roll"}, game["version"])
    assert tournament["status"] == "finished" and len(tournament["played"]) == 4
    seats = {entrant: set() for entrant in entrants}
    for played in tournament["played"]:
        records = [client.get(f"/v1/games/{table['game']}/record").get_json() for table in played["tables"]]
        assert len({record["seed"] for record in records}) == 1, "every table of a round plays one seed"
        assert {table["seed"] for table in played["tables"]} == {records[0]["seed"]}
        for table in played["tables"]:
            for seat, entrant in enumerate(table["entrants"]):
                seats[entrant].add(seat)
    assert len({played["tables"][0]["seed"] for played in tournament["played"]}) == 4, "a new seed each round"
    assert all(held == {0, 1, 2, 3} for held in seats.values()), seats
    assert all(s["matchpoints"] is not None for s in tournament["standings"])


def store_of(client):
    return client.application.extensions["rulehouse.store"]


def _status(store, game_id: str) -> str | None:
    return store.redis.hget(f"game:{{{game_id}}}", "status")


def test_the_cli_runs_a_round_robin_and_reads_its_standings_ratings_and_players(redis_db_url, toy_race, workers):
    import json

    from tests.processes import run_cli
    from tests.sdk.conftest import serving

    workers.start(WORKERS)
    entrants = ",".join(f"bot:random#{n}" for n in range(1, 5))
    with serving({"REDIS_URL": redis_db_url}) as url:
        made = run_cli("tourney", "create", "toy-race", "--format", "round_robin", "--table-size", "2",
                       "--entrants", entrants, "--options", '{"goal": 6}', "--rated", "--json", "--url", url,
                       redis_url="")
        assert made.returncode == 0, made.stderr
        tournament_id = json.loads(made.stdout)["id"]
        shown = wait_for(lambda: (lambda r: r if '"status": "finished"' in r.stdout else None)(
            run_cli("tourney", "show", tournament_id, "--json", "--url", url, redis_url="")), TIMEOUT)
        final = json.loads(shown.stdout)
        assert final["rounds"] == 3 and len(final["played"]) == 3
        met = {frozenset(table["entrants"]) for played in final["played"] for table in played["tables"]}
        assert len(met) == 6, "a round robin at two seats: every pair meets once"
        table = run_cli("tourney", "show", tournament_id, "--url", url, redis_url="")
        assert "round 3 (ended)" in table.stdout and "place" in table.stdout
        board = wait_for(lambda: (lambda r: r if r.stdout.count("bot:random#") == 4 else None)(
            run_cli("ratings", "toy-race", "--url", url, redis_url="")), TIMEOUT)
        assert "ordinal" in board.stdout
        player = run_cli("player", "bot:random#1", "--url", url, redis_url="")
        assert player.returncode == 0 and "3 rated game(s)" in player.stdout, player.stdout
        said = run_cli("tourney", "create", "toy-race", "--format", "round_robin", "--table-size", "2",
                       "--entrants", "bot:random#8,bot:random#9", "--url", url, redis_url="")
        first, page = said.stdout.splitlines()[:2]
        assert said.returncode == 0 and page == f"page: {url}/tournament/{first.split(':')[0]}", said.stdout
        refused = run_cli("tourney", "create", "toy-race", "--format", "duplicate", "--table-size", "4",
                          "--entrants", "a,b,c", "--url", url, redis_url="")
        assert refused.returncode == 2 and "/entrants" in refused.stderr and "Traceback" not in refused.stderr


def test_webhooks_tell_of_rounds_ratings_and_the_end_without_tokens(redis_db_url, monkeypatch, workers, toy_race):
    import json

    import redis as redis_lib

    from api.app import create_app
    from api.apps.app_store import AppKeys
    from tests.workers.test_webhooks import Receiver, register

    monkeypatch.setenv("RULEHOUSE_WEBHOOK_ALLOW_PRIVATE", "1")
    workers.start(WORKERS)
    workers.start(1, "--queues", "webhooks")  # deliveries have workers of their own
    app = create_app({"REDIS_URL": redis_db_url, "REQUIRE_API_KEYS": True})
    client = app.test_client()
    _, key = AppKeys(redis_lib.Redis.from_url(redis_db_url, decode_responses=True)).create_app("League")
    receiver = Receiver()
    try:
        register(client, key, receiver.url, ["rating.updated", "tournament.round_started", "tournament.finished"])
        made = client.post("/v1/tournaments", headers={"X-Api-Key": key}, json={
            "ruleset": "toy-race", "format": "round_robin", "table_size": 2, "rated": True, "options": {"goal": 6},
            "entrants": ["ann", "bot:random#1", "bot:random#2", "bot:random#3"], "decision_timeout": 1})
        assert made.status_code == 201, made.get_json()
        tournament_id = made.get_json()["id"]

        def events():
            return [json.loads(delivery["body"]) for delivery in receiver.received]

        # Ann never moves: her deadline plays for her, and after three defaults in a row she has left.
        wait_for(lambda: any(e["type"] == "tournament.finished" for e in events()), 120)
        wait_for(lambda: sum(e["type"] == "rating.updated" for e in events()) == 6, TIMEOUT)
        kinds = [e["type"] for e in events()]
        assert kinds.count("tournament.round_started") == 3 and kinds.count("tournament.finished") == 1
        started = [e["data"] for e in events() if e["type"] == "tournament.round_started"]
        assert [d["round"] for d in sorted(started, key=lambda d: d["round"])] == [0, 1, 2]
        assert all(set(d) == {"tournament", "round", "games"} for d in started)
        assert all(b"token" not in delivery["body"] for delivery in receiver.received), "no webhook holds a token"
        finished = next(e["data"] for e in events() if e["type"] == "tournament.finished")
        assert finished["tournament"] == tournament_id and finished["status"] == "finished"
        assert len(finished["standings"]) == 4
        rated = [e["data"] for e in events() if e["type"] == "rating.updated"]
        ann_places = [p["place"] for d in rated for p in d["players"] if p["player"] == "ann"]
        assert len(ann_places) == 3
    finally:
        receiver.close()
