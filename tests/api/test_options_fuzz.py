"""Malformed or unbounded game options over HTTP: always a 4xx problem, never a 500, and the same
answer from POST /v1/games and POST /v1/simulations (one validation for both)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from tests.api.helpers import PROBLEM, assert_problem, create_game
from tests.options_examples import RULESETS, bent_options, full_options, replaced

SEATS = {"monopoly-cars2": 2, "cash-n-guns": 4, "whipcash": 2, "hitchiker": 2}


def post_both(client, ruleset_id: str, options: dict):
    """(the game answer, the simulation answer) for the same ruleset, players and options."""
    players = SEATS[ruleset_id]
    game = client.post("/v1/games", json={"ruleset": ruleset_id, "seats": [{"name": f"p{i}"} for i in range(players)],
                                          "options": options, "seed": 1})
    simulation = client.post("/v1/simulations", json={"ruleset": ruleset_id, "players": players, "games": 10,
                                                      "options": options, "seed": 1})
    return game, simulation


@pytest.mark.parametrize(("ruleset_id", "path", "value"), [
    ("hitchiker", ("bad_ride_deck", "cards", 12, "steps"), 2**64),  # the move walked city by city forever
    ("hitchiker", ("bad_ride_deck", "cards", 12, "steps"), -(2**64)),
    ("hitchiker", ("bad_ride_deck", "cards", 0, "amount"), 2**64),
    ("hitchiker", ("board", "cities", 1, "kind"), []),  # TypeError: unhashable
    ("hitchiker", ("bad_ride_deck", "cards", 0, "effect"), {}),
    ("hitchiker", ("deal_chart", "rolls", "2", "kind"), []),
    ("whipcash", ("board", "loop", 1, "kind"), {}),  # TypeError: unhashable
    ("whipcash", ("board", "loop", 1, "label"), "x" * 10_000),
    ("cash-n-guns", ("diamond_bonus",), 2**64),
    ("cash-n-guns", ("painting_set_values", 9), 2**64),
])
def test_out_of_bounds_or_malformed_custom_data_is_422_for_games_and_simulations(client, ruleset_id, path, value):
    options = replaced(full_options(ruleset_id), path, value)
    for reply in post_both(client, ruleset_id, options):
        body = assert_problem(reply, 422, "validation-error")
        assert any(error["pointer"].startswith("/options/") for error in body["errors"]), body


def test_simulations_refuse_options_that_games_refuse(client):
    # Too few hometowns for the players: only the game's setup can tell.
    options = full_options("hitchiker")
    for city in options["board"]["cities"]:
        if city["kind"] == "hometown":
            city["kind"] = "casino"
    options["board"]["cities"][0]["kind"] = options["board"]["cities"][1]["kind"] = "hometown"
    game = client.post("/v1/games", json={"ruleset": "hitchiker", "seats": [{"name": n} for n in "abc"],
                                          "options": options})
    simulation = client.post("/v1/simulations", json={"ruleset": "hitchiker", "players": 3, "games": 10,
                                                      "options": options})
    assert_problem(game, 422, "validation-error")
    assert_problem(simulation, 422, "validation-error")


@pytest.mark.parametrize("seat", ["²", "\u0661", "1" * 5000, "-1", " 1"])
def test_a_seat_query_that_is_not_ascii_digits_is_422(client, toy_ruleset, seat):
    game = create_game(client, toy_ruleset.id, [{"name": "a"}, {"name": "b"}])
    reply = client.post(f"/v1/games/{game['id']}/actions", query_string={"seat": seat}, json={"type": "roll"},
                        headers={"Authorization": f"Bearer {game['seats'][0]['token']}", "If-Match": '"0"'})
    assert_problem(reply, 422, "validation-error")


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_fuzzed_options_get_the_same_answer_from_games_and_simulations_and_never_a_500(client, ruleset_id):
    @settings(max_examples=25, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(options=bent_options(ruleset_id))
    def check(options):
        game, simulation = post_both(client, ruleset_id, options)
        for reply in (game, simulation):
            assert reply.status_code < 500, reply.get_data(as_text=True)
            if reply.status_code >= 400:
                assert reply.headers["Content-Type"].startswith(PROBLEM)
        assert (game.status_code, simulation.status_code) in ((201, 202), (422, 422)), (
            game.get_json(), simulation.get_json())

    check()
