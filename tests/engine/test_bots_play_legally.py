"""Bots play only what they are offered, in every ruleset.

Simulations and the search's rollouts apply bot moves unchecked (``check=False``) for speed; these
tests are what lets them. Every bot of every ruleset (``random``, the heuristic, the lowest search
level) plays seeded games at mixed tables with every move checked by the rules, and the state's own
invariants (``Ruleset.state_problems``, the money in play) hold after every action. Beside the moves
played, the quick bots are asked for their answer to every decision met (any seat's), which reaches
the rare positions (a hand of Bang! cards only at a clip) far sooner than playing alone.
"""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalAction
from engine.core.registry import all_rulesets
from engine.core.rng import Rng, derive_seed
from tests.engine.invariants import MAX_STEPS, assert_sound, join_at_random

RULESETS = sorted(all_rulesets())
SEARCH_BOT = "mcts-1"
#: games per ruleset for the quick bots (short games get more), and for the search at its lowest level
GAMES = {"cash-n-guns": 40, "whipcash": 60, "monopoly-cars2": 150, "hitchiker": 6}
SEARCH_GAMES = {"cash-n-guns": 1, "whipcash": 3, "monopoly-cars2": 4, "hitchiker": 2}
#: the search's games end at this turn cap (its moves cost a few thousand engine actions each)
SEARCH_TURN_CAP = {"cash-n-guns": None, "whipcash": 40, "monopoly-cars2": 60, "hitchiker": 12}
#: the chance of a player joining before each action (rulesets that take players mid-game)
JOINS = 0.004


def bots_of(ruleset) -> list[str]:
    return ["random", *sorted(ruleset.bots), SEARCH_BOT]


def cases() -> list[tuple[str, str]]:
    return [(ruleset_id, bot) for ruleset_id in RULESETS for bot in bots_of(all_rulesets()[ruleset_id])]


def assert_legal(ruleset, state, decision, action, who: str) -> None:
    try:
        answered = ruleset.check(state, decision.seat, ruleset.parse_action(action))
    except IllegalAction as refused:
        pytest.fail(f"{ruleset.id}: {who} answered seat {decision.seat}'s {decision.kind} {decision.options} "
                    f"with {action}: {refused.reason}")
    assert answered.kind == decision.kind, f"{who} answered {decision.kind} with a move of {answered.kind}"


def play_checked(ruleset, tested: str, players: int, seed: int, options: dict | None, probes: list[str]) -> int:
    """A game with ``tested`` in every other seat (the others: the quick bots in turn), every move checked;
    the ``probes`` bots answer every decision met too. The number of moves ``tested`` made."""
    state = ruleset.new_game(players, options, seed)
    money = ruleset.money_in_play(state)
    others = [name for name in ("random", *sorted(ruleset.bots)) if name != tested] or ["random"]
    names = [tested if seat % 2 == seed % 2 else others[seat % len(others)] for seat in range(players)]
    seat_bots = [ruleset.bot(name) for name in names]
    probe_bots = [(name, ruleset.bot(name)) for name in probes]
    rng, probe_rng = Rng(derive_seed(seed, 5)), Rng(derive_seed(seed, 6))
    moves = 0
    for step in range(MAX_STEPS):
        if join_at_random(ruleset, state, rng, JOINS, tested) is not None:
            names.append(tested)
            seat_bots.append(ruleset.bot(tested))
        decisions = ruleset.pending(state)
        if not decisions:
            break
        for decision in decisions:
            for name, bot in probe_bots:
                assert_legal(ruleset, state, decision, bot.choose(state, decision, probe_rng), f"{name} (asked)")
        decision = rng.choice(decisions)
        action = seat_bots[decision.seat].choose(state, decision, rng)
        assert_legal(ruleset, state, decision, action, names[decision.seat])
        ruleset.apply(state, decision.seat, action)
        moves += names[decision.seat] == tested
        assert_sound(ruleset, state, money, f"seed {seed} step {step}, after {names[decision.seat]}'s {action}")
    else:
        pytest.fail(f"{ruleset.id} seed {seed}: no end after {MAX_STEPS} steps")
    assert ruleset.result(state) is not None
    return moves


@pytest.mark.parametrize(("ruleset_id", "bot"), cases())
def test_every_bot_plays_only_moves_it_is_offered_and_keeps_the_state_sound(ruleset_id, bot):
    ruleset = all_rulesets()[ruleset_id]
    searching = bot == SEARCH_BOT
    counts = list(range(ruleset.min_players, ruleset.max_players + 1))
    games = SEARCH_GAMES[ruleset_id] if searching else GAMES[ruleset_id]
    options = {"turn_cap": SEARCH_TURN_CAP[ruleset_id]} if searching and SEARCH_TURN_CAP[ruleset_id] else None
    probes = [] if searching else [name for name in ("random", *sorted(ruleset.bots)) if name != bot]
    moves = sum(play_checked(ruleset, bot, counts[game % len(counts)], derive_seed(4242, game), options, probes)
                for game in range(games))
    assert moves >= games  # the bot under test did play
