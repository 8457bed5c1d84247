"""Typed results, readable validation errors and streams that outlive the server's time limit,
against a live server."""

from __future__ import annotations

import functools
import threading
import time
import typing
from pathlib import Path

import pytest
import rulehouse_sdk
import yaml
from openapi_schema_validator import OAS30Validator
from rulehouse_sdk import Client, InvalidRequest, Operations, types

from tests.sdk.conftest import serving
from tests.sdk.test_games import play_until_finished

RULESET = "monopoly-cars2"
SPEC = Path(__file__).resolve().parents[2] / "openapi.yaml"
LINE_TYPES = {"state": types.StreamState, "event": types.StreamEvent, "keepalive": types.StreamKeepalive,
              "end": types.StreamEnd}


@functools.cache
def stream_line_validator() -> OAS30Validator:
    """Checks a line against the spec's ``StreamLine`` (the ``x-itemSchema`` of the stream)."""
    spec = yaml.safe_load(SPEC.read_text())
    return OAS30Validator({**spec["components"]["schemas"]["StreamLine"], "components": spec["components"]})


def fits(body: dict, shape: type) -> bool:
    """Whether a JSON body has every required key of a TypedDict and no key it does not declare."""
    return shape.__required_keys__ <= set(body) <= shape.__required_keys__ | shape.__optional_keys__


def test_the_public_types_module_exports_every_shape_the_methods_return():
    exported = set(types.__all__)
    assert {"Game", "CreatedGame", "Decisions", "ActionResult", "EventPage", "Simulation", "StreamLine",
            "StreamState", "StreamEvent", "StreamEnd"} <= exported
    for name, method in vars(Operations).items():
        if name.startswith("_") or not callable(method):
            continue
        returned = typing.get_type_hints(method)["return"]
        for part in typing.get_args(returned) or (returned,):
            for shape in typing.get_args(part) or (part,):
                if typing.is_typeddict(shape):
                    assert shape.__name__ in exported and getattr(types, shape.__name__) is shape, (name, shape)


def test_wait_for_simulation_and_stream_events_are_typed():
    assert typing.get_type_hints(rulehouse_sdk.Client.wait_for_simulation)["return"] is types.Simulation
    streamed = typing.get_type_hints(Operations.stream_events)["return"]
    assert typing.get_args(streamed) == (types.StreamLine,)
    assert set(typing.get_args(types.StreamLine)) == set(LINE_TYPES.values())


def test_results_have_the_shape_of_their_types(client):
    created = client.create_game(RULESET, [{"name": "Ann"}, {"name": "Ben"}], seed=7)
    assert fits(created, types.CreatedGame)
    ann = client.with_token(created["seats"][0]["token"])
    game = ann.get_game(created["id"])
    assert fits(game, types.Game)
    decisions = ann.get_decisions(created["id"])
    assert fits(decisions, types.Decisions) and all(fits(d, types.Decision) for d in decisions["decisions"])
    done = ann.submit_action(created["id"], {"type": "roll"}, if_match=decisions["version"])
    assert fits(done, types.ActionResult) and all(fits(e, types.EventEntry) for e in done["events"])
    assert fits(client.get_ruleset(RULESET), types.Ruleset)
    rules = client.get_rules_doc(RULESET)
    assert isinstance(rules, str) and rules.startswith("# Monopoly")
    labels = client.get_labels(RULESET)
    assert fits(labels, types.RulesetLabels)
    assert labels["actions"]["move_forward"] == "Move forward {spaces|count:space:spaces}"
    lines = client.stream_events(created["id"])
    state = next(lines)
    assert state["kind"] == "state" and fits(state, types.StreamState)
    lines.close()


def test_a_validation_error_names_the_failing_fields(client, checker):
    with pytest.raises(InvalidRequest) as info:
        client.create_game(RULESET, [{"name": "Ann"}, {"name": "Ben", "bot": "nobody"}])
    message = str(info.value)
    assert message.startswith("422 ")
    assert "/seats/1/bot: must be one of" in message, message
    assert message.lower().count("does not fit its schema") <= 1, message


@pytest.fixture
def short_streams_url(redis_db_url):
    """A server whose live streams end after 0.3 s."""
    with serving({"REDIS_URL": redis_db_url, "STREAM_KEEPALIVE_SECONDS": 0.1, "STREAM_MAX_SECONDS": 0.3}) as url:
        yield url


def slow_start(seats: dict[int, Client], game_id: str) -> None:
    """A few actions more than a stream's time limit apart, then the rest of the game at full speed."""
    for _ in range(3):
        time.sleep(0.5)
        game = seats[0].get_game(game_id)
        seat = game["waiting_for"][0]
        pending = seats[seat].get_decisions(game_id)
        seats[seat].submit_action(game_id, pending["decisions"][0]["default"], if_match=pending["version"])
    play_until_finished(seats, game_id, seed=5)


def test_a_stream_cut_by_the_time_limit_resumes_from_its_cursor(short_streams_url, checker):
    session = checker.session()
    opened = []
    session.hooks["response"].append(lambda response, *a, **k: opened.append(response.url)
                                     if "/stream" in response.url else None)
    client = Client(short_streams_url, session=session)
    game = client.create_game(RULESET, [{"name": "Ann"}, {"name": "Ben"}], seed=5)
    seats = {seat["seat"]: client.with_token(seat["token"]) for seat in game["seats"]}
    lines = client.stream_events(game["id"])
    first = next(lines)
    player = threading.Thread(target=slow_start, args=(seats, game["id"]))
    player.start()
    rest = list(lines)
    player.join()

    assert len(opened) >= 3, opened  # the stream was cut and resumed
    assert all(line["kind"] != "state" for line in rest)
    assert [line for line in rest if line["kind"] == "end"] == [rest[-1]]
    assert rest[-1]["reason"] == "finished"
    streamed = [{key: line[key] for key in ("cursor", "version", "event")} for line in rest if line["kind"] == "event"]
    assert streamed == list(client.iter_events(game["id"], after=first["cursor"]))
    assert all(fits(line, LINE_TYPES[line["kind"]]) for line in [first, *rest])
    for line in [first, *rest]:
        stream_line_validator().validate(line)
    session.close()


def test_without_resuming_the_time_limit_ends_the_stream(short_streams_url, checker):
    session = checker.session()
    client = Client(short_streams_url, session=session, resume_streams=False)
    game = client.create_game(RULESET, [{"name": "Ann"}, {"name": "Ben"}], seed=5)
    lines = list(client.stream_events(game["id"]))
    assert lines[0]["kind"] == "state" and lines[-1] == {"kind": "end", "reason": "time_limit", "version": 0,
                                                         "result": None}
    session.close()
