"""What a seat whose time ran out plays, in every ruleset (``Ruleset.timeout_action``).

Seeded games where one seat is absent (every one of its decisions is played by its timeout) and the
others play random or heuristic bots; at every pending decision of every seat, ``TimedOutSeats``
checks the timeout's move (legal, the published default, not self-destructive where an alternative
exists, by ``timeout_stakes``); the secret defaults seen are then drawn many times with a fixed seed
and compared with their documented odds. The rules docs must say what a timeout plays for every kind.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from engine.core.registry import all_rulesets
from engine.core.rng import Rng, derive_seed
from tests.engine.invariants import MAX_STEPS, TimedOutSeats, assert_sound, join_at_random
from tests.engine.timeout_stakes import STAKES

RULES_DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"
RULESETS = sorted(all_rulesets())
#: every decision kind of each ruleset: the absent seats must meet each one
KINDS = {
    "cash-n-guns": {"choose_bullet", "aim", "privilege", "retarget", "courage", "take_loot", "clip_discard"},
    "whipcash": {"roll", "escape_pit", "anti_fender_bender", "send_to_pit"},
    "monopoly-cars2": {"turn", "jail", "chance_property", "chance_move"},
    "hitchiker": {"pick_hometown", "roll", "deposit", "buy_hometown", "black_market", "deal_roll", "deal_choice",
                  "sell", "go_home", "bet", "play_hand"},
}
#: the kinds where a careless default would hurt, and the games must show the default avoiding it
BINDING = {
    "cash-n-guns": set(),
    "whipcash": {"anti_fender_bender"},
    "monopoly-cars2": {"chance_property", "chance_move"},
    "hitchiker": {"deal_choice", "deposit"},
}
#: games per ruleset (short games get more, so the rare choices come up), and the chance of a join a step
GAMES = {"cash-n-guns": 16, "whipcash": 40, "monopoly-cars2": 160, "hitchiker": 8}
JOINS = 0.004
#: draws per secret decision's odds, and how far (in standard deviations) a count may stray
DRAWS = 4000
TOLERANCE_SIGMAS = 5


def play_with_an_absent_seat(ruleset, players: int, seed: int, bots: list[str], absent: int, on_step) -> None:
    """One game: ``absent``'s every decision is its timeout; the others play ``bots`` (joiners: random)."""
    state = ruleset.new_game(players, None, seed)
    money = ruleset.money_in_play(state)
    rng = Rng(derive_seed(seed, 23))
    seat_bots = [ruleset.bot(name) for name in bots]
    for step in range(MAX_STEPS):
        if join_at_random(ruleset, state, rng, JOINS) is not None:
            seat_bots.append(ruleset.bot("random"))
        decisions = ruleset.pending(state)
        if not decisions:
            break
        on_step(state, decisions)
        decision = rng.choice(decisions)
        if decision.seat == absent:
            action = ruleset.timeout_action(state, decision, rng)
        else:
            action = seat_bots[decision.seat].choose(state, decision, rng)
        ruleset.apply(state, decision.seat, action)
        assert_sound(ruleset, state, money, f"seed {seed} step {step}")
    else:
        pytest.fail(f"{ruleset.id} seed {seed}: no end after {MAX_STEPS} steps")
    assert ruleset.result(state) is not None


def game_plan(ruleset) -> list[tuple[int, list[str], int, int]]:
    """(players, bots, absent seat, seed) per game: every player count in turn, heuristic bots every other game."""
    counts = list(range(ruleset.min_players, ruleset.max_players + 1))
    plan = []
    for game in range(GAMES[ruleset.id]):
        players = counts[game % len(counts)]
        bots = ["heuristic" if game % 2 and "heuristic" in ruleset.bot_names() else "random"] * players
        plan.append((players, bots, game % players, derive_seed(2323, game)))
    return plan


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_a_timed_out_seat_plays_a_legal_sensible_default_at_every_decision_kind(ruleset_id):
    ruleset = all_rulesets()[ruleset_id]
    assert ruleset_id in STAKES, "say what a seat has at stake in this game: tests/engine/timeout_stakes.py"
    checker = TimedOutSeats(ruleset, STAKES[ruleset_id], Rng(derive_seed(2323, 1)))
    for players, bots, absent, seed in game_plan(ruleset):
        play_with_an_absent_seat(ruleset, players, seed, bots, absent, checker)
    assert checker.kinds_checked == KINDS[ruleset_id]
    assert BINDING[ruleset_id] <= set(checker.bites), f"never met a choice that tests the defaults: {checker.bites}"
    assert_secret_draws_keep_their_odds(ruleset, checker)


def assert_secret_draws_keep_their_odds(ruleset, checker: TimedOutSeats) -> None:
    """Each secret decision's odds met in the games, drawn ``DRAWS`` times from a fixed seed: every count
    within ``TOLERANCE_SIGMAS`` standard deviations of its expectation (deterministic: it cannot flake)."""
    rng = Rng(derive_seed(2323, 2))
    for kind, odds in sorted(checker.secret_samples):
        state, decision = checker.secret_samples[(kind, odds)]
        counts = dict.fromkeys((key for key, _ in odds), 0)
        for _ in range(DRAWS):
            drawn = tuple(sorted(ruleset.timeout_action(state, decision, rng).items()))
            assert drawn in counts, f"{ruleset.id} {kind}: drew {drawn}, which the odds {odds} never give"
            counts[drawn] += 1
        for key, chance in odds:
            expected = DRAWS * chance
            sigma = math.sqrt(DRAWS * chance * (1 - chance))
            assert abs(counts[key] - expected) <= TOLERANCE_SIGMAS * sigma + 1, \
                f"{ruleset.id} {kind}: {dict(key)} drawn {counts[key]} times in {DRAWS}, expected {float(expected):.0f}"


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_the_rules_doc_says_what_a_timed_out_seat_plays_for_every_decision_kind(ruleset_id):
    text = (RULES_DOCS / f"{ruleset_id}.md").read_text()
    section = re.search(r"^## What a timed-out seat plays\n(.*?)(?=^## )", text, re.S | re.M)
    assert section, f"docs/rules/{ruleset_id}.md has no section 'What a timed-out seat plays'"
    listed = set(re.findall(r"^\| `([a-z_]+)` \|", section.group(1), re.M))
    assert listed == KINDS[ruleset_id]
