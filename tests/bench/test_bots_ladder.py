"""``bench/bots.py --ladder``: its structure on a tiny local run, the same numbers in a process pool
and on a service's simulation workers, and the section it writes into docs/bots.md."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.simulate import simulate
from tests.bench import load_bench

ROOT = Path(__file__).resolve().parents[2]
RULESET = "hitchiker"
BOTS = ["random", "heuristic"]
SEED = 11


bench = load_bench("bots")


def without_timings(ladder: dict) -> dict:
    copied = json.loads(json.dumps(ladder))
    copied.pop("where")
    for entry in copied["rulesets"]:
        for pair in entry["pairings"]:
            pair.pop("seconds")
            pair.pop("games_per_s")
    return copied


@pytest.fixture(scope="module")
def local_ladder() -> dict:
    runner = bench.LocalRunner(1)
    try:
        return bench.run_ladder(runner, [RULESET], BOTS, 8, SEED)
    finally:
        runner.close()


def test_a_tiny_local_ladder_rotates_seats_and_adds_up(local_ladder):
    assert (local_ladder["players"], local_ladder["games_per_lineup"], local_ladder["games_per_pairing"]) == (4, 1, 8)
    [entry] = local_ladder["rulesets"]
    assert entry["ruleset"] == RULESET
    assert [bot["bot"] for bot in entry["bots"]] == BOTS
    assert entry["bots"][0]["elo"] == 0  # random anchors the scale
    [pair] = entry["pairings"]
    assert pair["bots"] == BOTS and pair["games"] == 8
    for lone in BOTS:
        alone = [lineup for lineup in pair["lineups"] if lineup["lone"] == lone]
        assert sorted(lineup["seat"] for lineup in alone) == [0, 1, 2, 3]
        assert {lineup["games"] for lineup in alone} == {1}
        for lineup in alone:
            assert [bot == lone for bot in lineup["bots"]] == [seat == lineup["seat"] for seat in range(4)]
    records = pair["records"]
    assert records["random"]["seat_games"] == records["heuristic"]["seat_games"] == 16
    assert records["random"]["wins"] + records["heuristic"]["wins"] + pair["draws"] == 8
    assert pair["verdict"] in ("overlap", "heuristic above random", "random above heuristic")


def test_each_lineup_is_the_simulation_of_its_seed(local_ladder):
    [pair] = local_ladder["rulesets"][0]["pairings"]
    for lineup in pair["lineups"][::3]:
        alone = simulate(RULESET, 1, 4, lineup["bots"], None, SEED)
        assert (alone["wins"], alone["draws"]) == (lineup["wins"], lineup["draws"])


def test_a_process_pool_gives_the_same_numbers(local_ladder):
    runner = bench.LocalRunner(2)
    try:
        pooled = bench.run_ladder(runner, [RULESET], BOTS, 8, SEED)
    finally:
        runner.close()
    assert without_timings(pooled) == without_timings(local_ladder)


def test_the_command_line_prints_the_ladder_as_json(capsys, local_ladder):
    bench.main(["--ladder", "--local", "--jobs", "1", "--ruleset", RULESET, "--bots", ",".join(BOTS),
                "--games", "8", "--seed", str(SEED), "--json"])
    printed = json.loads(capsys.readouterr().out)
    assert without_timings(printed) == without_timings(local_ladder)


def test_the_command_line_refuses_an_unknown_bot(capsys):
    with pytest.raises(SystemExit):
        bench.main(["--ladder", "--local", "--ruleset", RULESET, "--bots", "random,no-such-bot"])
    assert "no bot no-such-bot" in capsys.readouterr().err


def test_each_rulesets_docs_section_is_replaced_between_its_markers(tmp_path, local_ladder):
    assert bench.BEGIN_MARK in bench.DOCS.read_text() and bench.END_MARK in bench.DOCS.read_text()
    page = tmp_path / "bots.md"
    other_begin, other_end = bench.ruleset_marks("other-game")
    page.write_text(f"# Bots\n\nbefore\n\n{bench.BEGIN_MARK}\n{other_begin}\nkept\n{other_end}\n\n"
                    f"{bench.END_MARK}\n\nafter\n")
    blocks = bench.docs_blocks(local_ladder, "bench/bots.py --ladder", "2026-01-01", (0.5, 1.0), 3.0)
    assert list(blocks) == [RULESET]
    bench.write_docs(blocks, page)
    first = page.read_text()
    blocks[RULESET] = blocks[RULESET].replace("2026-01-01", "2026-02-02")
    bench.write_docs(blocks, page)
    text = page.read_text()
    assert text.startswith("# Bots\n\nbefore\n\n") and text.endswith("\n\nafter\n")
    assert "kept" in text and text.index("kept") < text.index(f"### {RULESET}"), "another ruleset's section stays"
    assert text.count(bench.ruleset_marks(RULESET)[0]) == 1 and "2026-01-01" not in text and "2026-02-02" in text
    assert len(text) == len(first)
    assert f"### {RULESET} (rules version" in text and "| random vs heuristic | 8 |" in text


def test_the_service_workers_give_the_same_numbers(redis_db_url, workers, local_ladder):
    from tests.sdk.conftest import serving

    workers.start(1)
    with serving({"REDIS_URL": redis_db_url}) as url:
        runner = bench.ServiceRunner(url, poll_interval=0.05)
        try:
            served = bench.run_ladder(runner, [RULESET], BOTS, 8, SEED)
        finally:
            runner.close()
    assert served["where"] == f"the simulation workers of {url}"
    assert without_timings(served) == without_timings(local_ladder)
