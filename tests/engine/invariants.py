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


def play_random(ruleset: Ruleset, players: int, seed: int, options: dict | None = None, on_step=None,
                joins: float = 0.0):
    """Play a random game; return (final state, action log, event log).

    ``joins``: the chance, before each action, that a new player joins the running game (rulesets that
    take players mid-game only, up to their most players); the action log then no longer replays alone.
    """
    state = ruleset.new_game(players, options, seed)
    rng = Rng(derive_seed(seed, 99))
    bot = ruleset.bot("random")
    log: list[tuple[int, dict]] = []
    events: list[dict] = []
    for _ in range(MAX_STEPS):
        joined = join_at_random(ruleset, state, rng, joins)
        if joined:
            events.extend(e.to_dict() for e in joined)
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


def join_at_random(ruleset: Ruleset, state, rng: Rng, chance: float, bot: str | None = None) -> list | None:
    """With ``chance``, a new player (played by ``bot``) joins the running game, if the ruleset takes
    players mid-game and has a seat left; the join's events, or None when nobody joined."""
    if not chance or not ruleset.joins_mid_game or state.players >= ruleset.max_players \
            or ruleset.result(state) is not None or rng.random() >= chance:
        return None
    return ruleset.seat_changed(state, {"seat": state.players, "kind": "seat_joined", "name": "late", "bot": bot})


def assert_sound(ruleset: Ruleset, state, money: int | None, where: str = "") -> None:
    """The state's own invariants (``Ruleset.state_problems``) hold and the money in play is ``money``."""
    problems = ruleset.state_problems(state)
    assert not problems, f"{ruleset.id} {where}: {problems}"
    if money is not None:
        assert ruleset.money_in_play(state) == money, f"{ruleset.id} {where}: money not conserved"


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


class TimedOutSeats:
    """What a seat whose time ran out plays (``Ruleset.timeout_action``), checked at every pending decision.

    ``stakes`` is the test's own account of what a seat has at stake in this game (see
    ``tests/engine/timeout_stakes.py``): the fate of a move (out of the game, won, what of value it lost
    for nothing) and the odds a secret default is drawn with. At each decision:

    - the timeout's move is legal, draws nothing from the game's RNG, and for a non-secret decision is
      exactly the published ``default``, which reads nothing hidden (a world re-dealt from the
      spectator's view publishes the same one);
    - a non-secret default is not self-destructive where an alternative exists. Each offered option (a
      range by its ends) is played on copies of the state: the real one and ``worlds`` more the seat
      cannot tell apart (``resample_hidden``). An outcome is *sure* when it drew no dice and its fate is
      the same in every world. The default must not surely put the seat out while another option keeps
      it in in some world; must surely win whenever another option surely wins; and, sure against sure,
      must not lose more of something while losing no less of anything else (``Fate.lost``, compared
      item by item) than another option;
    - a secret decision's odds (``stakes.secret_odds``) are gathered in ``secret_samples``, one state per
      kind and odds, for the caller's statistical check of the draws.
    """

    def __init__(self, ruleset: Ruleset, stakes, rng: Rng, worlds: int = 2, options_limit: int = 12) -> None:
        self.ruleset = ruleset
        self.stakes = stakes
        self.rng = rng
        self.worlds = worlds
        self.options_limit = options_limit
        self.kinds_checked: set[str] = set()
        #: decision kind -> how many times an alternative would have put the seat out or lost it more
        self.bites: dict[str, int] = {}
        #: (kind, ((action key, probability), ...)) -> (a state, its secret decision) with those odds
        self.secret_samples: dict[tuple, tuple] = {}

    def __call__(self, state, decisions) -> None:
        for decision in decisions:
            self.check(state, decision)

    def check(self, state, decision) -> None:
        ruleset, seat = self.ruleset, decision.seat
        rng_before = (state.rng.seed, state.rng.counter)
        played = ruleset.timeout_action(state, decision, Rng(self.rng.next64()))
        where = f"{ruleset.id}: the timeout of seat {seat}'s {decision.kind}"
        assert (state.rng.seed, state.rng.counter) == rng_before, f"{where} drew from the game's RNG"
        assert decision.allows(ruleset.parse_action(played)), f"{where} plays {played}, not offered"
        ruleset.check(state, seat, played)
        self.kinds_checked.add(decision.kind)
        if decision.secret:
            odds = self.stakes.secret_odds(ruleset, state, decision)
            assert all(decision.allows(dict(key)) for key in odds), f"{where} may draw an option not offered"
            key = (decision.kind, tuple(sorted(odds.items())))
            if key not in self.secret_samples:
                self.secret_samples[key] = (ruleset.copy(state), decision)
            return
        assert played == decision.to_dict()["default"], f"{where} is not the published default"
        other = ruleset.resample_hidden(state, None, self.rng)
        twin = next(d for d in ruleset.pending(other) if d.seat == seat and d.kind == decision.kind)
        assert twin.default_action() == played, f"{where} depends on something hidden"
        alternatives = [dict(option) for option in decision.options[:self.options_limit] if option != played]
        if alternatives:
            self._not_self_destructive(state, decision, played, alternatives, where)

    def _not_self_destructive(self, state, decision, played: dict, alternatives: list[dict], where: str) -> None:
        worlds = [state] + [self.ruleset.resample_hidden(state, decision.seat, self.rng) for _ in range(self.worlds)]
        default = _Fates(self, worlds, decision.seat, played)
        for action in alternatives:
            alternative = _Fates(self, worlds, decision.seat, action)
            if default.surely_out():
                assert not alternative.sometimes_in(), f"{where} ({played}) puts the seat out, {action} need not"
            elif alternative.surely_out():
                self._bite(decision)  # the default keeps the seat in where this option would not
            if alternative.surely_won():
                assert default.surely_won(), f"{where} ({played}) lets a sure win ({action}) go"
            elif default.surely_won():
                self._bite(decision)  # the default wins where this option would not
            sure, sure_default = alternative.sure(), default.sure()
            if sure is None or sure_default is None or sure.out or sure.won or sure_default.out or sure_default.won:
                continue
            if sure.lost != sure_default.lost:
                assert not _no_more(sure.lost, sure_default.lost), \
                    f"{where} ({played}) loses {sure_default.lost}, {action} only {sure.lost}"
                if _no_more(sure_default.lost, sure.lost):
                    self._bite(decision)  # the default keeps something this option would throw away

    def _bite(self, decision) -> None:
        self.bites[decision.kind] = self.bites.get(decision.kind, 0) + 1


def _no_more(lost: tuple, than: tuple) -> bool:
    """Whether ``lost`` loses no more of anything than ``than`` does."""
    return all(a <= b for a, b in zip(lost, than, strict=True))


class _Fates:
    """The fates of one action in several worlds, played lazily (the real world first)."""

    def __init__(self, checker: TimedOutSeats, worlds: list, seat: int, action: dict) -> None:
        self.checker, self.worlds, self.seat, self.action = checker, worlds, seat, action
        self._fates: list[tuple] = []

    def fate(self, index: int) -> tuple:
        """(fate, whether the outcome drew from the RNG) in world ``index``."""
        while len(self._fates) <= index:
            world = self.worlds[len(self._fates)]
            outcome = _outcome(self.checker.ruleset, world, self.seat, self.action)
            assert outcome is not None, f"{self.action} is not legal in a world seat {self.seat} cannot tell apart"
            after, events = outcome
            fate = self.checker.stakes.fate(self.checker.ruleset, world, after, events, self.seat)
            drew = (after.rng.seed, after.rng.counter) != (world.rng.seed, world.rng.counter)
            self._fates.append((fate, drew))
        return self._fates[index]

    def sometimes_in(self) -> bool:
        return any(not self.fate(index)[0].out for index in range(len(self.worlds)))

    def sure(self):
        """The fate when it is sure (no dice drawn, the same in every world), else None."""
        fate, drew = self.fate(0)
        if drew or any(self.fate(index)[0] != fate for index in range(1, len(self.worlds))):
            return None
        return fate

    def surely_won(self) -> bool:
        sure = self.sure()
        return sure is not None and sure.won

    def surely_out(self) -> bool:
        sure = self.sure()
        return sure is not None and sure.out
