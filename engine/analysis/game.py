"""Was it luck? The analysis of a finished game's record.

Every secret of a finished game is public, so the analysis replays its record on the whole state:

- **V**: every seat's win chance at every version, the ruleset's value model on the whole state
  (``engine.values``); the result's V is the outcome itself (1 for a sole winner, 1/k each for k
  winners).
- **Q**: for every decision with a choice, each candidate option's expected win chances after the
  choice and before its dice and cards: the option is applied to ``SAMPLES`` copies of the state whose
  chance alone is dealt anew (``Ruleset.resample_chance``: the generator re-seeded from the record's
  seed, the entry and the sample, undrawn piles reshuffled), and the model averaged over them. Every
  candidate meets the same samples (common random numbers), so their difference is the options'.
  A decision with one option is no choice: its Q is V before it.
- a move's **cost**: Q(best candidate) - Q(chosen), in the mover's win chance; its gain over the
  candidates' **average**, Q(chosen) - their mean Q, sums per seat to ``choice_gain`` (outside the split:
  a measure of the choices free of the model's drift, which any option shares).
- each action's change of every seat's chance, V(after) - V(before), splits into a **decision part**,
  Q(chosen) - V(before), and a **chance part**, V(after) - Q(chosen). Per seat: **skill** sums its own
  decisions' parts, **luck** every chance part, **others** the other seats' decision parts (and a
  player joining mid-game). They add up to V(result) - V(start) exactly: every V and Q is rounded to a
  multiple of ``QUANTUM`` (2**-20), so every sum of them is exact in floating point, whatever its order.

Cost per action is bounded: one model evaluation (V), and for a decision at most ``MAX_CANDIDATES``
candidates times ``SAMPLES`` samples, each one copy, one chance resample, one ``apply`` (which resolves
the chance up to the next decision) and one model evaluation. ``work`` counts it in engine actions.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.bots.search import candidate_actions
from engine.core.errors import IllegalAction
from engine.core.rng import Rng, derive_seed
from engine.records import ACTION, RecordError, initial_state, load_record, replay, ruleset_of
from engine.values.model import ValueModel, ValueModelError, load_model

ANALYSIS_FORMAT = 1
#: Every win chance is rounded to a multiple of this (about one in a million): sums of them are exact.
QUANTUM = 2.0 ** -20
#: Candidates a decision's options are weighed by, at most (the chosen one always among them).
MAX_CANDIDATES = 8
#: Chance samples each candidate is applied on.
SAMPLES = 16
#: What one sample costs in engine actions (a copy, a resample, an apply, a model evaluation: about
#: what a win-chances world costs, ``api.win_chances.routes.WORK_PER_WORLD``).
WORK_PER_SAMPLE = 10
#: What one version's V costs in engine actions (the replayed action and a model evaluation).
WORK_PER_VERSION = 10
#: The most work one log entry may cost: its V and every sample of its decision.
MAX_WORK_PER_ENTRY = WORK_PER_VERSION + MAX_CANDIDATES * SAMPLES * WORK_PER_SAMPLE
#: Key moments reported, and events told for each.
KEY_MOMENTS = 5
MAX_MOMENT_EVENTS = 12
#: derive_seed(record seed, ANALYSIS_SEED_STREAM, entry index, sample) seeds a chance sample
ANALYSIS_SEED_STREAM = 0xA4A1


def quantized(value: float) -> float:
    """``value`` rounded to a multiple of ``QUANTUM`` (exactly representable, so sums stay exact)."""
    return round(value / QUANTUM) * QUANTUM


def work_bound(entries: int) -> int:
    """The most work (engine actions) the analysis of a record of ``entries`` log entries may take."""
    return WORK_PER_VERSION + entries * MAX_WORK_PER_ENTRY


@dataclass(slots=True)
class _Totals:
    start: float
    skill: float = 0.0
    luck: float = 0.0
    others: float = 0.0
    decisions: int = 0
    cost: float = 0.0
    choice_gain: float = 0.0
    costliest: dict | None = None


@dataclass(slots=True)
class _Walk:
    """What the replay has gathered so far."""

    chances: list[list[float]] = field(default_factory=list)
    moves: list[dict] = field(default_factory=list)
    steps: list[dict] = field(default_factory=list)
    totals: list[_Totals] = field(default_factory=list)
    work: int = 0
    samples: int = 0
    most_samples: int = 0


def _value(model: ValueModel, state) -> list[float]:
    return [quantized(chance) for chance in model.predict(state)]


def _candidates(decision, chosen: dict) -> list[dict]:
    """The options a decision is weighed by: the search's candidates, at most ``MAX_CANDIDATES``, the
    chosen action always among them."""
    candidates = candidate_actions(decision, chosen)
    if len(candidates) > MAX_CANDIDATES:
        kept = [option for option in candidates if option != chosen][:MAX_CANDIDATES - 1]
        candidates = [*kept, chosen]
    return candidates


def _option_values(ruleset, model: ValueModel, state, seat: int, candidates: list[dict], seeds: list[int],
                   walk: _Walk) -> list[list[float]]:
    """Q of each candidate: the model's chances after it, averaged over the same chance samples."""
    values = []
    used = 0
    for action in candidates:
        totals = [0.0] * state.players
        count = 0
        for seed in seeds:
            world = ruleset.resample_chance(state, Rng(seed))
            world_rng = world.rng
            drawn_before = world_rng.counter
            try:
                ruleset.apply(world, seat, action, check=False)
            except IllegalAction:  # a ranged midpoint the rules refuse in this position: not weighed
                break
            count += 1
            for index, chance in enumerate(model.predict(world)[: len(totals)]):
                totals[index] += chance
            if world.rng is world_rng and world_rng.counter == drawn_before:
                break  # the option drew nothing at random: every sample would give the same
        used += count
        values.append(None if count == 0 else [quantized(total / count) for total in totals])
    walk.samples += used
    walk.most_samples = max(walk.most_samples, used)
    walk.work += used * WORK_PER_SAMPLE
    return values


def analyse(data, *, model: ValueModel | None = None) -> dict:
    """The analysis of the finished game whose record is ``data`` (see the module's docstring).

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
    state = initial_state(ruleset, record)
    base_seed = record["seed"] if record["seed"] is not None else state.rng.seed
    walk = _Walk()
    before = _value(model, state)
    walk.chances.append(before)
    walk.totals = [_Totals(start) for start in before]
    walk.work += WORK_PER_VERSION
    for index, entry in enumerate(record["log"]):
        before = walk.chances[-1]
        if entry["kind"] != ACTION:
            ruleset.seat_changed(state, entry)
            after = _value(model, state)
            _add_step(walk, index, entry, None, before, after, after, [], None)  # all "others"
        else:
            after = _analyse_action(ruleset, model, state, index, entry, base_seed, before, walk)
        walk.chances.append(after)
        walk.work += WORK_PER_VERSION
    return _summary(ruleset, record, model, walk)


def _analyse_action(ruleset, model: ValueModel, state, index: int, entry: dict, base_seed: int,
                    before: list[float], walk: _Walk) -> list[float]:
    seat = entry["seat"]
    action = ruleset.parse_action(entry["action"])
    decision = ruleset.check(state, seat, action)
    candidates = _candidates(decision, action)
    move = None
    chosen = before
    if len(candidates) > 1:
        seeds = [derive_seed(base_seed, ANALYSIS_SEED_STREAM, index, sample) for sample in range(SAMPLES)]
        values = _option_values(ruleset, model, state, seat, candidates, seeds, walk)
        chosen = values[candidates.index(action)]
        weighed = [(option, value) for option, value in zip(candidates, values, strict=True) if value is not None]
        best_action, best = max(weighed, key=lambda pair: pair[1][seat])
        move = {
            "index": index, "version": entry["version"], "seat": seat, "kind": decision.kind, "action": action,
            "timed_out": bool(entry.get("timed_out")), "chance_before": before[seat],
            "chosen": chosen[seat], "chosen_chances": chosen, "best": best[seat],
            "average": quantized(sum(value[seat] for _, value in weighed) / len(weighed)),
            "best_action": best_action, "cost": best[seat] - chosen[seat],
            "options": [{"action": option, "chance": value[seat]} for option, value in weighed],
        }
        walk.moves.append(move)
    events = [event.to_dict() for event in ruleset.play(state, seat, action)]
    after = _value(model, state)
    _add_step(walk, index, entry, seat, before, chosen, after, events, move)
    return after


def _add_step(walk: _Walk, index: int, entry: dict, mover: int | None, before: list[float],
              chosen: list[float], after: list[float], events: list[dict], move: dict | None) -> None:
    """Split the entry's change of every seat's chance into its decision and chance parts."""
    totals = walk.totals
    for seat in range(len(totals), len(after)):  # a player who joined: its chances start here
        totals.append(_Totals(after[seat]))
    decision_part, chance_part = [], []
    for seat, seat_totals in enumerate(totals):
        if seat >= len(before):
            decision_part.append(0.0)
            chance_part.append(0.0)
            continue
        decided = (chosen[seat] if seat < len(chosen) else after[seat]) - before[seat]
        chanced = after[seat] - before[seat] - decided
        decision_part.append(decided)
        chance_part.append(chanced)
        if seat == mover:
            seat_totals.skill += decided
        else:
            seat_totals.others += decided
        seat_totals.luck += chanced
    if move is not None:
        mover_totals = totals[mover]
        mover_totals.decisions += 1
        mover_totals.cost += move["cost"]
        mover_totals.choice_gain += move["chosen"] - move["average"]
        if move["cost"] > 0 and (mover_totals.costliest is None or move["cost"] > mover_totals.costliest["cost"]):
            mover_totals.costliest = move
    swing = max(range(len(before)), key=lambda seat: abs(after[seat] - before[seat]), default=None)
    if swing is not None and after[swing] != before[swing]:
        walk.steps.append({"index": index, "version": entry["version"], "seat": mover, "kind": entry["kind"],
                           "action": entry["action"], "affected": swing,
                           "swing": after[swing] - before[swing], "decision": decision_part[swing],
                           "chance": chance_part[swing], "events": events})


def _moment(step: dict) -> dict:
    cause = "decision" if abs(step["decision"]) > abs(step["chance"]) else "chance"
    if step["kind"] != ACTION:
        cause = step["kind"]
    events = step["events"]
    return {**{key: step[key] for key in ("index", "version", "seat", "action", "affected", "swing", "decision",
                                           "chance")},
            "cause": cause, "events": events[:MAX_MOMENT_EVENTS],
            "more_events": max(0, len(events) - MAX_MOMENT_EVENTS)}


def _brief_move(move: dict | None) -> dict | None:
    if move is None:
        return None
    return {key: move[key] for key in ("index", "version", "seat", "kind", "action", "chosen", "best",
                                        "best_action", "cost")}


def _summary(ruleset, record: dict, model: ValueModel, walk: _Walk) -> dict:
    final = walk.chances[-1]
    split = []
    for seat, totals in enumerate(walk.totals):
        split.append({"seat": seat, "start": totals.start, "result": final[seat], "change": final[seat] - totals.start,
                      "skill": totals.skill, "luck": totals.luck, "others": totals.others,
                      "decisions": totals.decisions, "cost": totals.cost, "choice_gain": totals.choice_gain,
                      "costliest_move": _brief_move(totals.costliest)})
    moments = sorted(walk.steps, key=lambda step: (-abs(step["swing"]), step["index"]))[:KEY_MOMENTS]
    costly = [move for move in walk.moves if move["cost"] > 0]
    costliest = max(costly, key=lambda move: (move["cost"], -move["index"]), default=None)
    trained = model.data.get("trained_on", {})
    return {
        "format": ANALYSIS_FORMAT, "ruleset": ruleset.id, "rules_version": ruleset.rules_version,
        "game": record["game"], "players": len(final), "entries": len(record["log"]),
        "result": record["result"],
        "method": {"samples": SAMPLES, "max_candidates": MAX_CANDIDATES, "quantum": QUANTUM,
                   "model": {"features": len(model.features), "trained_on": trained}},
        "chances": walk.chances,
        "moves": walk.moves,
        "key_moments": [_moment(step) for step in sorted(moments, key=lambda step: step["index"])],
        "costliest_move": _brief_move(costliest),
        "split": split,
        "work": walk.work, "samples": walk.samples, "most_samples_per_entry": walk.most_samples,
    }
