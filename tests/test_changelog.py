"""The change policy holds together: CHANGELOG.md has an Unreleased section for the next lines, and
it names the spec version the code serves (a version raised without a word there fails)."""

from __future__ import annotations

import re
from pathlib import Path

from api.openapi import spec_dict

ROOT = Path(__file__).resolve().parents[1]


def test_the_changelog_has_an_unreleased_section_first():
    headings = re.findall(r"^## (.+)$", (ROOT / "CHANGELOG.md").read_text(), flags=re.MULTILINE)
    assert headings and headings[0] == "Unreleased", headings


def test_the_changelog_names_the_spec_version():
    version = spec_dict()["info"]["version"]
    assert re.fullmatch(r"\d+\.\d+\.\d+", version)
    assert f"version {version}" in (ROOT / "CHANGELOG.md").read_text()


def test_the_http_guide_states_the_change_policy():
    text = (ROOT / "docs" / "http-api.md").read_text()
    assert "## API change policy" in text and "CHANGELOG.md" in text
