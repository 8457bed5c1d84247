"""Game analysis outside the engine: ``rulehouse analyse`` and ``GET /v1/games/{id}/analysis``."""

from __future__ import annotations

import json

from api.cli import main as cli_main
from engine.analysis.game import analyse
from tests.engine.test_analysis import finished_record


def test_rulehouse_analyse_tells_a_record_in_words_or_as_json_and_refuses_an_unfinished_one(tmp_path, capsys):
    record = finished_record("whipcash", 3)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    assert cli_main(["analyse", str(path)]) == 0
    told = capsys.readouterr().out
    assert "Key moments" in told and "Costliest move" in told and "Luck-skill split" in told
    assert cli_main(["analyse", "--json", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == analyse(record)
    path.write_text(json.dumps(dict(record, log=record["log"][:4], status="active", result=None, version=4)))
    assert cli_main(["analyse", str(path)]) == 2
    assert "(not_finished)" in capsys.readouterr().err
    path.write_text("{not json")
    assert cli_main(["analyse", str(path)]) == 2
    assert "cannot read" in capsys.readouterr().err
