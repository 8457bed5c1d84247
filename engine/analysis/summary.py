"""The analysis's bookkeeping: a priced move, every entry's split into its parts, the game's costly calls
and the answer's shape (format 3: docs/analysis.md, "The answer")."""

from __future__ import annotations

from dataclasses import dataclass

from engine.analysis.method import QUANTUM
from engine.analysis.pricing import Z95, holm, mean_rows, one_sided_p, paired, quantized
from engine.records import ACTION

#: Key moments reported, and events told for each.
KEY_MOMENTS = 5
MAX_MOMENT_EVENTS = 12
#: The parts of a seat's change, in the order the split lists them.
PARTS = ("skill", "luck", "others", "drift")


@dataclass(slots=True)
class Totals:
    start: float
    skill: float = 0.0
    luck: float = 0.0
    others: float = 0.0
    drift: float = 0.0
    decisions: int = 0
    cost: float = 0.0
    choice_gain: float = 0.0
    costly: int = 0


def priced_move(index: int, entry: dict, decision, seat: int, before: list[float], kept: list) -> dict:
    """A decision's move: the candidates' P (``kept``: (option, rewards per world), the chosen one first), its
    cost against the best with a standard error and an interval, the p-value the costly call tests, and
    every seat's choice part (``choice_parts``: P(chosen) - the candidates' mean P; the mover's is its skill)."""
    players = len(before)
    options = [option for option, _ in kept]
    rows = [rows for _, rows in kept]
    values = [[quantized(value) for value in mean_rows(option_rows, players)] for option_rows in rows]
    average = [quantized(sum(value[other] for value in values) / len(values)) for other in range(players)]
    best = max(range(len(values)), key=lambda option: (values[option][seat], option == 0))
    cost = values[best][seat] - values[0][seat]
    rival = best if best != 0 else max(range(1, len(values)), key=lambda option: values[option][seat])
    error = paired(rows, rival, 0, seat)[1]
    # "Some candidate beats the chosen one": the smallest one-sided p-value, Bonferroni over the candidates.
    smallest = min(one_sided_p(*paired(rows, option, 0, seat), len(rows[0])) for option in range(1, len(rows)))
    return {
        "index": index, "version": entry["version"], "seat": seat, "kind": decision.kind, "action": options[0],
        "timed_out": bool(entry.get("timed_out")), "chance_before": before[seat],
        "chosen": values[0][seat], "chosen_chances": values[0], "average_chances": average,
        "best": values[best][seat], "average": average[seat], "best_action": options[best], "cost": cost,
        "cost_se": quantized(error), "cost_ci95": [quantized(cost - Z95 * error), quantized(cost + Z95 * error)],
        "p_value": min(1.0, smallest * (len(rows) - 1)), "costly": False, "remeasure": None,
        "playouts": len(rows[0]),
        "options": [{"action": option, "chance": value[seat]} for option, value in zip(options, values, strict=True)],
        "choice_parts": [values[0][other] - average[other] for other in range(players)],
    }


def remeasure(move: dict, rewards: list[list | None]) -> None:
    """Give ``move`` the cost its re-measure found: ``rewards`` are the chosen action's and the best candidate's
    per-seat rewards in fresh worlds (None for one the rules refused in one of them: no re-measure, so
    never costly). The cost stays >= 0; its interval and the re-measure's own figures keep the sign."""
    if any(rows is None for rows in rewards):
        return
    seat = move["seat"]
    difference, error = paired(rewards, 1, 0, seat)
    count = len(rewards[0])
    move["remeasure"] = {"cost": quantized(difference), "cost_se": quantized(error), "playouts": count,
                         "p_value": one_sided_p(difference, error, count), "priced_cost": move["cost"]}
    move["cost"] = quantized(max(0.0, difference))
    move["cost_se"] = quantized(error)
    move["cost_ci95"] = [quantized(difference - Z95 * error), quantized(difference + Z95 * error)]


def call_costly(walk) -> None:
    """Mark the moves costly that Holm's step-down calls so at the method's family-wise rate over the game's
    moves (on the pricing's p-values) and whose re-measure says so too, at the same rate."""
    alpha = walk.method.costly_alpha
    calls = holm([move["p_value"] for move in walk.moves], alpha)
    for move, costly in zip(walk.moves, calls, strict=True):
        again = move["remeasure"]
        move["costly"] = costly and again is not None and again["p_value"] <= alpha and move["cost"] > 0
        if move["costly"]:
            walk.totals[move["seat"]].costly += 1


def add_step(walk, index: int, entry: dict, mover: int | None, before: list[float], after: list[float],
             choice: list[float], luck: list[float], events: list[dict], move: dict | None) -> None:
    """Split the entry's change of every seat's chance into its choice, luck and drift parts."""
    totals = walk.totals
    for seat in range(len(totals), len(after)):  # a player who joined: its chances start here
        totals.append(Totals(after[seat]))
    parts = []
    for seat in range(len(before)):
        drifted = after[seat] - before[seat] - choice[seat] - luck[seat]
        parts.append((choice[seat], luck[seat], drifted))
        seat_totals = totals[seat]
        if seat == mover:
            seat_totals.skill += choice[seat]
        else:
            seat_totals.others += choice[seat]
        seat_totals.luck += luck[seat]
        seat_totals.drift += drifted
    if move is not None:
        mover_totals = totals[mover]
        mover_totals.decisions += 1
        mover_totals.cost += move["cost"]
        mover_totals.choice_gain += move["chosen"] - move["average"]
    swing = max(range(len(before)), key=lambda seat: abs(after[seat] - before[seat]), default=None)
    if swing is not None and after[swing] != before[swing]:
        decided, lucky, drifted = parts[swing]
        walk.steps.append({"index": index, "version": entry["version"], "seat": mover, "kind": entry["kind"],
                           "action": entry["action"], "affected": swing, "swing": after[swing] - before[swing],
                           "decision": decided, "chance": lucky, "drift": drifted, "events": events})


def _moment(step: dict) -> dict:
    cause = max(("decision", "chance", "drift"), key=lambda part: abs(step[part]))
    if step["kind"] != ACTION:
        cause = step["kind"]
    events = step["events"]
    return {**{key: step[key] for key in ("index", "version", "seat", "action", "affected", "swing", "decision",
                                           "chance", "drift")},
            "cause": cause, "events": events[:MAX_MOMENT_EVENTS],
            "more_events": max(0, len(events) - MAX_MOMENT_EVENTS)}


def _brief_move(move: dict | None) -> dict | None:
    if move is None:
        return None
    return {key: move[key] for key in ("index", "version", "seat", "kind", "action", "chosen", "best",
                                        "best_action", "cost", "cost_se", "cost_ci95", "costly")}


def costliest(moves: list[dict]) -> dict | None:
    """The costly move of the largest cost (the earliest of equal ones), or None."""
    return _brief_move(max((move for move in moves if move["costly"]), key=lambda move: (move["cost"], -move["index"]),
                           default=None))


def summary(ruleset, record: dict, model, walk, analysis_format: int) -> dict:
    final = walk.chances[-1]
    split = []
    for seat, totals in enumerate(walk.totals):
        split.append({"seat": seat, "start": totals.start, "result": final[seat], "change": final[seat] - totals.start,
                      **{part: getattr(totals, part) for part in PARTS},
                      "decisions": totals.decisions, "cost": totals.cost, "choice_gain": totals.choice_gain,
                      "costly_moves": totals.costly,
                      "costliest_move": costliest([move for move in walk.moves if move["seat"] == seat])})
    moments = sorted(walk.steps, key=lambda step: (-abs(step["swing"]), step["index"]))[:KEY_MOMENTS]
    trained = model.data.get("trained_on", {})
    return {
        "format": analysis_format, "ruleset": ruleset.id, "rules_version": ruleset.rules_version,
        "game": record["game"], "players": len(final), "entries": len(record["log"]),
        "result": record["result"],
        "method": {**walk.method.to_dict(), "rollout_bot": ruleset.rollout_bot, "quantum": QUANTUM,
                   "model": {"features": len(model.features), "trained_on": trained}},
        "chances": walk.chances,
        "moves": walk.moves,
        "key_moments": [_moment(step) for step in sorted(moments, key=lambda step: step["index"])],
        "costliest_move": costliest(walk.moves),
        "split": split,
        "work": walk.work, "samples": walk.playouts + walk.chance_samples, "playouts": walk.playouts,
        "chance_samples": walk.chance_samples, "most_samples_per_entry": walk.most_samples,
        "remeasured": walk.remeasured,
    }
