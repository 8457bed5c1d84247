"""Was it luck? The analysis of a finished game's record (format 3; docs/analysis.md, "Game analysis").

Every secret of a finished game is public, so the analysis replays its record on the whole state, with
the ruleset's method parameters (``engine.analysis.method``):

- **V**: every seat's win chance at every version, the ruleset's value model on the whole state
  (``engine.values``); the result's V is the outcome itself (each winner's share of the win).
- **E**, for every action: every seat's expected score over the action's chance event. The action is
  applied to ``chance_samples`` copies of the state whose chance alone is dealt anew
  (``Ruleset.resample_chance``: dice, spins, undrawn piles), each scored by ``f``: ``chance_horizon``
  actions of the rollout bot (with a continuation common to all), then the model. The actual outcome is
  scored by the same ``f``, so **luck** = f(actual) - E has mean zero by construction, for every seat and
  lineup: the actual outcome is one more draw of the same event.
- **P**, for every decision with more than one candidate (``engine.analysis.candidates``): each
  candidate's mean score over ``playouts`` worlds the mover cannot tell apart from the real one
  (``Ruleset.resample_hidden`` from its seat), every candidate meeting the same world, dice and
  continuation (common random numbers), then ``horizon`` actions of the rollout bot, then the model.
  **skill** (the mover's) and **others** (every other seat's) = P(chosen) - the mean of the candidates'
  P: what the choice did against choosing at random among the options weighed (0 on average for a seat
  that does, however many decisions it meets). A decision with one candidate has no choice part.
- **drift** = V(after) - V(before) - choice part - luck: the rest (a forced move's deterministic result,
  the model's inconsistency between versions, the play-outs' horizon against the one-step value).
- A move's **cost** = P(best) - P(chosen) with its standard error from the paired play-outs. A move
  whose p-value of "no candidate beats the chosen one" (its smallest one-sided p-value,
  Bonferroni-corrected over its other candidates) could pass the game's Holm step-down (p <= alpha) is
  **re-measured**: the chosen and the best candidate are played out again in ``playouts`` fresh worlds,
  and its cost, standard error and interval become the re-measure's. The pricing picked that best
  candidate, and the move, for looking costly on those worlds, so their own figure overstates the cost
  (most on a chance run of good play-outs); the fresh worlds' figure does not. A move is **costly** when
  Holm's step-down over the game's priced moves rejects on the pricing's p-values AND its re-measure
  alone says the best beats the chosen at the same alpha: a fluke of the pricing must repeat to be
  called costly.

A player joining mid-game (a seat change) is **others** for every seat. The four parts add up to
V(result) - V(start) exactly: every V, E and P is a multiple of ``QUANTUM`` (2**-20), so every sum of
them is exact in floating point, whatever its order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from engine.analysis.candidates import candidates
from engine.analysis.method import QUANTUM, WORK_PER_EVALUATION, WORK_PER_VERSION, Method, method_for, work_bound
from engine.analysis.pricing import PlayOuts, quantized
from engine.analysis.summary import Totals, add_step, call_costly, priced_move, remeasure, summary
from engine.core.rng import Rng, derive_seed
from engine.records import ACTION, RecordError, initial_state, load_record, replay, ruleset_of
from engine.values.model import ValueModel, ValueModelError, load_model

__all__ = ["ANALYSIS_FORMAT", "QUANTUM", "Progress", "analyse", "quantized", "work_bound"]

ANALYSIS_FORMAT = 3
#: derive_seed(record seed, stream, entry index, sample) seeds a chance sample, a play-out world, and the
#: continuation common to an entry's chance samples
CHANCE_SEED_STREAM = 0xA4A1
PLAYOUT_SEED_STREAM = 0xA4A2
CONTINUATION_SEED_STREAM = 0xA4A3
#: ... and a re-measured move's fresh worlds (none of them among the pricing's)
REMEASURE_SEED_STREAM = 0xA4A4

#: ``progress(entries done, entries)``, called after every log entry.
Progress = Callable[[int, int], None]


@dataclass(slots=True)
class Walk:
    """What the replay has gathered so far."""

    method: Method
    chances: list[list[float]] = field(default_factory=list)
    moves: list[dict] = field(default_factory=list)
    steps: list[dict] = field(default_factory=list)
    totals: list[Totals] = field(default_factory=list)
    work: int = 0
    playouts: int = 0
    chance_samples: int = 0
    most_samples: int = 0
    remeasured: int = 0


def _value(model: ValueModel, state) -> list[float]:
    return [quantized(chance) for chance in model.predict(state)]


def analyse(data, *, model: ValueModel | None = None, progress: Progress | None = None,
            method: Method | None = None) -> dict:
    """The analysis of the finished game whose record is ``data`` (see the module's docstring); ``method``
    overrides the ruleset's (experiments only: bench/analysis.py).

    ``RecordError`` (with a reason) for a record that cannot be analysed: malformed, of other rules,
    with secrets withheld, diverging from the engine's replay, or of a game that is not over.
    """
    record = load_record(data)
    ruleset = ruleset_of(record)
    checked = replay(record)
    if checked.divergence is not None:
        divergence = checked.divergence
        raise RecordError("record_diverges", f"the record does not replay: {divergence.message}",
                          fields={"log": [f"entry {divergence.index}: {divergence.reason}"]})
    if checked.commitment_ok is False:
        raise RecordError("commitment_mismatch", "the record's seed and salt do not match its seed commitment")
    if checked.result is None:
        raise RecordError("not_finished", "only a finished game is analysed (a live one keeps secrets)")
    try:
        model = model or load_model(ruleset)
    except ValueModelError as error:
        raise RecordError("no_value_model", str(error)) from None
    method = method or method_for(ruleset)
    state = initial_state(ruleset, record)
    base_seed = record["seed"] if record["seed"] is not None else state.rng.seed
    playouts = PlayOuts(ruleset, model, method)
    walk = Walk(method)
    walk.chances.append(_value(model, state))
    walk.totals = [Totals(start) for start in walk.chances[0]]
    walk.work += WORK_PER_VERSION
    entries = len(record["log"])
    for index, entry in enumerate(record["log"]):
        before = walk.chances[-1]
        if entry["kind"] != ACTION:
            ruleset.seat_changed(state, entry)
            after = _value(model, state)
            zero = [0.0] * len(before)
            shift = [after[seat] - before[seat] for seat in range(len(before))]
            add_step(walk, index, entry, None, before, after, shift, zero, [], None)  # all "others"
        else:
            after = _analyse_action(ruleset, model, playouts, state, index, entry, base_seed, before, walk)
        walk.chances.append(after)
        walk.work += WORK_PER_VERSION
        if progress is not None:
            progress(index + 1, entries)
    walk.work += playouts.work
    call_costly(walk)
    return summary(ruleset, record, model, walk, ANALYSIS_FORMAT)


def _analyse_action(ruleset, model: ValueModel, playouts: PlayOuts, state, index: int, entry: dict,
                    base_seed: int, before: list[float], walk: Walk) -> list[float]:
    seat = entry["seat"]
    action = ruleset.parse_action(entry["action"])
    decision = ruleset.check(state, seat, action)
    players = len(before)
    move = None
    choice = [0.0] * players
    if len(decision.options) > 1 or decision.ranges:
        move = _price_decision(ruleset, playouts, state, index, entry, decision, seat, action, base_seed, before,
                               walk)
        if move is not None:
            choice = move["choice_parts"]
            walk.moves.append(move)
    luck = _luck(ruleset, playouts, state, index, seat, action, base_seed, walk)
    events = [event.to_dict() for event in ruleset.play(state, seat, action)]
    after = _value(model, state)
    add_step(walk, index, entry, seat, before, after, choice, luck, events, move)
    return after


def _price_decision(ruleset, playouts: PlayOuts, state, index: int, entry: dict, decision, seat: int,
                    action: dict, base_seed: int, before: list[float], walk: Walk) -> dict | None:
    """The priced move of a decision with a choice (None when fewer than two candidates could be weighed)."""
    method = walk.method
    default = playouts.policy.choose(state, decision, Rng(derive_seed(base_seed, PLAYOUT_SEED_STREAM, index)))
    weighed = candidates(decision, action, default, method.max_candidates)
    if len(weighed) < 2:
        return None
    seeds = [derive_seed(base_seed, PLAYOUT_SEED_STREAM, index, world) for world in range(method.playouts)]
    count = playouts.count
    try:
        rewards = playouts.option_rewards(state, seat, weighed, seeds)
        kept = [(option, rows) for option, rows in zip(weighed, rewards, strict=True) if rows is not None]
        if len(kept) < 2 or kept[0][0] != action:
            return None
        move = priced_move(index, entry, decision, seat, before, kept)
        if move["p_value"] <= method.costly_alpha and move["best_action"] != action:
            fresh = [derive_seed(base_seed, REMEASURE_SEED_STREAM, index, world) for world in range(method.playouts)]
            remeasure(move, playouts.option_rewards(state, seat, [action, move["best_action"]], fresh))
            walk.remeasured += 1
        return move
    finally:
        walk.playouts += playouts.count - count
        walk.most_samples = max(walk.most_samples, playouts.count - count)


def _luck(ruleset, playouts: PlayOuts, state, index: int, seat: int, action: dict, base_seed: int,
          walk: Walk) -> list[float]:
    """f(actual outcome) - E[f] over the action's chance event, per seat (``f``: ``chance_horizon`` actions of
    the rollout bot with a common continuation, then the model)."""
    method = walk.method
    players = state.players
    horizon = method.chance_horizon
    continuation = derive_seed(base_seed, CONTINUATION_SEED_STREAM, index)

    def score(world) -> list[float]:
        if horizon:
            # Chance after the event is dealt anew with one seed for all (a resample keeps no trace of the order
            # it replaces): the play-out shows this event's outcome, not the piles' later draws again.
            world = ruleset.resample_chance(world, Rng(derive_seed(continuation, 1)))
        return playouts.score(world, horizon, continuation, players)

    total = [0.0] * players
    for sample in range(method.chance_samples):
        world = ruleset.resample_chance(state, Rng(derive_seed(base_seed, CHANCE_SEED_STREAM, index, sample)))
        ruleset.apply(world, seat, action, check=False)
        for other, value in enumerate(score(world)):
            total[other] += value
    actual = ruleset.copy(state)
    ruleset.apply(actual, seat, action, check=False)
    scored = score(actual)
    walk.chance_samples += method.chance_samples
    walk.work += (method.chance_samples + 1) * WORK_PER_EVALUATION
    # Quantized samples, a power-of-two count: their mean is exact, so a deterministic action's luck is 0.
    return [scored[other] - quantized(total[other] / method.chance_samples) for other in range(players)]
