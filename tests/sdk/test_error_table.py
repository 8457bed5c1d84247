"""The docs list every problem the API can send, with the SDK exception each raises; the SDK maps
each to that exception, and refuses a path that would have an empty segment."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rulehouse_sdk import Client, errors

from api.http.problems import KINDS

ROOT = Path(__file__).resolve().parents[2]


def documented_rows() -> dict[str, tuple[int, str]]:
    """kind -> (status, SDK exception) from the errors table of docs/http-api.md."""
    text = (ROOT / "docs" / "http-api.md").read_text()
    rows = re.findall(r"^\| (\d{3}) \| `([a-z-]+)` \| .* \| `(\w+)` \|$", text, flags=re.MULTILINE)
    return {kind: (int(status), exception) for status, kind, exception in rows}


def test_every_problem_kind_is_documented_with_its_status_and_sdk_exception():
    rows = documented_rows()
    assert set(rows) == set(KINDS), set(rows) ^ set(KINDS)
    for kind, (status, exception) in rows.items():
        assert KINDS[kind][0] == status, kind
        assert errors.error_class(kind, status).__name__ == exception, kind
        assert errors.BY_KIND.get(kind) is getattr(errors, exception), f"the SDK has no class for {kind}"


def test_the_sdk_readme_lists_each_kind_beside_its_exception():
    text = (ROOT / "sdk" / "README.md").read_text()
    for kind, (status, exception) in documented_rows().items():
        row = next((line for line in text.splitlines() if line.startswith(f"| `{exception}`")), "")
        assert f"`{kind}`" in row and str(status) in row, (kind, exception)


def test_an_empty_path_parameter_is_refused_before_sending():
    client = Client("http://127.0.0.1:9")  # nothing listens: a request would fail differently
    with pytest.raises(ValueError, match="game_id must not be empty"):
        client.get_decisions("")
