"""Hints through the SDK (every request and answer checked against openapi.yaml), on a real worker."""

from __future__ import annotations

import time

import pytest
from rulehouse_sdk import Forbidden


def test_get_hint_answers_pending_then_the_hint_and_its_decision_tag_acts(client, worker):
    game = client.create_game("whipcash", [{"name": "Ann"}, {"name": "Bob"}], seed=7, hints=True)
    assert game["hints"] is True
    ann = client.with_token(game["seats"][0]["token"])
    deadline = time.monotonic() + 60
    while (hint := ann.get_hint(game["id"], wait=5))["status"] == "pending":
        assert time.monotonic() < deadline, hint
    assert hint["action"] in [option["action"] for option in hint["options"]]
    done = ann.submit_action(game["id"], hint["action"], if_match=f'"d:{hint["decision"]}"')
    assert done["version"] == 1
    assert ann.get_game(game["id"])["hint_counts"] == [1, 0]


def test_a_game_without_hints_refuses_with_a_reason(client):
    game = client.create_game("whipcash", [{"name": "Ann"}, {"name": "Bob"}], seed=7)
    ann = client.with_token(game["seats"][0]["token"])
    with pytest.raises(Forbidden) as refused:
        ann.get_hint(game["id"])
    assert refused.value.reason == "hints_disabled" and refused.value.status == 403
