"""The contract check itself rejects what the spec forbids (else the SDK tests would prove nothing)."""

from __future__ import annotations

import pytest
from rulehouse_sdk import Client

from tests.sdk.openapi_check import SpecViolation
from tests.sdk.test_retries import ScriptedServer


def test_an_answer_that_breaks_its_schema_is_caught(checker):
    with ScriptedServer((200, {}, {"status": "ok", "extra": 1})) as server, \
            pytest.raises(SpecViolation, match="Additional properties"):
        Client(server.url, session=checker.session(), retries=0).health()


def test_an_undocumented_media_type_is_caught(checker):
    problem = {"type": "t", "title": "t", "status": 503}
    with ScriptedServer((503, {"Content-Type": "application/json"}, problem)) as server, \
            pytest.raises(SpecViolation, match="mimetype not found: application/json"):
        Client(server.url, session=checker.session(), retries=0).get_ruleset("x")


def test_a_request_missing_a_required_header_is_caught(checker):
    with ScriptedServer((428, {}, {"type": "t", "title": "t", "status": 428})) as server, \
            pytest.raises(SpecViolation, match="If-Match"):
        Client(server.url, "token", session=checker.session(), retries=0).submit_action("g", {"type": "roll"},
                                                                                       if_match=None)


def test_a_problem_that_breaks_its_schema_is_caught(checker):
    with ScriptedServer((404, {}, {"type": "t", "status": 404})) as server, \
            pytest.raises(SpecViolation, match="'title' is a required property"):
        Client(server.url, session=checker.session(), retries=0).get_ruleset("x")


def test_a_streamed_answer_in_an_undocumented_media_type_is_caught_once_read(checker):
    problem = {"type": "t", "title": "t", "status": 404}
    with ScriptedServer((404, {"Content-Type": "application/x-ndjson"}, problem)) as server, \
            pytest.raises(SpecViolation, match="mimetype not found: application/x-ndjson"):
        Client(server.url, "token", session=checker.session(), retries=0).stream_events("g")


def test_a_live_stream_is_checked_when_the_server_ends_it(checker, monkeypatch):
    checked_bodies = []
    check_response = checker.check_response

    def recording(where, request, response, **options):
        checked_bodies.append(response.data)
        check_response(where, request, response, **options)

    monkeypatch.setattr(checker, "check_response", recording)
    with ScriptedServer((200, {"Content-Type": "application/x-ndjson"}, {"kind": "end"})) as server:
        lines = Client(server.url, "token", session=checker.session(), retries=0).stream_events("g")
        assert checked_bodies == [b""]  # status and headers only: the body is still on the wire
        assert list(lines) == [{"kind": "end"}]
    assert checked_bodies == [b"", b'{"kind": "end"}']
    assert ("GET", "/v1/games/{game_id}/stream", 200) in checker.checked
