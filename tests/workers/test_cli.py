"""``rulehouse simulate --queue`` and ``--plot``, and what ``rulehouse --help`` says."""

from __future__ import annotations

import json

import pytest

from api.cli import build_parser, main
from tests.processes import run_cli


def test_queued_simulate_prints_the_in_process_json(redis_db_url, workers, tmp_path):
    workers.start(1)
    args = ["simulate", "toy-race", "--games", "600", "--players", "3", "--seed", "4", "--json"]
    in_process = run_cli(*args, redis_url=redis_db_url)
    plot = tmp_path / "wins.png"
    queued = run_cli(*args, "--queue", "--chunk-size", "100", "--plot", str(plot), redis_url=redis_db_url)
    assert in_process.returncode == 0, in_process.stderr
    assert queued.returncode == 0, queued.stderr
    expected, got = json.loads(in_process.stdout), json.loads(queued.stdout)
    assert list(got) == list(expected)
    for timing in ("seconds", "games_per_s"):
        expected.pop(timing), got.pop(timing)
    assert got == expected
    # Not a terminal: no progress bar.
    assert "[#" not in queued.stderr
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_queued_simulate_reports_invalid_requests(redis_db_url):
    result = run_cli("simulate", "toy-race", "--games", "20001", "--chunk-size", "1", "--queue",
                     redis_url=redis_db_url)
    assert result.returncode == 2
    assert "chunk_size" in result.stderr


def test_worker_needs_a_redis(tmp_path):
    result = run_cli("worker", redis_url="", RULEHOUSE_HOME=str(tmp_path))
    assert result.returncode != 0
    assert "REDIS_URL" in result.stderr


def test_progress_bar_only_on_a_terminal(redis_db_url, workers):
    import os
    import pty
    import subprocess
    import sys

    from tests.processes import ROOT

    workers.start(1)
    leader, follower = pty.openpty()
    code = "from tests.workers.toy_race import cli_main; cli_main()"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "REDIS_URL": redis_db_url}
    process = subprocess.Popen(
        [sys.executable, "-c", code, "simulate", "toy-race", "--games", "400", "--queue", "--chunk-size", "100"],
        cwd=ROOT, env=env, stdout=follower, stderr=subprocess.PIPE,
    )
    os.close(follower)
    _, stderr = process.communicate(timeout=60)
    table = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:
            break
        if not chunk:
            break
        table += chunk
    os.close(leader)
    assert process.returncode == 0, stderr
    assert b"[" + b"#" * 30 + b"] 400/400 games" in stderr
    assert b"toy-race: 400 games" in table


def test_help_reads_as_help(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["--help"])
    assert exited.value.code == 0
    text = capsys.readouterr().out
    assert "``" not in text and ":class:" not in text  # no reST from a docstring
    assert text.splitlines()[2].startswith("Rulehouse: rules-as-a-service")
    commands = build_parser()._subparsers._group_actions[0].choices
    for name in commands:
        # A name longer than the help column (train-values) has its help on the next line.
        assert f"\n    {name} " in text or f"\n    {name}\n" in text, name
    assert "examples:" in text and all(len(line) <= 100 for line in text.splitlines())


def test_simulate_names_the_rulesets_and_the_nearest(capsys):
    assert main(["simulate", "hitchhiker", "--games", "1"]) == 2
    error = capsys.readouterr().err
    assert "did you mean 'hitchiker'?" in error and "monopoly-cars2" in error
