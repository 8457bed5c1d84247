"""The documents point only at files the repository has (a reader, or the API serving a rules
document, never meets a dead reference)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from api.simulations.routes import SIMULATION_EXAMPLE

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = sorted([ROOT / "README.md", ROOT / "CHANGELOG.md", ROOT / "sdk" / "README.md",
                    *(ROOT / "docs").glob("*.md"), *(ROOT / "docs" / "rules").glob("*.md")])
#: a backticked file name or repository path: `engine/games/x/`, `data/board.json`, `RULES.md`
FILE_REFERENCE = re.compile(r"^(?:[\w.-]+/)*[\w.-]+\.(?:md|txt|py|json|ya?ml|toml|html|cfg)$"
                            r"|^(?:api|engine|docs|tests|bench|sdk|examples|rulebooks)/[\w./-]*$")
LINK = re.compile(r"\]\(([^)\s]+)\)")


def game_package(document: Path) -> Path | None:
    if document.parent.name != "rules":
        return None
    return ROOT / "engine" / "games" / document.stem.replace("-", "_")


def places(document: Path) -> list[Path]:
    """Where a reference in this document may point: the repository root, beside the document, and
    for a rules document its game's package and data."""
    package = game_package(document)
    return [ROOT, document.parent, *([package, package / "data"] if package else [])]


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_file_a_document_names_exists(document):
    text = document.read_text()
    missing = []
    for token in re.findall(r"`([^`\n]+)`", text):
        if FILE_REFERENCE.match(token) and not any((base / token).exists() for base in places(document)):
            missing.append(token)
    for target in LINK.findall(text):
        if re.match(r"^[a-z]+:", target) or target.startswith(("#", "/")):
            continue
        if not (document.parent / target.split("#", 1)[0]).exists():
            missing.append(target)
    assert not missing, f"{document.relative_to(ROOT)} names files the repository does not have: {missing}"


#: a pointer at an issue ("see the apps issue's docs", "until the hardening issue") that a reader of the
#: repository cannot follow: documents point at documents
ISSUE_REFERENCE = re.compile(r"\bthe [\w-]+ issue\b|\bthe issue's\b|\bissue's docs\b|\bissue #?[0-9]+\b",
                             flags=re.IGNORECASE)


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_document_sends_its_reader_to_an_issue(document):
    found = [match.group(0) for match in ISSUE_REFERENCE.finditer(document.read_text())]
    assert not found, f"{document.relative_to(ROOT)} points at issues instead of documents: {found}"


def test_the_web_table_doc_says_how_many_games_the_simulation_example_runs():
    text = (ROOT / "docs" / "web-table.md").read_text()
    said = re.search(r'"Queue a simulation" runs ([\d,]+) ', text)
    assert said, "docs/web-table.md no longer describes the simulation example"
    assert int(said.group(1).replace(",", "")) == SIMULATION_EXAMPLE["games"]
