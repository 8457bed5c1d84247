"""Players and ratings over real Redis (docs/competition.md): seats carry app-scoped player ids set by
secret keys only, rated games rate their players as openskill says, leavers lose, one app's players and
ratings are invisible to another, bad input is 422 naming the field."""

from __future__ import annotations

import json

import pytest
from openskill.models import PlackettLuce

from api.apps.app_store import PUBLISHABLE, app_key
from api.play.moves import load_state, submit_action
from engine.core.registry import get_ruleset
from tests.api.helpers import api_key, assert_problem, auth

TOY = "toy-secrets"


@pytest.fixture
def keyed_app(toy_ruleset, keyed_app):
    """The keyed app, with the toy ruleset registered before it starts."""
    return keyed_app


@pytest.fixture
def client(keyed_client):
    return keyed_client


def rated_toy(client, secret: str, players: list[str], seed: int = 5, rounds: int = 1) -> dict:
    reply = client.post("/v1/games", headers=api_key(secret), json={
        "ruleset": TOY, "seed": seed, "rated": True, "options": {"rounds": rounds},
        "seats": [{"player": player} for player in players]})
    assert reply.status_code == 201, reply.get_json()
    return reply.get_json()


def play_out(client, secret: str, game: dict, *, defaulted_seats: tuple[int, ...] = (),
             bot_seats: tuple[int, ...] = (), app=None) -> dict:
    """Each pending seat plays its first option until the game ends; ``defaulted_seats``' moves are
    played as the deadline sweep plays them (``timed_out``), ``bot_seats``' as a bot job does."""
    tokens = {seat["seat"]: seat["token"] for seat in game["seats"]}
    while True:
        state = client.get(f"/v1/games/{game['id']}", headers=api_key(secret)).get_json()
        if state["status"] == "finished":
            return state
        seat = state["waiting_for"][0]
        if seat in defaulted_seats or seat in bot_seats:
            with app.app_context():
                store = app.extensions["rulehouse.store"]
                record = store.load(game["id"])
                ruleset = get_ruleset(record.ruleset)
                decision = next(d for d in ruleset.pending(load_state(ruleset, record)) if d.seat == seat)
                submit_action(store, game["id"], seat, decision.options[0], record.version,
                              timed_out=seat in defaulted_seats)
            continue
        decisions = client.get(f"/v1/games/{game['id']}/decisions", headers={**api_key(secret), **auth(tokens[seat])})
        option = decisions.get_json()["decisions"][0]["options"][0]
        moved = client.post(f"/v1/games/{game['id']}/actions", json=option,
                            headers={**api_key(secret), **auth(tokens[seat]), "If-Match": f'"{state["version"]}"'})
        assert moved.status_code == 200, moved.get_json()


def openskill_after(ranks: list[int]) -> list[tuple[float, float]]:
    model = PlackettLuce()
    rated = model.rate([[model.rating()] for _ in ranks], ranks=ranks)
    return [(team[0].mu, team[0].sigma) for team in rated]


def test_a_rated_game_rates_its_players_as_openskill_says(client, keys):
    _, secret = keys.create_app("League")
    game = rated_toy(client, secret, ["ann", "bob"])
    assert [seat["player"] for seat in game["seats"]] == ["ann", "bob"] and game["rated"] is True
    shown = client.get(f"/v1/games/{game['id']}", headers=api_key(secret)).get_json()
    assert shown["rated"] is True and [seat["player"] for seat in shown["seats"]] == ["ann", "bob"]
    finished = play_out(client, secret, game)
    winner = finished["result"]["winners"]
    ranks = [1 if seat in winner else 2 for seat in range(2)]
    expected = openskill_after(ranks)
    board = client.get(f"/v1/ratings/{TOY}", headers=api_key(secret)).get_json()
    got = {entry["player"]: (entry["mu"], entry["sigma"]) for entry in board["ratings"]}
    assert got == {"ann": pytest.approx(expected[0]), "bob": pytest.approx(expected[1])}
    assert [entry["place"] for entry in board["ratings"]] == [1, 2] and board["next"] is None
    ann = client.get("/v1/players/ann", headers=api_key(secret)).get_json()
    assert ann["ratings"][0]["ruleset"] == TOY and ann["ratings"][0]["games"] == 1
    assert ann["recent"][0]["game"] == game["id"] and ann["recent"][0]["place"] == ranks[0]
    assert ann["games_played"] == 1 and ann["move_cost"] is None
    listed = client.get("/v1/players/ann/games", headers=api_key(secret)).get_json()
    assert [(g["id"], g["seat"], g["rated"], g["status"]) for g in listed["games"]] == [
        (game["id"], 0, True, "finished")]
    record = client.get(f"/v1/games/{game['id']}/record", headers=api_key(secret)).get_json()
    assert [seat["player"] for seat in record["seats"]] == ["ann", "bob"] and record["format_version"] == 3


def test_a_seat_that_timed_out_three_times_in_a_row_left_and_ranks_last(client, keys, keyed_app):
    _, secret = keys.create_app("League")
    game = rated_toy(client, secret, ["ann", "bob", "cy"], rounds=2)
    play_out(client, secret, game, defaulted_seats=(0,), app=keyed_app)
    recent = client.get("/v1/players/ann", headers=api_key(secret)).get_json()["recent"][0]
    assert recent["place"] == 3, "seat 0's every decision was a default: it left, and a leaver is last"


def test_a_bot_is_a_player_too_and_each_bot_seat_of_a_rated_game_is_its_own_player(client, keys):
    _, secret = keys.create_app("League")
    made = client.post("/v1/games", headers=api_key(secret), json={
        "ruleset": TOY, "rated": True, "seats": [{"player": "ann"}, {"bot": "random"},
                                                 {"bot": "random", "player": "bot:random#2"}]}).get_json()
    assert [seat["player"] for seat in made["seats"]] == ["ann", "bot:random", "bot:random#2"]
    twice = client.post("/v1/games", headers=api_key(secret), json={
        "ruleset": TOY, "rated": True, "seats": [{"player": "ann"}, {"bot": "random"}, {"bot": "random"}]})
    problem = assert_problem(twice, 422, "validation-error")
    assert [error["pointer"] for error in problem["errors"]] == ["/seats/2/player"]


@pytest.mark.parametrize(("body", "pointer"), [
    ({"seats": [{"player": "ann"}, {"name": "Bob"}]}, "/seats/1/player"),
    ({"seats": [{"player": "ann"}, {"open": True}]}, "/seats/1/open"),
    ({"seats": [{"player": "ann"}, {"player": "ann"}]}, "/seats/1/player"),
    ({"seats": [{"player": "ann"}, {"player": "bob"}], "hints": True}, "/hints"),
    ({"seats": [{"player": "ann"}, {"player": "bob"}], "win_chances": "spectators"}, "/win_chances"),
    ({"seats": [{"player": "ann"}, {"player": "bot:random"}]}, "/seats/1/player"),
    ({"seats": [{"player": "ann"}, {"player": "b b"}]}, "/seats/1/player"),
    ({"seats": [{"player": "ann"}, {"bot": "random", "player": "bot:heuristic"}]}, "/seats/1/player"),
    ({"seats": [{"player": "ann"}, {"player": "bob"}], "rated": "yes"}, "/rated"),
    ({"seats": [{"player": "ann"}, {"player": "bob"}], "decision_timeout": None}, "/decision_timeout"),
])
def test_what_a_rated_game_needs_is_422_naming_the_field(client, keys, body, pointer):
    _, secret = keys.create_app("League")
    reply = client.post("/v1/games", headers=api_key(secret), json={"ruleset": TOY, "rated": True, **body})
    problem = assert_problem(reply, 422, "validation-error")
    assert pointer in [error["pointer"] for error in problem["errors"]], problem


def test_a_rated_game_sent_without_a_deadline_gets_the_default_one(client, keys):
    """A losing player who stops moving cannot keep a rated game unrated until it expires: without
    ``decision_timeout`` a rated game gets 120 s (an unrated one still has none)."""
    _, secret = keys.create_app("League")
    game = rated_toy(client, secret, ["ann", "bob"])
    read = client.get(f"/v1/games/{game['id']}", headers=api_key(secret)).get_json()
    assert read["decision_timeout"] == 120 and read["deadline"] is not None
    unrated = client.post("/v1/games", headers=api_key(secret), json={
        "ruleset": TOY, "seats": [{"player": "ann"}, {"player": "bob"}]}).get_json()
    assert client.get(f"/v1/games/{unrated['id']}", headers=api_key(secret)).get_json()["decision_timeout"] is None
    chosen = client.post("/v1/games", headers=api_key(secret), json={
        "ruleset": TOY, "rated": True, "decision_timeout": 30, "seats": [{"player": "ann"}, {"player": "bob"}]})
    assert chosen.get_json()["decision_timeout"] == 30


def test_a_fork_of_a_rated_game_is_not_rated(client, keys):
    _, secret = keys.create_app("League")
    game = rated_toy(client, secret, ["ann", "bob"])
    reply = client.post("/v1/games", headers=api_key(secret), json={"fork": {"game": game["id"]}, "rated": True})
    assert "/rated" in [e["pointer"] for e in assert_problem(reply, 422, "validation-error")["errors"]]
    fork = client.post("/v1/games", headers={**api_key(secret), **auth(game["creator_token"])},
                       json={"fork": {"game": game["id"]}})
    assert fork.status_code == 201 and fork.get_json()["rated"] is False


def test_only_a_secret_key_names_a_joining_player(client, keys):
    app_id, secret = keys.create_app("Table")
    browser = {**api_key(keys.create_key(app_id, PUBLISHABLE, ("https://table.example",))),
               "Origin": "https://table.example"}
    game = client.post("/v1/games", headers=api_key(secret), json={
        "ruleset": TOY, "seats": [{"player": "ann"}, {"open": True}, {"open": True}]}).get_json()
    claimed = client.post(f"/v1/games/{game['id']}/join", headers=browser,
                          json={"invite": game["invites"][0]["invite"], "name": "Mallory", "player": "bob"})
    assert assert_problem(claimed, 403, "forbidden")["reason"] == "secret_key_required"
    plain = client.post(f"/v1/games/{game['id']}/join", headers=browser,
                        json={"invite": game["invites"][0]["invite"], "name": "Bea"})
    assert plain.status_code == 201
    named = client.post(f"/v1/games/{game['id']}/join", headers=api_key(secret),
                        json={"invite": game["invites"][1]["invite"], "name": "Bob", "player": "bob"})
    assert named.status_code == 201
    seats = client.get(f"/v1/games/{game['id']}", headers=api_key(secret)).get_json()["seats"]
    assert [seat["player"] for seat in seats] == ["ann", None, "bob"]
    events = client.get(f"/v1/games/{game['id']}/events", headers=api_key(secret)).get_json()["events"]
    assert {"type": "seat_joined", "seat": 2, "name": "Bob", "player": "bob"} in [e["event"] for e in events]
    assert client.get("/v1/players/bob/games", headers=api_key(secret)).get_json()["games"][0]["id"] == game["id"]


@pytest.mark.parametrize("player", ["bot:heuristic", "bot:random#1", "bot:mcts-3"])
def test_a_person_who_joins_is_never_given_a_bot_s_player_id(client, keys, player):
    """A join seats a person, so even the app's secret key cannot name a ``bot:`` player there (a bot's
    rating and games are the bot's, never a person's)."""
    _, secret = keys.create_app("Table")
    game = client.post("/v1/games", headers=api_key(secret), json={
        "ruleset": TOY, "seats": [{"player": "ann"}, {"open": True}]}).get_json()
    joined = client.post(f"/v1/games/{game['id']}/join", headers=api_key(secret),
                         json={"invite": game["invites"][0]["invite"], "name": "Mallory", "player": player})
    problem = assert_problem(joined, 422, "validation-error")
    assert [error["pointer"] for error in problem["errors"]] == ["/player"]
    seats = client.get(f"/v1/games/{game['id']}", headers=api_key(secret)).get_json()["seats"]
    assert seats[1]["player"] is None and seats[1]["name"] is None


def test_one_app_s_players_and_ratings_are_invisible_to_another(client, keys):
    _, mine = keys.create_app("Mine")
    _, theirs = keys.create_app("Theirs")
    play_out(client, mine, rated_toy(client, mine, ["ann", "bob"]))
    assert client.get("/v1/players/ann", headers=api_key(mine)).status_code == 200
    assert_problem(client.get("/v1/players/ann", headers=api_key(theirs)), 404, "not-found")
    assert_problem(client.get("/v1/players/ann/games", headers=api_key(theirs)), 404, "not-found")
    assert client.get(f"/v1/ratings/{TOY}", headers=api_key(theirs)).get_json()["ratings"] == []
    # The same id in the other app is another player, rated apart.
    play_out(client, theirs, rated_toy(client, theirs, ["ann", "cy"], seed=9))
    theirs_ann = client.get("/v1/players/ann", headers=api_key(theirs)).get_json()
    assert theirs_ann["ratings"][0]["games"] == 1 and [r["game"] for r in theirs_ann["recent"]] != [
        r["game"] for r in client.get("/v1/players/ann", headers=api_key(mine)).get_json()["recent"]]


def test_the_leaderboard_pages_and_bounds_its_query(client, keys):
    _, secret = keys.create_app("League")
    for seed, players in enumerate((["a1", "a2", "a3"], ["a4", "a5", "a1"])):
        play_out(client, secret, rated_toy(client, secret, players, seed=seed))
    first = client.get(f"/v1/ratings/{TOY}?limit=3", headers=api_key(secret)).get_json()
    second = client.get(f"/v1/ratings/{TOY}?limit=3&cursor={first['next']}", headers=api_key(secret)).get_json()
    assert len(first["ratings"]) == 3 and second["next"] is None
    names = [entry["player"] for entry in first["ratings"] + second["ratings"]]
    assert sorted(names) == ["a1", "a2", "a3", "a4", "a5"]
    ordinals = [entry["ordinal"] for entry in first["ratings"] + second["ratings"]]
    assert ordinals == sorted(ordinals, reverse=True)
    for query, name in (("limit=0", "limit"), ("limit=101", "limit"), ("cursor=-1", "cursor")):
        problem = assert_problem(client.get(f"/v1/ratings/{TOY}?{query}", headers=api_key(secret)), 422,
                                 "validation-error")
        assert [error["pointer"] for error in problem["errors"]] == [f"/{name}"]
    assert_problem(client.get("/v1/ratings/chess", headers=api_key(secret)), 404, "not-found")


# -- tournaments (the runs to the end are tests/workers/test_competition.py) ---------------------------

SWISS = {"ruleset": TOY, "format": "swiss", "table_size": 2, "entrants": ["ann", "bob", "bot:random#1", "bot:random#2"]}


@pytest.mark.parametrize(("change", "pointer"), [
    ({"entrants": ["ann", "bob", "cy"]}, "/entrants"),
    ({"entrants": ["ann", "bob", "cy", "bot:nobody"]}, "/entrants/3"),
    ({"table_size": 9}, "/table_size"),
    ({"table_size": 1}, "/table_size"),
    ({"format": "duplicate", "entrants": ["a", "b", "c", "d", "e", "f"], "table_size": 4}, "/entrants"),
    ({"format": "duplicate", "rounds": 3}, "/rounds"),
    # A round robin of 66 at two seats would default to 65 rounds: past the bound of 64, so name it.
    ({"format": "round_robin", "entrants": [f"bot:random#{n}" for n in range(66)]}, "/rounds"),
    ({"format": "knockout"}, "/format"),
    ({"rounds": 0}, "/rounds"),
    ({"entrants": ["ann", "ann", "bob", "cy"]}, "/entrants"),
    ({"entrants": ["ann", "b b", "bob", "cy"]}, "/entrants/1"),
    ({"ruleset": "chess"}, "/ruleset"),
    ({"options": {"rounds": 99}}, "/options/rounds"),
    ({"decision_timeout": 0}, "/decision_timeout"),
])
def test_a_tournament_that_cannot_be_played_is_422_naming_the_field(client, keys, change, pointer):
    _, secret = keys.create_app("League")
    reply = client.post("/v1/tournaments", headers=api_key(secret), json={**SWISS, **change})
    problem = assert_problem(reply, 422, "validation-error")
    assert pointer in [error["pointer"] for error in problem["errors"]], problem


def test_a_tournament_s_seat_tokens_go_to_its_app_s_secret_key_only(client, keys):
    app_id, secret = keys.create_app("League")
    _, other = keys.create_app("Other")
    browser = {**api_key(keys.create_key(app_id, PUBLISHABLE, ("https://league.example",))),
               "Origin": "https://league.example"}
    made = client.post("/v1/tournaments", headers=api_key(secret), json=SWISS)
    assert made.status_code == 201, made.get_json()
    created = made.get_json()
    tables = created["played"][0]["tables"]
    assert len(tables) == 2 and created["rounds"] == 2 and created["status"] == "running"  # log2(4) rounds
    tokens = {entrant: token for table in tables for entrant, token in table["tokens"].items()}
    assert set(tokens) == {"ann", "bob"}, "a token for each person, none for the bots"
    # The token plays the entrant's seat of the table's game.
    table = next(t for t in tables if "ann" in t["entrants"])
    game = client.get(f"/v1/games/{table['game']}", headers={**api_key(secret), **auth(tokens["ann"])}).get_json()
    assert game["seat"] == table["entrants"].index("ann") and game["tournament"] == created["id"]
    assert client.get(f"/v1/tournaments/{created['id']}", headers=api_key(secret)).get_json()["played"][0][
        "tables"][0]["tokens"] is not None
    seen = client.get(f"/v1/tournaments/{created['id']}", headers=browser).get_json()
    assert all(table["tokens"] is None for table in seen["played"][0]["tables"])
    assert_problem(client.get(f"/v1/tournaments/{created['id']}", headers=api_key(other)), 404, "not-found")
    listed = client.get("/v1/tournaments", headers=api_key(secret)).get_json()["tournaments"]
    assert [t["id"] for t in listed] == [created["id"]]
    assert client.get("/v1/tournaments", headers=api_key(other)).get_json()["tournaments"] == []
    assert [s["entrant"] for s in created["standings"]] == SWISS["entrants"], "before any round: seeding order"
    # A key of the app that may no longer create games (its scopes narrowed to webhooks) sees no tokens.
    keys.redis.hset(app_key(app_id), "scopes", json.dumps(["webhooks"]))
    narrowed = client.get(f"/v1/tournaments/{created['id']}", headers=api_key(secret)).get_json()
    assert all(table["tokens"] is None for table in narrowed["played"][0]["tables"])


def test_a_tournament_s_first_round_must_fit_the_live_games_quota(client, keys):
    _, secret = keys.create_app("Small", quotas={"live_games": 1})
    assert_problem(client.post("/v1/tournaments", headers=api_key(secret), json=SWISS), 403, "quota-exceeded")


def test_a_rated_game_takes_nobody_mid_game_and_its_events_name_its_players(client, keys):
    _, secret = keys.create_app("League")
    plain = client.post("/v1/games", headers=api_key(secret), json={
        "ruleset": "hitchiker", "seats": [{"player": "ann"}, {"player": "bob"}]}).get_json()
    assert plain["invite"] is not None, "Hitchiker seats players mid-game"
    rated = client.post("/v1/games", headers=api_key(secret), json={
        "ruleset": "hitchiker", "rated": True, "seats": [{"player": "ann"}, {"player": "bob"}]}).get_json()
    assert rated["invite"] is None and rated["rated"] is True
    first = client.get(f"/v1/games/{rated['id']}/events", headers=api_key(secret)).get_json()["events"][0]["event"]
    assert first["type"] == "game_created" and [seat["player"] for seat in first["seats"]] == ["ann", "bob"]


def test_a_seat_handed_to_a_bot_left_and_ranks_last(client, keys, keyed_app):
    _, secret = keys.create_app("League")
    game = rated_toy(client, secret, ["ann", "bob", "cy"], rounds=2)
    handed = client.post(f"/v1/games/{game['id']}/seats/0/bot", json={"bot": "random"},
                         headers={**api_key(secret), **auth(game["seats"][0]["token"])})
    assert handed.status_code == 200 and handed.get_json()["seats"][0]["player"] == "ann"
    play_out(client, secret, game, bot_seats=(0,), app=keyed_app)
    assert client.get("/v1/players/ann", headers=api_key(secret)).get_json()["recent"][0]["place"] == 3


def test_a_rules_version_change_cancels_a_running_tournament(client, keys, keyed_app, toy_ruleset, monkeypatch):
    from api.competition import tournaments

    _, secret = keys.create_app("League")
    made = client.post("/v1/tournaments", headers=api_key(secret), json=SWISS).get_json()
    monkeypatch.setattr(type(toy_ruleset), "rules_version", toy_ruleset.rules_version + 1)
    with keyed_app.app_context():
        said = tournaments.advance(keyed_app.extensions["rulehouse.store"], made["id"])
    assert said == "cancelled"
    read = client.get(f"/v1/tournaments/{made['id']}", headers=api_key(secret)).get_json()
    assert (read["status"], read["reason"], len(read["played"])) == ("cancelled", "rules_version", 1)


def test_a_finished_table_of_a_running_duplicate_round_shows_its_seats_no_other_seat_s_past_view(client, keys):
    """Every table of a duplicate round shares its deals: a table that finished first shows its own
    seats their own past views, never another seat's hand (`?seat=`), until the round ends."""
    _, secret = keys.create_app("League")
    made = client.post("/v1/tournaments", headers=api_key(secret), json={
        "ruleset": TOY, "format": "duplicate", "table_size": 2, "entrants": ["ann", "bob", "cy", "dee"],
        "options": {"rounds": 1}})
    assert made.status_code == 201, made.get_json()
    table = made.get_json()["played"][0]["tables"][0]
    game_id, tokens = table["game"], [table["tokens"][entrant] for entrant in table["entrants"]]
    while (state := client.get(f"/v1/games/{game_id}", headers={**api_key(secret), **auth(tokens[0])}).get_json())[
            "status"] != "finished":
        seat = state["waiting_for"][0]
        pending = client.get(f"/v1/games/{game_id}/decisions", headers={**api_key(secret), **auth(tokens[seat])})
        moved = client.post(f"/v1/games/{game_id}/actions", json=pending.get_json()["decisions"][0]["options"][0],
                            headers={**api_key(secret), **auth(tokens[seat]), "If-Match": f'"{state["version"]}"'})
        assert moved.status_code == 200, moved.get_json()
    views = f"/v1/games/{game_id}/views/1"
    own = client.get(views, headers={**api_key(secret), **auth(tokens[0])}, query_string={"seat": "0"})
    assert own.status_code == 200 and own.get_json()["view"]["hand"], "its own hand of then: fine"
    for seat in ("1", "01"):
        refused = client.get(views, headers={**api_key(secret), **auth(tokens[0])}, query_string={"seat": seat})
        assert assert_problem(refused, 403, "forbidden")["reason"] == "round_running", seat
    assert assert_problem(client.get(views, headers=api_key(secret), query_string={"seat": "1"}), 403,
                          "forbidden")["reason"] == "round_running"


def test_a_players_move_cost_averages_its_seats_costs_over_the_analyses_already_made(client, keyed_app, keys,
                                                                                     monkeypatch):
    from api.analysis.computing import analysis_job_id
    from api.competition import players
    from api.play.game_keys import analysis_costs_key, analysis_key
    from api.service.jobs.analysis import compute_analysis

    _, secret = keys.create_app("League")
    store = keyed_app.extensions["rulehouse.store"]
    made = [client.post("/v1/games", headers=api_key(secret), json={
        "ruleset": "whipcash", "seed": seed, "rated": True, "seats": [{"player": "ann"}, {"bot": "random"}]})
        for seed in (1, 2)]
    games = [reply.get_json() for reply in made]
    for game in games:
        assert play_out(client, secret, game, bot_seats=(1,), app=keyed_app)["status"] == "finished"
    toy = rated_toy(client, secret, ["ann", "bob"])
    play_out(client, secret, toy)

    def shown() -> tuple:
        body = client.get("/v1/players/ann", headers=api_key(secret)).get_json()
        return body["move_cost"], body["analysed_games"]

    assert shown() == (None, 0)  # nothing analysed: nothing read, nothing queued
    assert store.analyses.get(games[0]["id"]) is None and store.queues.analysis.count == 0
    # Costs stored by an older analysis format (format 1's key, before a deploy) count for nothing.
    store.redis.set(f"game:{{{games[1]['id']}}}:analysis:costs", json.dumps([[10, 5.0], [10, 0.0]]))
    assert shown() == (None, 0)
    for game in (*games, toy):
        store.analyses.ask(game["id"], analysis_job_id(game["id"]))
    assert shown() == (None, 0)  # asked, not computed yet
    for game in (games[0], toy):  # the toy ruleset has no value model: its analysis fails
        compute_analysis(game["id"], analysis_job_id(game["id"]), store=store)
    first = json.loads(store.analyses.get(games[0]["id"]))["split"][0]
    assert store.analyses.costs([toy["id"]]) == [None]  # a failed analysis has no costs
    costs_key = analysis_costs_key(games[0]["id"])
    analysis_ttl = store.redis.pttl(analysis_key(games[0]["id"]))  # read first: the later read is lower
    assert 0 < store.redis.pttl(costs_key) <= analysis_ttl
    assert first["decisions"] > 0
    assert shown() == (pytest.approx(first["cost"] / first["decisions"]), 1)
    compute_analysis(games[1]["id"], analysis_job_id(games[1]["id"]), store=store)
    second = json.loads(store.analyses.get(games[1]["id"]))["split"][0]
    expected = (first["cost"] + second["cost"]) / (first["decisions"] + second["decisions"])
    assert shown() == (pytest.approx(expected), 2) and expected != pytest.approx(first["cost"] / first["decisions"])
    monkeypatch.setattr(players, "MOVE_COST_GAMES", 2)  # the newest two: the toy game and the second
    assert shown() == (pytest.approx(second["cost"] / second["decisions"]), 1)
