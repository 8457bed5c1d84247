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


def _seen_by(ruleset: Ruleset, state, events, seat: int) -> tuple[dict, list[dict]]:
    """What ``seat`` sees after an action: its view and the events visible to it."""
    return ruleset.view(state, seat), [event.to_dict() for event in events if event.visible(seat)]


def _outcome(ruleset: Ruleset, state, seat: int, action: dict):
    """The state after ``action`` and its events, or ``None`` when the action is not legal in ``state``."""
    after = ruleset.copy(state)
    try:
        ruleset.check(after, seat, action)
    except IllegalAction:
        return None
    return after, ruleset.apply(after, seat, action, check=False)


class OutcomeSecrecy:
    """Actions may not tell a seat what it cannot see (hidden-information check, beside the views).

    For an action whose real outcome draws no chance (the RNG and the turn stay put), every other
    seat ``s`` compares what it sees of the outcome in the real game and in worlds
    ``resample_hidden(state, s)`` that ``s`` cannot tell apart from it:

    - wherever ``s``'s views after the action agree, the events ``s`` is shown must agree too (an
      event may not name a face-down card, a secret choice...);
    - for a sequential decision (a kind never pending for two seats at once: a simultaneous
      choice's last answer legitimately reveals everyone's), the views must agree too, unless the
      outcome also changes in worlds that keep everything the actor knows (``resample_hidden(state,
      actor)``: a card drawn from a face-down pile, say). So the public shape of a move (the next
      decision, the phase, the events) cannot depend on the actor's own secret hand.
    """

    def __init__(self, ruleset: Ruleset, players: int, rng: Rng, tries: int = 3, options_limit: int = 12) -> None:
        self.ruleset = ruleset
        self.options_limit = options_limit
        self.players = players
        self.rng = rng
        self.tries = tries
        self.simultaneous_kinds: set[str] = set()

    def __call__(self, state, decisions) -> None:
        seats_by_kind: dict[str, set[int]] = {}
        for decision in decisions:
            seats_by_kind.setdefault(decision.kind, set()).add(decision.seat)
        self.simultaneous_kinds.update(kind for kind, seats in seats_by_kind.items() if len(seats) > 1)
        for decision in decisions:
            # Every option of a sequential decision (its public outcome is checked in full), the default
            # of a simultaneous one.
            if decision.kind in self.simultaneous_kinds:
                self.check_action(state, decision, decision.default_action())
            else:
                for action in decision.options[:self.options_limit]:
                    self.check_action(state, decision, action)

    def check_action(self, state, decision, action: dict) -> None:
        ruleset, actor = self.ruleset, decision.seat
        real_after, real_events = _outcome(ruleset, state, actor, action)
        if (real_after.rng.seed, real_after.rng.counter) != (state.rng.seed, state.rng.counter) or \
                ruleset.turns(real_after) != ruleset.turns(state):
            return  # chance was drawn: the worlds would differ by it
        sequential = decision.kind not in self.simultaneous_kinds and self._actor_secrets_decide(
            state, actor, action, real_after)
        for seat in range(self.players):
            if seat == actor:
                continue
            real = _seen_by(ruleset, real_after, real_events, seat)
            for _ in range(self.tries):
                outcome = _outcome(ruleset, ruleset.resample_hidden(state, seat, self.rng), actor, action)
                if outcome is None:
                    continue
                other = _seen_by(ruleset, *outcome, seat)
                where = f"{ruleset.id}: {action} by seat {actor} tells seat {seat}"
                if sequential:
                    assert other[0] == real[0], f"{where} something hidden (its view after it depends on it)"
                if other[0] == real[0]:
                    assert other[1] == real[1], f"{where} something hidden (in its events)"

    def _actor_secrets_decide(self, state, actor: int, action: dict, real_after) -> bool:
        """Whether the public outcome (the spectator's view) stays the same in worlds that keep what
        the actor knows (so only what the actor knows, its own secrets included, could change it)."""
        ruleset = self.ruleset
        public = ruleset.view(real_after, None)
        for _ in range(self.tries):
            outcome = _outcome(ruleset, ruleset.resample_hidden(state, actor, self.rng), actor, action)
            if outcome is None or ruleset.view(outcome[0], None) != public:
                return False
        return True
