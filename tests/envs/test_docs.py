"""docs/agents.md states each ruleset's slot and feature counts as the code has them, and names every
decision kind its encoding one-hots."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.core.registry import all_rulesets
from envs.table import Table

DOC = (Path(__file__).resolve().parents[2] / "docs" / "agents.md").read_text()


@pytest.mark.parametrize("ruleset", list(all_rulesets()))
def test_the_doc_states_the_spaces(ruleset):
    table = Table(ruleset)
    row = re.search(rf"^\| `{ruleset}` \| (\d+) \|", DOC, flags=re.MULTILINE)
    assert row and int(row.group(1)) == len(table.catalogue)
    assert f"({len(table.feature_names)} features" in DOC
    for kind in table.encoding.kinds:
        assert f"`{kind}`" in DOC, kind
