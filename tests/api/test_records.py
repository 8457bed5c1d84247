"""Game records over real Redis: export, replay, seed commitments, forks and stateless evaluation."""

from __future__ import annotations

import hashlib
import json
import time

import pytest

from api.cli import main as cli_main
from api.play.game_keys import events_key
from api.play.moves import load_state, submit_action
from api.play.timeouts import apply_defaults
from api.records.routes import EVALUATE_MAX_BYTES
from api.service.jobs.bots import play_bot_turn
from engine.core.registry import all_rulesets, get_ruleset
from engine.core.rng import Rng
from engine.records import MAX_LOG_ENTRIES, RECORD_VERSION, RecordError, replay
from tests.api.helpers import act, assert_problem, auth
from tests.api.playthrough import read_all_events
from tests.engine.test_longest_games import bench as longest_games
from tests.engine.test_records import FORMAT_1_RECORD


def create(client, body: dict, token: str | None = None) -> dict:
    reply = client.post("/v1/games", json=body, headers=auth(token))
    assert reply.status_code == 201, reply.get_json()
    return reply.get_json()


def drive(client, app, game: dict, *, seed: int, steps: int = 5000, default_every: int = 0,
          until_version: int | None = None) -> int:
    """Play ``game`` on: bot seats through the bot job's code, human seats by random legal choices over
    HTTP, every ``default_every``-th step by letting the deadline pass. The version reached."""
    store = app.extensions["rulehouse.store"]
    tokens = [seat["token"] for seat in game["seats"]]
    chooser = Rng(seed)
    ruleset = get_ruleset(game["ruleset"])
    human_steps = 0
    for step in range(steps):
        record = store.load(game["id"])
        if record.status == "finished" or record.version == until_version:
            return record.version
        pending = ruleset.pending(load_state(ruleset, record))
        decision = pending[step % len(pending)]
        if record.seats[decision.seat]["bot"]:
            assert play_bot_turn(game["id"], record.version, store=store).startswith("seat")
            continue
        human_steps += 1
        if default_every and human_steps % default_every == 1:
            assert apply_defaults(store, game["id"], record.version, now=time.time() + 10**6).played
        else:
            action = ruleset.bot("random").act(None, decision, chooser)
            reply = act(client, game["id"], tokens[decision.seat], action, record.version)
            assert reply.status_code == 200, reply.get_json()
    raise AssertionError(f"game {game['id']} did not end in {steps} steps")


def record_of(client, game_id: str, token: str | None = None) -> dict:
    reply = client.get(f"/v1/games/{game_id}/record", headers=auth(token))
    assert reply.status_code == 200, reply.get_json()
    return reply.get_json()


def seats_for(ruleset_id: str) -> list[dict]:
    ruleset = get_ruleset(ruleset_id)
    bots = [None, "random", *ruleset.bots]
    return [{"name": f"p{n}", "bot": bots[n % len(bots)]} for n in range(max(ruleset.min_players, 3))]


@pytest.mark.parametrize("ruleset_id", sorted(all_rulesets()))
def test_a_finished_game_record_replays_to_its_events_and_result(client, app, ruleset_id):
    for seed in (3, 4):
        game = create(client, {"ruleset": ruleset_id, "seats": seats_for(ruleset_id), "decision_timeout": 60})
        drive(client, app, game, seed=seed, default_every=4)
        record = record_of(client, game["id"])
        assert record["status"] == "finished" and record["complete"] is True
        assert record["format"] == "rulehouse.record" and record["format_version"] == RECORD_VERSION == 3
        assert record["rules_version"] == getattr(get_ruleset(ruleset_id), "rules_version", 1)
        assert any(entry["timed_out"] for entry in record["log"])
        assert {entry["seat"] for entry in record["log"]} == set(range(len(game["seats"])))
        assert record["seats"] == [{"seat": n, **seat, "player": seat["bot"] and f"bot:{seat['bot']}"}
                                   for n, seat in enumerate(seats_for(ruleset_id))]
        replayed = replay(record)
        assert replayed.divergence is None, replayed.divergence
        assert replayed.commitment_ok is True
        assert replayed.result == client.get(f"/v1/games/{game['id']}").get_json()["result"]
        store = app.extensions["rulehouse.store"]
        assert [(e["seat"], e["action"]) for e in record["log"]] == store.action_log(game["id"])
        stored = [entry["event"] for entry in read_all_events(client, game["id"], None, limit=1000)]
        from_record = [e for entry in record["log"] for e in entry["events"] if "visible_to" not in e]
        assert [e for e in stored if e["type"] not in ("game_created", "timed_out")] == [
            *record["setup_events"], *from_record]


def test_the_seed_commitment_is_published_first_and_the_record_reveals_what_it_hides(client, app):
    game = create(client, {"ruleset": "whipcash", "seats": [{"name": "Ann"}, {"name": "Bo"}]})
    commitment = game["seed_commitment"]
    assert commitment.startswith("sha256:") and game["seed"] is None
    first = client.get(f"/v1/games/{game['id']}/events?limit=1").get_json()["events"][0]["event"]
    assert first["type"] == "game_created" and first["seed_commitment"] == commitment
    assert client.get(f"/v1/games/{game['id']}").get_json()["seed_commitment"] == commitment
    running = record_of(client, game["id"], game["creator_token"])
    assert running["seed"] is None and running["salt"] is None and running["seed_commitment"] == commitment
    drive(client, app, game, seed=1)
    final = record_of(client, game["id"])
    seed, salt = final["seed"], final["salt"]
    assert seed is not None and len(salt) == 32
    assert commitment == "sha256:" + hashlib.sha256(f"{salt}:{seed}".encode()).hexdigest()
    assert final["seed_source"] == "service"
    chosen = create(client, {"ruleset": "whipcash", "seats": [{"name": "Ann"}, {"name": "Bo"}], "seed": 9})
    assert record_of(client, chosen["id"])["seed_source"] == "client"


def test_a_running_game_record_shows_each_caller_only_what_it_may_see(client, app):
    game = create(client, {"ruleset": "cash-n-guns", "seats": [{"name": n} for n in "ABCD"], "seed": 5})
    version = drive(client, app, game, seed=2, until_version=6)
    ruleset = get_ruleset("cash-n-guns")
    for seat in range(4):
        reply = client.get(f"/v1/games/{game['id']}/record", headers=auth(game["seats"][seat]["token"]))
        assert reply.headers["ETag"] == f'"{version}.{seat}"'
        assert reply.headers["Cache-Control"] == "private" and reply.headers["Vary"] == "Authorization"
        mine = reply.get_json()
        assert mine["seed"] is None and mine["salt"] is None and mine["complete"] is False
        assert mine["status"] == "active" and mine["result"] is None and mine["version"] == version
        assert len(mine["log"]) == version
        for entry in mine["log"]:
            assert (entry["action"] is not None) == (entry["seat"] == seat)
            assert all(e.get("visible_to", [seat]) == [seat] for e in entry["events"])
        assert any("visible_to" in e for entry in mine["log"] for e in entry["events"]) == (
            any(entry["seat"] == seat for entry in mine["log"]))
    spectator = record_of(client, game["id"])
    assert spectator == record_of(client, game["id"], game["creator_token"])
    assert all(entry["action"] is None for entry in spectator["log"])
    assert all("visible_to" not in e for entry in spectator["log"] for e in entry["events"])
    with pytest.raises(RecordError) as raised:
        replay(spectator)
    assert raised.value.reason == "seed_hidden"
    assert not ruleset.actions_public
    public = create(client, {"ruleset": "monopoly-cars2", "seats": [{"name": "A"}, {"name": "B"}]})
    drive(client, app, public, seed=1, until_version=3)
    assert all(entry["action"] is not None for entry in record_of(client, public["id"])["log"])


def test_seat_changes_in_the_game_log_are_record_entries_that_replay_skips(client, app):
    game = create(client, {"ruleset": "monopoly-cars2", "seats": [{"name": "A"}, {"name": "B"}]})
    drive(client, app, game, seed=2, until_version=3)
    # A hand-over as the seats API logs it: an event of its own in the game's log.
    handover = {"type": "seat_to_bot", "seat": 1, "bot": "random"}
    app.extensions["rulehouse.store"].redis.xadd(events_key(game["id"]), {"k": "e", "v": "3",
                                                                         "d": json.dumps(handover)})
    drive(client, app, game, seed=2)
    record = record_of(client, game["id"])
    assert record["log"][3] == {"version": 3, "seat": 1, "kind": "seat_to_bot", "action": None, "timed_out": False,
                                "name": None, "bot": "random", "events": None}
    assert [entry["kind"] for entry in record["log"]].count("action") == record["version"]
    replayed = replay(record)
    assert replayed.ok and replayed.entry_events[3] == []


def test_record_errors(client):
    assert_problem(client.get("/v1/games/nope/record"), 404, "not-found")
    game = create(client, {"ruleset": "whipcash", "seats": [{"name": "A"}, {"name": "B"}]})
    assert_problem(client.get(f"/v1/games/{game['id']}/record", headers=auth("wrong")), 401, "unauthorized")
    # A game waiting for its open seats has no state yet, so no record (it was a 500).
    waiting = create(client, {"ruleset": "whipcash", "seats": [{"name": "A"}, {"open": True}]})
    refused = assert_problem(client.get(f"/v1/games/{waiting['id']}/record"), 409, "illegal-action")
    assert refused["reason"] == "not_started"


def test_rulehouse_replay_checks_a_record_and_says_where_it_diverges(client, app, tmp_path, capsys):
    game = create(client, {"ruleset": "monopoly-cars2", "seats": [{"name": "A"}, {"name": "B", "bot": "random"}]})
    drive(client, app, game, seed=8)
    record = record_of(client, game["id"])
    good = tmp_path / "good.json"
    good.write_text(json.dumps(record))
    assert cli_main(["replay", str(good)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("ok: monopoly-cars2") and "seed commitment checked" in out and "winners" in out

    tampered = json.loads(json.dumps(record))
    tampered["log"][2]["seat"] = 1 - tampered["log"][2]["seat"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(tampered))
    assert cli_main(["replay", str(bad)]) == 1
    assert "diverged at log entry 2 (version 3" in capsys.readouterr().err

    lying = dict(record, seed=record["seed"] + 1)
    bad.write_text(json.dumps(lying))
    assert cli_main(["replay", str(bad)]) == 1
    assert "do not match the seed commitment" in capsys.readouterr().err

    bad.write_text(json.dumps(dict(record, rules_version=record["rules_version"] + 1)))
    assert cli_main(["replay", str(bad)]) == 2
    assert "rules version" in capsys.readouterr().err

    running = create(client, {"ruleset": "monopoly-cars2", "seats": [{"name": "A"}, {"name": "B"}]})
    bad.write_text(json.dumps(record_of(client, running["id"])))
    assert cli_main(["replay", str(bad)]) == 2
    assert "seed_hidden" in capsys.readouterr().err

    bad.write_text("{not json")
    assert cli_main(["replay", str(bad)]) == 2


#: the bound records had before rules version 3 of Hitchiker: 73% of 6-player random games were longer
OLD_MAX_LOG_ENTRIES = 2000


def test_a_game_longer_than_the_old_bound_exports_replays_forks_and_evaluates(client, app, tmp_path):
    """Seats that never save play Hitchiker to its turn cap; the service stores every move, and the
    finished game's record works everywhere a record goes (its cost at the longest game: bench/longest_games.py)."""
    seed, options = 5, {"turn_cap": 600}
    actions, capped, _ = longest_games.play("hitchiker", 2, "lengthening", options, seed)
    assert capped and len(actions) > OLD_MAX_LOG_ENTRIES
    game = create(client, {"ruleset": "hitchiker", "seed": seed, "options": options,
                           "seats": [{"name": "Ann"}, {"name": "Bo"}]})
    store = app.extensions["rulehouse.store"]
    with app.app_context():
        for version, (seat, action) in enumerate(actions):
            submit_action(store, game["id"], seat, action, version)
    record = record_of(client, game["id"])
    assert record["status"] == "finished" and record["complete"] and len(record["log"]) == len(actions)
    assert record["result"]["turn_cap_hit"] is True

    saved = tmp_path / "long.json"
    saved.write_text(json.dumps(record))
    assert cli_main(["replay", str(saved)]) == 0

    ruleset = get_ruleset("hitchiker")
    for version in (len(actions) - 1, OLD_MAX_LOG_ENTRIES + 1):
        fork = create(client, {"fork": {"game": game["id"], "version": version}})
        assert json.loads(store.load(fork["id"]).state) == ruleset.to_dict(replay(record, until_version=version).state)

    reply = client.post("/v1/rulesets/hitchiker/evaluate", json={"record": record, "seat": 1})
    assert reply.status_code == 200, reply.get_json()
    answer = reply.get_json()
    assert answer["legal"] and answer["applied"] == len(actions) and answer["result"] == record["result"]


# -- forks ----------------------------------------------------------------------------------


def test_anyone_may_fork_a_finished_game_at_any_version(client, app):
    game = create(client, {"ruleset": "hitchiker", "seats": [{"name": "Ann"}, {"name": "Bo", "bot": "heuristic"}]})
    final_version = drive(client, app, game, seed=6)
    record = record_of(client, game["id"])
    at = final_version // 2
    fork = create(client, {"fork": {"game": game["id"], "version": at},
                           "seats": [{"name": "Cy"}, {"name": "Di", "bot": "random"}]})
    assert fork["version"] == 0 and fork["ruleset"] == "hitchiker" and fork["status"] == "active"
    assert fork["fork"] == {"game": game["id"], "version": at, "hidden_redealt": False}
    assert [seat["name"] for seat in fork["seats"]] == ["Cy", "Di"] and fork["seats"][0]["token"]
    ruleset = get_ruleset("hitchiker")
    expected = replay(record, until_version=at).state
    store = app.extensions["rulehouse.store"]
    assert json.loads(store.load(fork["id"]).state) == ruleset.to_dict(expected)
    first = client.get(f"/v1/games/{fork['id']}/events?limit=5").get_json()["events"]
    assert [entry["event"]["type"] for entry in first] == ["game_created"]
    assert first[0]["event"]["fork"] == fork["fork"]

    drive(client, app, fork, seed=7)
    forked = record_of(client, fork["id"])
    assert forked["fork"] == fork["fork"] and forked["start"]["state"] == ruleset.to_dict(expected)
    assert forked["seed_source"] == "fork" and forked["seed"] == record["seed"]
    checked = replay(forked)
    assert checked.ok and checked.commitment_ok is True

    same_names = create(client, {"fork": {"game": fork["id"]}})
    assert [seat["name"] for seat in same_names["seats"]] == ["Cy", "Di"]
    assert same_names["status"] == "finished"


def test_fork_requests_are_checked(client, app):
    game = create(client, {"ruleset": "whipcash", "seats": [{"name": "A"}, {"name": "B"}]})
    drive(client, app, game, seed=2)
    cases = [
        ({"fork": {"game": "nope"}}, "/fork/game"),
        ({"fork": {"game": game["id"], "version": 10**6}}, "/fork/version"),
        ({"fork": {"game": game["id"]}, "seats": [{"name": "A"}]}, "/seats"),
        ({"fork": {"game": game["id"]}, "seed": 3}, "/seed"),
        ({"fork": {"game": game["id"]}, "options": {"turn_cap": 3}}, "/options"),
        ({"fork": {"game": game["id"]}, "ruleset": "hitchiker"}, "/ruleset"),
        ({"fork": {"game": game["id"]}, "seats": [{"name": "A", "bot": "genius"}, {"name": "B"}]}, "/seats/0/bot"),
        ({"seats": [{"name": "A"}]}, "/ruleset"),
        ({"fork": {"game": game["id"], "version": -1}}, "/fork/version"),
    ]
    for body, pointer in cases:
        problem = assert_problem(client.post("/v1/games", json=body), 422, "validation-error")
        assert pointer in [error["pointer"] for error in problem["errors"]], (body, problem)


def test_only_the_creator_may_fork_a_running_game(client, app):
    game = create(client, {"ruleset": "cash-n-guns", "seats": [{"name": n} for n in "ABCD"]})
    other = create(client, {"ruleset": "cash-n-guns", "seats": [{"name": n} for n in "ABCD"]})
    for token in (None, game["seats"][0]["token"], other["creator_token"]):
        assert_problem(client.post("/v1/games", json={"fork": {"game": game["id"]}}, headers=auth(token)),
                       403, "forbidden")
    fork = create(client, {"fork": {"game": game["id"]}}, token=game["creator_token"])
    assert fork["fork"]["hidden_redealt"] is True


def test_a_fork_of_a_running_game_cannot_foretell_its_hidden_cards_or_next_draws(client, app):
    store = app.extensions["rulehouse.store"]
    ruleset = get_ruleset("cash-n-guns")
    game = create(client, {"ruleset": "cash-n-guns", "seats": [{"name": n} for n in "ABCD"], "seed": 21})
    version = drive(client, app, game, seed=3, until_version=5)
    fork = create(client, {"fork": {"game": game["id"]}}, token=game["creator_token"])
    original, forked = (load_state(ruleset, store.load(g["id"])) for g in (game, fork))
    assert ruleset.view(forked, None) == ruleset.view(original, None)
    assert forked.piles != original.piles  # the loot still to come was re-dealt
    assert forked.rng != original.rng

    dice = get_ruleset("monopoly-cars2")
    game = create(client, {"ruleset": "monopoly-cars2", "seats": [{"name": "A"}, {"name": "B"}], "seed": 4})
    version = drive(client, app, game, seed=3, until_version=4)
    fork = create(client, {"fork": {"game": game["id"], "version": version}}, token=game["creator_token"])
    draws = {game["id"]: [], fork["id"]: []}
    for _ in range(12):
        stored = {g["id"]: store.load(g["id"]) for g in (game, fork)}
        pending = {g: dice.pending(load_state(dice, record)) for g, record in stored.items()}
        if not all(pending.values()):
            break
        # The same seat sends the same first option in both games while both offer it.
        first = pending[game["id"]][0]
        if first.seat != pending[fork["id"]][0].seat or first.options[0] not in pending[fork["id"]][0].options:
            break
        for g in (game, fork):
            reply = act(client, g["id"], g["seats"][first.seat]["token"], first.options[0], stored[g["id"]].version)
            assert reply.status_code == 200, reply.get_json()
            draws[g["id"]].extend(entry["event"] for entry in reply.get_json()["events"])
    assert draws[game["id"]] and draws[game["id"]] != draws[fork["id"]]


# -- evaluate -------------------------------------------------------------------------------


def evaluate_body(ruleset_id: str = "monopoly-cars2", actions: int = 12, seed: int = 4) -> dict:
    """A record an app keeps itself: setup and actions only."""
    ruleset = get_ruleset(ruleset_id)
    state = ruleset.new_game(2, None, seed)
    rng, log = Rng(seed), []
    for _ in range(actions):
        decision = ruleset.pending(state)[0]
        action = ruleset.bot("random").act(None, decision, rng)
        ruleset.apply(state, decision.seat, action)
        log.append({"seat": decision.seat, "action": action})
    return {"record": {"players": 2, "seed": seed, "log": log}, "seat": 1}


@pytest.fixture
def no_redis_client(redis_db_url):
    """An app whose Redis is a closed port: evaluation must not need it."""
    from api.app import create_app

    app = create_app({"REDIS_URL": "redis://127.0.0.1:9/0", "BOT_QUEUE": None})
    app.testing = True
    return app.test_client()


def test_evaluate_referees_a_record_without_redis(no_redis_client):
    body = evaluate_body()
    reply = no_redis_client.post("/v1/rulesets/monopoly-cars2/evaluate", json=body)
    assert reply.status_code == 200, reply.get_json()
    answer = reply.get_json()
    ruleset = get_ruleset("monopoly-cars2")
    state = ruleset.new_game(2, None, 4)
    events = [[e.to_dict() for e in ruleset.apply(state, entry["seat"], entry["action"])]
              for entry in body["record"]["log"]]
    assert answer["legal"] is True and answer["illegal"] is None and answer["applied"] == 12
    assert answer["view"] == ruleset.view(state, 1)
    assert answer["decisions"] == [d.to_dict() for d in ruleset.pending(state) if d.seat == 1]
    assert answer["waiting_for"] == sorted({d.seat for d in ruleset.pending(state)})
    assert answer["events"] == events and answer["result"] is None and answer["status"] == "active"

    body["record"]["log"][7]["seat"] = 1 - body["record"]["log"][7]["seat"]
    answer = no_redis_client.post("/v1/rulesets/monopoly-cars2/evaluate", json=body).get_json()
    assert answer["legal"] is False and answer["applied"] == 7
    assert answer["illegal"]["index"] == 7 and answer["illegal"]["reason"] == "not_your_turn"


def test_evaluate_answers_bad_records_with_problems(no_redis_client):
    url = "/v1/rulesets/monopoly-cars2/evaluate"
    assert_problem(no_redis_client.post("/v1/rulesets/nope/evaluate", json=evaluate_body()), 404, "not-found")
    body = evaluate_body()
    body["record"]["log"] = body["record"]["log"] * (MAX_LOG_ENTRIES // 12 + 1)
    problem = assert_problem(no_redis_client.post(url, json=body), 422, "validation-error")
    assert "/record/log" in [error["pointer"] for error in problem["errors"]]
    body["record"]["log"] = [{"seat": 0}] * 80_000  # under the body limit; refused before any entry is read
    problem = assert_problem(no_redis_client.post(url, json=body), 422, "validation-error")
    assert problem["reason"] == "record_too_long"
    huge = evaluate_body()
    huge["record"]["options"] = {"padding": "x" * EVALUATE_MAX_BYTES}
    assert_problem(no_redis_client.post(url, json=huge), 413, "payload-too-large")
    for change, reason in (({"seed": None}, "seed_hidden"), ({"rules_version": 99}, "rules_version"),
                           ({"players": 9}, "invalid_options"), ({"ruleset": "whipcash"}, None),
                           ({"start": {"state": {"format": 1}}}, "start_not_accepted")):
        body = evaluate_body()
        body["record"].update(change)
        problem = assert_problem(no_redis_client.post(url, json=body), 422, "validation-error")
        assert problem.get("reason") == reason
    body = evaluate_body()
    body["seat"] = 2
    problem = assert_problem(no_redis_client.post(url, json=body), 422, "validation-error")
    assert problem["errors"][0]["pointer"] == "/seat"
    # A log longer than the body limit for actions alone still fits this endpoint's own limit.
    long = evaluate_body(actions=30, seed=5)
    long["record"]["log"] = [dict(entry, events=[{"type": "x" * 3000}]) for entry in long["record"]["log"]]
    assert len(json.dumps(long)) > 64 * 1024
    assert no_redis_client.post(url, json=long).status_code == 200


def test_rulehouse_replay_and_evaluate_take_a_record_of_format_1(capsys, no_redis_client):
    assert cli_main(["replay", str(FORMAT_1_RECORD)]) == 0
    assert capsys.readouterr().out.startswith("ok: whipcash, 15 log entries replayed")
    old = json.loads(FORMAT_1_RECORD.read_text())
    evaluated = no_redis_client.post("/v1/rulesets/whipcash/evaluate", json={"record": old})
    assert evaluated.status_code == 200, evaluated.get_json()
    answer = evaluated.get_json()
    assert answer["legal"] and answer["status"] == "finished"
    assert answer["result"]["details"]["holdings"]["daily"] == {"seat": 0, "pro": None}
