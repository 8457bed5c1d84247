"""The engine core on its own: RNG, decisions, serialization, statistics."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from engine.core.decisions import Decision
from engine.core.errors import IllegalAction
from engine.core.registry import get_ruleset
from engine.core.result import Result, best_seats
from engine.core.rng import GOLDEN_GAMMA, MASK64, Rng, derive_seed, splitmix64
from engine.core.serial import from_jsonable, to_jsonable
from engine.simulate import GameOutcome, Tally, _percentile, play_chunk, seat_bots, simulate, wilson_interval


def test_rng_is_deterministic_and_resumable():
    a, b = Rng(42), Rng(42)
    first = [a.randint(1, 6) for _ in range(50)]
    assert first == [b.randint(1, 6) for _ in range(50)]
    resumed = Rng.from_dict(a.to_dict())
    assert [a.next64() for _ in range(5)] == [resumed.next64() for _ in range(5)]
    assert first != [Rng(43).randint(1, 6) for _ in range(50)]


def test_rng_draws_are_splitmix64_of_seed_and_counter():
    """``next64`` and ``randint`` write ``splitmix64`` out for speed: they must draw exactly what it gives."""

    def reference(seed: int, counter: int) -> int:
        return splitmix64(seed ^ ((counter * GOLDEN_GAMMA) & MASK64))

    seed = 0xDEADBEEFCAFEF00D
    rng = Rng(seed, 7)
    assert [rng.next64() for _ in range(50)] == [reference(seed, counter) for counter in range(8, 58)]
    spans = [1, 2, 6, 52, 1000, 2**40, 2**64 - 1]
    drawn = [rng.randint(-3, -3 + span - 1) for span in spans]
    assert drawn == [-3 + ((reference(seed, 58 + i) * span) >> 64) for i, span in enumerate(spans)]
    assert rng.counter == 57 + len(spans)


def test_quick_shuffle_is_a_uniform_permutation():
    rng = Rng(3)
    counts: dict[tuple, int] = {}
    for _ in range(6000):
        items = ["a", "b", "c"]
        rng.quick_shuffle(items)
        counts[tuple(items)] = counts.get(tuple(items), 0) + 1
    assert len(counts) == 6 and all(880 < n < 1120 for n in counts.values())
    deck = list(range(60))
    rng.quick_shuffle(deck)
    assert sorted(deck) == list(range(60)) and deck != list(range(60))
    first = [0] * 60
    for _ in range(3000):
        deck = list(range(60))
        rng.quick_shuffle(deck)
        first[deck[0]] += 1
    assert max(first) < 90 and min(first) > 15  # about 50 each
    single = [7]
    rng.quick_shuffle(single)
    assert single == [7]


def test_rng_randint_covers_the_range_evenly():
    rng = Rng(7)
    counts = [0] * 6
    for _ in range(60_000):
        counts[rng.die() - 1] += 1
    assert all(9_500 < c < 10_500 for c in counts)
    with pytest.raises(ValueError):
        rng.randint(3, 2)


def test_shuffle_is_a_permutation_and_seeds_differ():
    items = list(range(20))
    Rng(1).shuffle(items)
    assert sorted(items) == list(range(20)) and items != list(range(20))
    assert derive_seed(5, 1) != derive_seed(5, 2) != derive_seed(6, 1)


def test_decision_allows_exact_options_and_ranges():
    decision = Decision(
        seat=0,
        kind="deposit",
        options=[{"type": "deposit", "amount": 0, "city": 3}, {"type": "deposit", "amount": 500, "city": 3}],
        ranges={"deposit": {"amount": [0, 500]}},
    )
    assert decision.allows({"type": "deposit", "amount": 250, "city": 3})
    assert not decision.allows({"type": "deposit", "amount": 501, "city": 3})
    assert not decision.allows({"type": "deposit", "amount": True, "city": 3})
    assert not decision.allows({"type": "deposit", "amount": 250, "city": 4})
    assert not decision.allows({"type": "roll"})
    assert decision.default_action() == decision.options[0]


def test_illegal_action_carries_reason_and_fields():
    error = IllegalAction("not_your_turn", "wait", fields={"seat": ["busy"]})
    assert error.to_dict() == {"reason": "not_your_turn", "message": "wait", "fields": {"seat": ["busy"]}}


@dataclass(slots=True)
class Inner:
    cards: list[int] = field(default_factory=list)
    note: str | None = None


@dataclass(slots=True)
class Outer:
    rng: Rng
    turn: int
    inner: list[Inner]
    by_name: dict[str, Inner]


def test_serialization_rebuilds_nested_dataclasses():
    state = Outer(Rng(3, 9), 4, [Inner([1, 2], "x"), Inner()], {"a": Inner([5])})
    data = to_jsonable(state)
    assert data["rng"] == {"seed": 3, "counter": 9}
    assert from_jsonable(Outer, data) == state


def test_tally_merges_to_the_same_numbers_as_one_run():
    outcomes = [GameOutcome(Result([i % 3], [0, 1, 2], [i, 0, 1], "x"), 10 + i) for i in range(9)]
    outcomes.append(GameOutcome(Result([0, 1], [0, 1, 2], [5, 5, 0], "tie", turn_cap_hit=True), 50))
    whole = Tally(3, ["random"] * 3)
    for outcome in outcomes:
        whole.add(outcome)
    left, right = Tally(3, ["random"] * 3), Tally(3, ["random"] * 3)
    for outcome in outcomes[:4]:
        left.add(outcome)
    for outcome in outcomes[4:]:
        right.add(outcome)
    left.merge(Tally.from_dict(right.to_dict()))
    assert left.to_dict() == whole.to_dict()
    assert whole.draws == 1 and whole.turn_cap_hits == 1 and sum(whole.wins) == 9


def test_simulation_results_say_which_rules_version_they_were_played_under():
    ruleset = get_ruleset("whipcash")
    assert ruleset.metadata()["rules_version"] == ruleset.rules_version
    stats = simulate("whipcash", 3, 2, ["random"], None, 1)
    assert stats["rules_version"] == ruleset.rules_version
    tally = play_chunk("whipcash", 2, ["random"], None, 1, 0, 2)
    assert Tally.from_dict(tally.to_dict()).rules_version == ruleset.rules_version
    older = Tally(2, ["random"] * 2, rules_version=ruleset.rules_version - 1)
    with pytest.raises(ValueError, match="rules version"):
        older.merge(tally)


def test_percentiles_and_wilson_interval():
    histogram = {10: 5, 20: 4, 30: 1}
    assert _percentile(histogram, 0.5) == 10
    assert _percentile(histogram, 0.9) == 20
    assert _percentile(histogram, 1.0) == 30
    low, high = wilson_interval(50, 100)
    assert low < 0.5 < high and round(high - 0.5, 3) == round(0.5 - low, 3)
    assert wilson_interval(0, 0) == [0.0, 1.0]


def test_seat_bots_repeats_the_last_bot():
    assert seat_bots(["heuristic", "random"], 4) == ["heuristic", "random", "random", "random"]
    assert seat_bots([], 2) == ["random", "random"]


def test_parse_action_rejects_any_malformed_type_with_invalid_action():
    from engine.core.registry import all_rulesets

    ruleset = next(iter(all_rulesets().values()))
    for body in ({"type": {}}, {"type": ["roll"]}, {"type": None}, {}, [], "roll"):
        with pytest.raises(IllegalAction) as caught:
            ruleset.parse_action(body)
        assert caught.value.reason == "invalid_action"


def test_best_seats_keeps_every_seat_tied_with_the_best_key_in_the_given_order():
    scores = {0: (5, 1), 1: (7, 0), 2: (7, 0), 3: (7, -1)}
    assert best_seats([2, 0, 1, 3], key=scores.__getitem__) == [2, 1]
    assert best_seats(range(4), key=lambda seat: scores[seat][0]) == [1, 2, 3]


def test_score_buckets_keep_two_significant_digits_and_count_every_seat():
    from engine.simulate import score_bucket, simulate

    assert [score_bucket(s) for s in (0, 7, 57, 99, 100, 1234, 57_500, 123_456, -4321)] == [
        0, 7, 57, 99, 100, 1200, 57_000, 120_000, -4400]
    stats = simulate("cash-n-guns", 30, 4, ["random"], seed=1)
    assert sum(stats["score_histogram"].values()) == 30 * 4
