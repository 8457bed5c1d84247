"""If-Match as a version tag (strict) or a decision tag (its decision unchanged), and decision ids."""

from __future__ import annotations

import time

import pytest

from api.play.store import GameStore
from api.play.timeouts import apply_defaults
from tests.api.helpers import assert_problem, auth, create_game


def move(client, game_id: str, token: str, action: dict, if_match: str):
    return client.post(f"/v1/games/{game_id}/actions", json=action,
                       headers={**auth(token), "If-Match": if_match})


def decisions(client, game_id: str, token: str) -> list[dict]:
    return client.get(f"/v1/games/{game_id}/decisions", headers=auth(token)).get_json()["decisions"]


def card(decision: dict) -> dict:
    return decision["options"][0]


@pytest.fixture
def played_to_cards(client, toy_ruleset):
    """A two-seat toy game at version 1: both seats must play a card at once."""
    game = create_game(client, toy_ruleset.id, [{"name": "a"}, {"name": "b"}])
    tokens = [seat["token"] for seat in game["seats"]]
    assert move(client, game["id"], tokens[0], {"type": "roll"}, '"0"').status_code == 200
    return game, tokens


def test_a_decision_id_survives_other_seats_moves(client, played_to_cards):
    game, tokens = played_to_cards
    mine, theirs = decisions(client, game["id"], tokens[0])[0], decisions(client, game["id"], tokens[1])[0]
    assert (mine["id"], theirs["id"]) == ("0.1", "1.1")
    assert move(client, game["id"], tokens[1], card(theirs), '"d:1.1"').status_code == 200
    assert decisions(client, game["id"], tokens[0])[0]["id"] == "0.1"
    # The version moved, so the strict precondition fails, and the decision one holds.
    stale = assert_problem(move(client, game["id"], tokens[0], card(mine), '"1.0"'), 412, "version-mismatch")
    assert stale["version"] == 2 and stale["decisions"] == ["0.1"]
    reply = move(client, game["id"], tokens[0], card(mine), '"d:0.1"')
    assert reply.status_code == 200, reply.get_json()
    assert reply.get_json()["version"] == 3


def test_a_decision_id_of_the_previous_round_is_refused(client, played_to_cards):
    game, tokens = played_to_cards
    for token, tag in zip(tokens, ('"d:0.1"', '"d:1.1"'), strict=True):
        assert move(client, game["id"], token, card(decisions(client, game["id"], token)[0]), tag).status_code == 200
    roller = next(token for token in tokens if decisions(client, game["id"], token))
    assert move(client, game["id"], roller, {"type": "roll"}, '"3"').status_code == 200
    now = decisions(client, game["id"], tokens[0])[0]
    assert now["kind"] == "play_card" and now["id"] == "0.4"
    stale = assert_problem(move(client, game["id"], tokens[0], card(now), '"d:0.1"'), 412, "version-mismatch")
    assert stale["version"] == 4 and stale["decisions"] == ["0.4"]


def test_a_default_played_by_the_deadline_fails_the_decision_precondition(client, toy_ruleset, redis_db_url):
    reply = client.post("/v1/games", json={"ruleset": toy_ruleset.id, "seats": [{"name": "a"}, {"name": "b"}],
                                           "seed": 7, "decision_timeout": 60})
    game = reply.get_json()
    tokens = [seat["token"] for seat in game["seats"]]
    assert move(client, game["id"], tokens[0], {"type": "roll"}, '"0"').status_code == 200
    mine = decisions(client, game["id"], tokens[0])[0]
    store = client.application.extensions["rulehouse.store"]
    assert isinstance(store, GameStore)
    said = apply_defaults(store, game["id"], 1, now=time.time() + 120)
    assert said.played
    stale = assert_problem(move(client, game["id"], tokens[0], card(mine), f'"d:{mine["id"]}"'), 412,
                           "version-mismatch")
    assert stale["decisions"] == []


def test_a_decision_tag_of_another_seat_is_403(client, played_to_cards):
    game, tokens = played_to_cards
    theirs = decisions(client, game["id"], tokens[1])[0]
    assert_problem(move(client, game["id"], tokens[0], card(theirs), '"d:1.1"'), 403, "forbidden")


@pytest.mark.parametrize("value", ['"x"', 'W/"1"', '"1", "2"', "*", '"d:1"', '"d:x.1"', "d:0.1", '"1.seat"',
                                   '"' + "9" * 70 + '"', ""])
def test_a_malformed_if_match_is_400_saying_what_is_wrong(client, played_to_cards, value):
    game, tokens = played_to_cards
    body = assert_problem(move(client, game["id"], tokens[0], {"type": "roll"}, value), 400, "bad-request")
    assert body["header"] == "If-Match" and "If-Match" in body["detail"]


def test_a_version_tag_may_be_the_callers_read_etag(client, played_to_cards):
    game, tokens = played_to_cards
    etag = client.get(f"/v1/games/{game['id']}", headers=auth(tokens[0])).headers["ETag"]
    assert etag == '"1.0"'
    mine = decisions(client, game["id"], tokens[0])[0]
    assert move(client, game["id"], tokens[0], card(mine), etag).status_code == 200


def test_a_commit_that_lost_its_race_to_another_seat_is_re_run_for_a_decision(client, played_to_cards):
    from api.play.errors import StaleVersion
    from api.play.moves import submit_action
    from api.play.preconditions import Precondition

    game, tokens = played_to_cards
    store = client.application.extensions["rulehouse.store"]
    mine = decisions(client, game["id"], tokens[0])[0]
    seen = store.load(game["id"])  # seat 0 read version 1 ...
    theirs = decisions(client, game["id"], tokens[1])[0]
    assert move(client, game["id"], tokens[1], card(theirs), '"1"').status_code == 200  # ... seat 1 moved
    with pytest.raises(StaleVersion) as strict:
        submit_action(store, game["id"], 0, card(mine), 1, record=seen)
    assert strict.value.version == 2
    # The compare-and-set at version 1 fails inside; the decision is unchanged, so it runs again at 2.
    outcome = submit_action(store, game["id"], 0, card(mine), Precondition(seat=0, since=1), record=seen)
    assert outcome.version == 3
    assert [seat for seat, _ in store.action_log(game["id"])] == [0, 1, 0]
