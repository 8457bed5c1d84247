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
            pytest.raises(SpecViolation, match="answered 'application/json'"):
        Client(server.url, session=checker.session(), retries=0).get_ruleset("x")


def test_a_request_missing_a_required_header_is_caught(checker):
    with ScriptedServer((428, {}, {"type": "t", "title": "t", "status": 428})) as server, \
            pytest.raises(SpecViolation, match="If-Match"):
        Client(server.url, "token", session=checker.session(), retries=0).submit_action("g", {"type": "roll"},
                                                                                       if_match=None)
