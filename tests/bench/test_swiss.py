"""``bench/swiss.py``: a tiny sweep counts its rounds and finds no avoidable repeat; a missing baseline
revision is skipped, not fatal."""

from __future__ import annotations

import random

from tests.bench import load_bench

bench = load_bench("swiss")


def test_a_tiny_sweep_counts_every_round_and_repeats_nobody_avoidably():
    stats = bench.new_stats()
    bench.play(9, 3, 4, random.Random(5), None, stats)
    assert stats["rounds"] == 4 and stats["zero"] + stats["forced"] == 3
    assert stats["zero_new"] == 0, "a round where a plan without repeats exists repeated"
    assert stats["fewest"] == 4 and not stats["unproven"]


def test_a_missing_baseline_revision_is_none():
    assert bench.baseline_pairing("0" * 40) is None
