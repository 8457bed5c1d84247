"""Odd paths get problem+json answers like any other error, never an HTML redirect."""

from __future__ import annotations

import pytest

from tests.api.helpers import assert_problem


@pytest.mark.parametrize("path", ["/v1/games//decisions", "/v1/games//actions", "/v1//games", "//v1/rulesets",
                                  "/v1/games//", "/v1/rulesets//rules"])
@pytest.mark.parametrize("method", ["GET", "POST", "DELETE"])
def test_an_empty_path_segment_is_a_problem_404(client, path, method):
    reply = client.open(path, method=method, json={"type": "roll"})
    assert "Location" not in reply.headers
    assert_problem(reply, 404, "not-found")
