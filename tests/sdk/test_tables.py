"""A person among bots on real workers: decision preconditions do not race the bots."""

from __future__ import annotations

from tests.sdk.test_examples import load_example


def test_a_scripted_human_among_three_bots_gets_no_stale_rejection(base_url, checker, workers):
    workers.start(2)
    example = load_example("cash_n_guns_with_bots")
    moves = stale = 0
    for seed in (1, 2, 3):
        final = example.main(base_url, seed=seed, think=(0.05, 0.3), session=checker.session(), quiet=True)
        assert final["status"] == "finished"
        moves, stale = moves + final["moves"], stale + final["stale"]
    assert moves > 30
    assert stale == 0
