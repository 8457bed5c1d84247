"""The rooms of api/ hold as documented (docs/architecture.md): checked at run time here, and as
import-linter contracts in `make test`."""

from __future__ import annotations

import subprocess
import sys

import pytest

from api.http.play_errors import KINDS, problem_for
from api.http.problems import KINDS as PROBLEM_KINDS
from api.play import errors


def _refusals(base: type) -> list[type]:
    found = []
    for sub in base.__subclasses__():
        found += [sub, *_refusals(sub)]
    return found


def test_the_game_room_runs_without_flask():
    """api/play's rule (its README): importing all of it loads no Flask, flask-smorest or api.http (marshmallow
    it may: the engine's action schemas are marshmallow's)."""
    code = ("import sys, pkgutil, importlib, api.play\n"
            "for module in pkgutil.iter_modules(api.play.__path__):\n"
            "    importlib.import_module('api.play.' + module.name)\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('flask', 'flask_smorest', 'werkzeug')\n"
            "             or m.startswith('api.http')))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "[]"


@pytest.mark.parametrize("refusal", _refusals(errors.PlayError), ids=lambda cls: cls.__name__)
def test_every_refusal_of_the_game_room_has_its_problem(refusal):
    assert any(issubclass(refusal, kind_of) for kind_of in KINDS)
    assert refusal.code in PROBLEM_KINDS


def test_a_stale_version_answers_with_the_callers_etag():
    problem = problem_for(errors.StaleVersion("the game is at version 4", version=4, seat=1, decisions=["1.3"]))
    assert (problem.status, problem.kind, problem.headers["ETag"]) == (412, "version-mismatch", '"4.1"')
    assert problem.extra == {"version": 4, "decisions": ["1.3"]}
