"""What a ruleset publishes: its default data in the format of its options, and its rules document,
served by the API and shipped with the package."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine.core.registry import all_rulesets
from tests.api.helpers import assert_problem

ROOT = Path(__file__).resolve().parents[2]
GAMES = ["monopoly-cars2", "cash-n-guns", "whipcash", "hitchiker"]


@pytest.mark.parametrize("ruleset_id", GAMES)
def test_the_published_data_fed_back_as_options_makes_the_same_game(client, ruleset_id):
    described = client.get(f"/v1/rulesets/{ruleset_id}").get_json()
    data = described["data"]
    assert data, f"{ruleset_id} publishes no data"
    assert set(data) <= set(described["options_schema"]["properties"])
    seats = [{"name": f"p{n}"} for n in range(described["min_players"])]
    views = []
    for options in ({}, data):
        reply = client.post("/v1/games", json={"ruleset": ruleset_id, "seats": seats, "seed": 11, "options": options})
        assert reply.status_code == 201, reply.get_json()
        view = client.get(f"/v1/games/{reply.get_json()['id']}").get_json()["view"]
        view.pop("custom_data", None)  # Hitchiker shows the players the data a game was given
        views.append(view)
    assert views[0] == views[1]


def test_the_published_data_is_what_the_house_rules_edit(client):
    """A house rule is an edited copy of the published data."""
    data = client.get("/v1/rulesets/cash-n-guns").get_json()["data"]
    reply = client.post("/v1/games", json={"ruleset": "cash-n-guns", "seats": [{"name": f"p{n}"} for n in range(4)],
                                           "options": {**data, "diamond_bonus": data["diamond_bonus"] * 2}})
    assert reply.status_code == 201, reply.get_json()


@pytest.mark.parametrize("ruleset_id", GAMES)
def test_rules_doc_is_a_url_of_the_service_serving_markdown(client, ruleset_id):
    listed = {entry["id"]: entry for entry in client.get("/v1/rulesets").get_json()["rulesets"]}
    url = listed[ruleset_id]["rules_doc"]
    assert url == f"/v1/rulesets/{ruleset_id}/rules" == listed[ruleset_id]["links"]["rules_doc"]
    reply = client.get(url)
    assert reply.status_code == 200 and reply.mimetype == "text/markdown"
    assert reply.get_data(as_text=True) == (ROOT / "docs" / "rules" / f"{ruleset_id}.md").read_text()


def test_rules_of_an_unknown_or_undocumented_ruleset_are_404(client, toy_ruleset):
    assert_problem(client.get("/v1/rulesets/no-such-game/rules"), 404, "not-found")
    assert_problem(client.get(f"/v1/rulesets/{toy_ruleset.id}/rules"), 404, "not-found")


def test_the_rules_documents_are_in_the_built_package(tmp_path):
    """``pip install .`` copies what build_py builds: the rules documents must be among the files."""
    build = tmp_path / "build"
    subprocess.run([sys.executable, "-c", "from setuptools import setup; setup()", "-q", "build_py",
                    "--build-lib", str(build)], cwd=ROOT, check=True, capture_output=True, timeout=120)
    for ruleset_id in all_rulesets():
        shipped = build / "api" / "rulesets" / "rules" / f"{ruleset_id}.md"
        assert shipped.is_file() and not shipped.is_symlink(), shipped
