"""``rulehouse simulate`` against a service over HTTP (``--url``), failures as one line, and the plot
of a game of fixed length."""

from __future__ import annotations

import json

from tests.processes import run_cli
from tests.sdk.conftest import serving

ARGS = ["simulate", "monopoly-cars2", "--games", "40", "--players", "3", "--seed", "9", "--json"]


def test_simulate_on_a_remote_service_prints_the_in_process_numbers(redis_db_url, workers):
    workers.start(1)
    in_process = run_cli(*ARGS, redis_url=redis_db_url)
    with serving({"REDIS_URL": redis_db_url}) as url:
        remote = run_cli(*ARGS, "--url", url, "--chunk-size", "20", redis_url="")
    assert in_process.returncode == 0, in_process.stderr
    assert remote.returncode == 0, remote.stderr
    expected, got = json.loads(in_process.stdout), json.loads(remote.stdout)
    for timing in ("seconds", "games_per_s"):
        expected.pop(timing), got.pop(timing)
    assert got == expected


def test_a_request_the_remote_service_refuses_is_one_line(redis_db_url):
    with serving({"REDIS_URL": redis_db_url}) as url:
        result = run_cli("simulate", "monopoly-cars2", "--games", "0", "--url", url, redis_url="")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and "/games" in result.stderr
    assert result.stderr.count("\n") == 1, result.stderr


def one_line_failure(result, *expected: str) -> None:
    assert result.returncode == 1, (result.returncode, result.stderr)
    assert "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("rulehouse: "), result.stderr
    assert all(text in result.stderr for text in expected), result.stderr


def test_an_unreachable_redis_is_one_line():
    result = run_cli("simulate", "monopoly-cars2", "--games", "5", "--queue", "--redis-url", "redis://127.0.0.1:1/0",
                     redis_url="")
    one_line_failure(result, "cannot reach Redis", "127.0.0.1:1")
    one_line_failure(run_cli("worker", "--burst", "--redis-url", "redis://127.0.0.1:1/0", redis_url=""),
                     "cannot reach Redis")


def test_an_unreachable_service_is_one_line():
    one_line_failure(run_cli("simulate", "monopoly-cars2", "--games", "5", "--url", "http://127.0.0.1:1",
                             redis_url=""), "cannot reach the service at http://127.0.0.1:1")
    bad = run_cli("simulate", "monopoly-cars2", "--games", "5", "--url", "127.0.0.1:8000", redis_url="")
    assert bad.returncode == 2 and "is not an http:// or https:// URL" in bad.stderr and "Traceback" not in bad.stderr


def test_the_simulate_table_shows_the_seats_then_the_turn_order_and_the_first_movers_edge():
    from api.simulations.table import format_table
    from engine.simulate import simulate

    stats = simulate("monopoly-cars2", 300, 4, ["heuristic"], seed=7512)
    lines = format_table(stats).splitlines()
    seats = [line.split() for line in lines[2:6]]
    assert [int(row[-1]) for row in seats] == stats["positions"]["first_movers"]  # "moved first"
    assert [float(row[3]) for row in seats] == [round(r, 3) for r in stats["win_rates"]]
    assert lines[6].startswith("turn order")
    orders = [line.split("  ")[0].strip() for line in lines[7:11]]
    assert orders == ["1st (first mover)", "2nd", "3rd", "4th"]
    first = stats["positions"]["win_rates"][0]
    assert lines[7].split()[4] == f"{first:.3f}"
    assert lines[11].startswith(f"first mover's edge {first - 0.25:+.3f} [")


def test_a_result_of_a_service_before_turn_order_still_prints_and_plots_its_seats():
    from api.simulations.plot import build_figure
    from api.simulations.table import format_table
    from engine.simulate import simulate

    stats = simulate("whipcash", 20, 2, ["random"], seed=7513)
    del stats["positions"]  # what `rulehouse simulate --url` reads from a service of the release before
    lines = format_table(stats).splitlines()
    assert [float(line.split()[3]) for line in lines[2:4]] == [round(r, 3) for r in stats["win_rates"]]
    assert lines[4].endswith("(over the 0 games that counted it)")
    assert [patch.get_height() for patch in build_figure(stats).axes[0].patches] == stats["win_rates"]


def test_the_plot_of_a_game_of_fixed_length_shows_the_scores():
    from api.simulations.plot import build_figure
    from engine.simulate import simulate

    stats = simulate("cash-n-guns", 60, 4, ["random"], seed=3)
    assert len(stats["turns"]["histogram"]) == 1  # every game: 8 rounds
    figure = build_figure(stats)
    positions = figure.axes[1]  # wins by turn order beside the seats': the first mover leftmost
    assert [patch.get_height() for patch in positions.patches] == stats["positions"]["win_rates"]
    assert [t.get_text() for t in positions.get_xticklabels()] == ["1st\n(first mover)", "2nd", "3rd", "4th"]
    scores = figure.axes[2]
    assert scores.get_xlabel() == "final score (every seat)"
    assert sum(patch.get_height() for patch in scores.patches) == 60 * 4
    assert len(scores.patches) > 5

    varied = build_figure(simulate("monopoly-cars2", 60, 2, ["random"], seed=3))
    lengths = varied.axes[2]
    assert lengths.get_xlabel() == "game length (turns)"
    assert all(float(tick).is_integer() for tick in lengths.get_xticks())


def test_plot_without_matplotlib_is_one_line(monkeypatch, capsys, tmp_path):
    import importlib.util

    from api.cli import main

    find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *args: None if name == "matplotlib" else find_spec(name, *args))
    assert main(["simulate", "cash-n-guns", "--games", "5", "--players", "4", "--plot", str(tmp_path / "p.png")]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == "rulehouse: --plot needs matplotlib: pip install 'rulehouse[plot]'\n"


def test_plot_reports_its_file_on_a_line_of_its_own(capsys, tmp_path):
    from api.cli import main

    plot = tmp_path / "scores.png"
    assert main(["simulate", "cash-n-guns", "--games", "20", "--players", "4", "--json", "--plot", str(plot)]) == 0
    captured = capsys.readouterr()
    assert captured.out.endswith("}\n") and captured.err == f"plot written to {plot}\n"
    assert plot.read_bytes()[:4] == b"\x89PNG"
