"""Each problem the live service reports raises its own exception, carrying the problem's details."""

from __future__ import annotations

import pytest
from rulehouse_sdk import (
    Client,
    Forbidden,
    IdempotencyKeyReused,
    IllegalAction,
    InvalidRequest,
    NotFound,
    PreconditionRequired,
    RulehouseError,
    ServiceUnavailable,
    StaleVersion,
    Unauthorized,
)

from tests.sdk.conftest import serving

PROBLEMS = "https://rulehouse.dev/problems/"


@pytest.fixture
def game(client):
    created = client.create_game("monopoly-cars2", [{"name": "Ann"}, {"name": "Ben"}], seed=1)
    first = client.get_game(created["id"])["waiting_for"][0]
    created["on_turn"] = client.with_token(created["seats"][first]["token"])
    created["waiting"] = client.with_token(created["seats"][1 - first]["token"])
    return created


def raised(error_class, call, *args, **kwargs) -> RulehouseError:
    with pytest.raises(error_class) as info:
        call(*args, **kwargs)
    assert isinstance(info.value, RulehouseError)
    return info.value


def test_not_found(client):
    error = raised(NotFound, client.get_game, "no-such-game")
    assert (error.status, error.type, error.kind) == (404, PROBLEMS + "not-found", "not-found")
    assert error.title and "no-such-game" in error.detail
    assert raised(NotFound, client.get_ruleset, "no-such-ruleset").status == 404


def test_unauthorized(client, game, checker):
    error = raised(Unauthorized, client.with_token("not-a-token").get_game, game["id"])
    assert error.status == 401 and error.kind == "unauthorized"
    with checker.sending_invalid_requests():  # the spec requires a token here
        raised(Unauthorized, client.submit_action, game["id"], {"type": "roll"}, if_match=0)


def test_forbidden(client, game):
    creator = client.with_token(game["creator_token"])
    assert raised(Forbidden, creator.submit_action, game["id"], {"type": "roll"}, if_match=0).status == 403
    other_seat = game["on_turn"].get_game(game["id"])["seat"] ^ 1
    raised(Forbidden, game["on_turn"].submit_action, game["id"], {"type": "roll"}, if_match=0, seat=other_seat)
    raised(Forbidden, game["on_turn"].delete_game, game["id"])


def test_illegal_action_carries_the_engine_reason(game):
    error = raised(IllegalAction, game["waiting"].submit_action, game["id"], {"type": "roll"}, if_match=0)
    assert (error.status, error.kind, error.reason, error.version) == (409, "illegal-action", "not_your_turn", 0)


def test_stale_version(game):
    game["on_turn"].submit_action(game["id"], {"type": "roll"}, if_match=0)
    error = raised(StaleVersion, game["on_turn"].submit_action, game["id"], {"type": "roll"}, if_match=0)
    assert error.status == 412 and error.kind == "version-mismatch" and error.version >= 1


def test_invalid_request_lists_the_fields(client, checker):
    error = raised(InvalidRequest, client.create_game, "no-such-ruleset", [{"name": "Ann"}])
    assert error.status == 422 and error.kind == "validation-error"
    assert any(field["pointer"] == "/ruleset" for field in error.errors)
    with checker.sending_invalid_requests():
        error = raised(InvalidRequest, client.create_game, "monopoly-cars2", [])
    assert any(field["pointer"] == "/seats" for field in error.errors)


def test_precondition_required_without_if_match(game, checker):
    with checker.sending_invalid_requests():
        error = raised(PreconditionRequired, game["on_turn"].submit_action, game["id"], {"type": "roll"},
                       if_match=None)
    assert error.status == 428 and error.kind == "precondition-required"


def test_an_idempotency_key_reused_with_another_body(game):
    game["on_turn"].submit_action(game["id"], {"type": "roll"}, if_match=0, idempotency_key="k-1")
    error = raised(IdempotencyKeyReused, game["on_turn"].submit_action, game["id"], {"type": "pass"}, if_match=1,
                   idempotency_key="k-1")
    assert isinstance(error, InvalidRequest) and error.kind == "idempotency-key-reused"


def test_service_unavailable_when_redis_is_down(checker):
    with serving({"REDIS_URL": "redis://127.0.0.1:1/0", "BOT_QUEUE": None}) as url, \
            Client(url, session=checker.session(), retries=1, backoff=0.01) as client:
        error = raised(ServiceUnavailable, client.ready)
        assert error.status == 503 and error.kind == "service-unavailable"
        assert client.health() == {"status": "ok"}
