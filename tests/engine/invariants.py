"""The random-play invariant suite every ruleset runs (see test_invariants.py).

Each check plays random games through the engine contract only, so a new ruleset
gets the whole suite by being registered.
"""

from __future__ import annotations

import json

import pytest

from engine.core.errors import IllegalAction
from engine.core.rng import Rng, derive_seed
from engine.core.ruleset import Ruleset

MAX_STEPS = 200_000


def play_random(ruleset: Ruleset, players: int, seed: int, options: dict | None = None, on_step=None):
    """Play a random game; return (final state, action log, event log)."""
    state = ruleset.new_game(players, options, seed)
    rng = Rng(derive_seed(seed, 99))
    bot = ruleset.bot("random")
    log: list[tuple[int, dict]] = []
    events: list[dict] = []
    for _ in range(MAX_STEPS):
        decisions = ruleset.pending(state)
        if not decisions:
            break
        decision = rng.choice(decisions)
        action = bot.act(None, decision, rng)
        if on_step is not None:
            on_step(state, decisions)
        events.extend(e.to_dict() for e in ruleset.apply(state, decision.seat, action))
        log.append((decision.seat, action))
    else:
        pytest.fail(f"{ruleset.id} seed {seed}: no end after {MAX_STEPS} steps")
    assert ruleset.result(state) is not None, "no decisions pending but no result"
    return state, log, events


def replay(ruleset: Ruleset, players: int, seed: int, log, options: dict | None = None):
    state = ruleset.new_game(players, options, seed)
    for seat, action in log:
        ruleset.apply(state, seat, action)
    return state


def assert_round_trip(ruleset: Ruleset, state) -> None:
    data = ruleset.to_dict(state)
    text = json.dumps(data)
    assert ruleset.from_dict(json.loads(text)) == state


def assert_every_option_applies(ruleset: Ruleset, state, decisions, limit: int = 12) -> None:
    for decision in decisions:
        for action in decision.options[:limit]:
            trial = ruleset.copy(state)
            ruleset.apply(trial, decision.seat, action)


def assert_illegal_rejected(ruleset: Ruleset, state, decisions, players: int) -> None:
    before = ruleset.to_dict(state)
    pending_seats = {d.seat for d in decisions}
    idle = [seat for seat in range(players) if seat not in pending_seats]
    if idle:
        with pytest.raises(IllegalAction) as caught:
            ruleset.apply(state, idle[0], decisions[0].options[0])
        assert caught.value.reason == "not_your_turn"
    with pytest.raises(IllegalAction) as caught:
        ruleset.apply(state, decisions[0].seat, {"type": "no_such_action"})
    assert caught.value.reason == "invalid_action"
    offered = {o["type"] for d in decisions if d.seat == decisions[0].seat for o in d.options}
    for action_type, schema in ruleset.action_schemas.items():
        if action_type in offered:
            continue
        required = [name for name, f in schema().fields.items() if f.required and name != "type"]
        if required:
            continue
        with pytest.raises(IllegalAction) as caught:
            ruleset.apply(state, decisions[0].seat, {"type": action_type})
        assert caught.value.reason in {"action_not_allowed", "option_not_allowed"}
        break
    assert ruleset.to_dict(state) == before, "a rejected action changed the state"


def assert_views_hide_secrets(ruleset: Ruleset, state, players: int, rng: Rng) -> None:
    for seat in [None, *range(players)]:
        other = ruleset.resample_hidden(state, seat, rng)
        assert ruleset.view(other, seat) == ruleset.view(state, seat), f"view of seat {seat} leaks"
        json.dumps(ruleset.view(state, seat))
