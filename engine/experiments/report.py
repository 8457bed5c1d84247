"""What an experiment reports per variant, the stopping rules of a precision experiment, the size
of its rounds, and the sentence a designer wants.

Win rates are reported per seat and per turn-order position (``Ruleset.turn_order``); the first
mover's edge, position 0's win rate minus a fair share, is the measure the sentence balances: in a
game whose rulebook picks the first player by a roll, seat 0 is not the first mover."""

from __future__ import annotations

import math

from engine.core.registry import get_ruleset
from engine.experiments.design import BASE, Variant
from engine.experiments.drama import drama_measures, drama_sentence
from engine.experiments.measures import Moments, PairedSums, VariantTally
from engine.experiments.statistics import (
    ALPHA,
    Z95,
    confidence_sequence_radius,
    difference_variance,
    holm,
    mean_interval,
    paired_difference,
    proportion_interval,
    rounded,
    smoothed_proportion_sd,
)
from engine.simulate import summarize

#: why a variant stopped
STOP_REASONS = ("games", "win_rate_precision", "difference_decided", "precision", "budget", "variants_done")
#: a precision experiment's rounds grow to this share of the games already played, so a variant
#: whose question is answered early in a round plays at most about this share past its stopping point
ROUND_GROWTH = 0.1


def edge(rates: dict, games: int, fair: float) -> dict:
    """How far the first of ``rates`` (a summary's ``win_rates`` and ``win_rate_ci95``: per seat, or per
    turn-order position) is above a fair share, with its 95% interval."""
    low, high = rates["win_rate_ci95"][0]
    return {"value": rounded(rates["win_rates"][0] - fair) if games else 0.0,
            "ci95": [rounded(low - fair), rounded(high - fair)]}


def variant_measures(ruleset_id: str, seed: int, variant: Variant, vt: VariantTally) -> dict:
    """One variant's measures, each with its 95% interval."""
    tally = vt.tally
    games = tally.games
    stats = summarize(ruleset_id, seed, tally)
    players = tally.players
    fair = 1 / players
    positions = stats["positions"]
    for entry in stats["bot_stats"].values():
        # How far the bot's win rate is above a seat's fair share: the skill a lineup shows.
        entry["skill_share"] = rounded(entry["win_rate"] - fair)
        entry["skill_share_ci95"] = [rounded(bound - fair) for bound in entry["win_rate_ci95"]]
    turns_mean, turns_ci = mean_interval(_moments_of(tally.turns))
    margin, margin_ci = mean_interval(vt.margin)
    changes, changes_ci = mean_interval(vt.lead_changes)
    return {
        "name": variant.name,
        "options": variant.options,
        "bots": variant.bots,
        "point": variant.point,
        "games": games,
        "win_rates": stats["win_rates"],
        "win_rate_ci95": stats["win_rate_ci95"],
        "positions": positions,
        "first_mover_edge": edge(positions, positions["games"], fair),
        "first_seat_edge": edge(stats, games, fair),
        "bot_stats": stats["bot_stats"],
        "draws": _rate(tally.draws, games),
        "turn_cap_hits": _rate(tally.turn_cap_hits, games),
        "turns": {**stats["turns"], "mean_ci95": turns_ci, "mean": turns_mean},
        "margin": {"mean": margin, "ci95": margin_ci, "games": vt.margin.n},
        "lead_changes": {"mean": changes, "ci95": changes_ci},
        "halfway_leader_wins": _rate(vt.halfway_leader_wins, vt.halfway_leader_games),
        "halfway_last_wins": _rate(vt.halfway_last_wins, vt.halfway_last_games),
        "end_reasons": dict(sorted(vt.reasons.items())),
        "eliminations": {**_rate(vt.elimination_games, games),
                         "seats_per_game": rounded(vt.eliminated_seats / games) if games else 0.0,
                         "first_at": dict(zip(("mean", "ci95"), mean_interval(vt.first_elimination), strict=True))},
        "mean_scores": stats["mean_scores"],
        "cpu_seconds": round(tally.seconds, 3),
        **({"drama": drama_measures(get_ruleset(ruleset_id), vt.drama, players)} if vt.drama is not None else {}),
    }


def _moments_of(histogram: dict[int, int]):
    return Moments(sum(histogram.values()), sum(k * v for k, v in histogram.items()),
                   sum(k * k * v for k, v in histogram.items()))


def _rate(count: int, games: int) -> dict:
    return {"count": count, "games": games, "rate": rounded(count / games) if games else 0.0,
            "ci95": proportion_interval(count, games)}


def differences(vt: VariantTally) -> dict:
    """This variant minus the base, from the games of the same seeds: per seat win rate, per turn-order
    position win rate, game length."""
    turns = paired_difference(vt.paired_turns)
    base_mean = vt.paired_turns.y / vt.paired_turns.n if vt.paired_turns.n else 0.0
    turns["relative"] = rounded(turns["difference"] / base_mean) if base_mean else None
    compared = {"win_rates": [paired_difference(sums) for sums in vt.paired_wins],
                "position_win_rates": [paired_difference(sums) for sums in vt.paired_positions],
                "turns_mean": turns}
    if vt.drama is not None:  # games with a kingmaker position, a comeback, decided before halfway
        compared["drama"] = {name: paired_difference(sums) for name, sums in vt.drama.paired.items()}
    return compared


def adjust(reports: list[dict]) -> None:
    """Holm-adjust, across the variants, each compared measure's p-values (in place): ``p_holm``,
    and ``significant`` when it is below 0.05."""
    compared = [r["difference"] for r in reports if r.get("difference")]
    if not compared:
        return
    families = [[c["turns_mean"] for c in compared]]
    for per_index in ("win_rates", "position_win_rates"):
        families += [[c[per_index][i] for c in compared] for i in range(len(compared[0][per_index]))]
    for family in families:
        for entry, adjusted in zip(family, holm([e["p_value"] for e in family]), strict=True):
            entry["p_holm"] = adjusted
            entry["significant"] = adjusted < ALPHA


# -- stopping by precision --------------------------------------------------------------


def tuned_for(within: float) -> int:
    """Games at which a question of precision ``within`` is expected to be answered (a coin-flip
    win rate): where its confidence sequence is made tightest."""
    return math.ceil((Z95 * 0.5 / within) ** 2)


def precision_state(vt: VariantTally, stop: dict, compared: int) -> dict:
    """Where a variant stands against the stopping rules: per seat and per turn-order position, the win
    rate's sequence radius and the difference's sequence (Bonferroni over the ``compared`` variants).
    A rule holds once it holds for every seat and every position; positions count from the games that
    tallied them (none in chunks recorded before turn order was counted, which then ask the seats only)."""
    tally = vt.tally
    state: dict = {"games": tally.games}
    if stop.get("win_rate_within"):
        h = stop["win_rate_within"]
        seats = _win_rate_radii(tally.wins, tally.games, h)
        positions = _win_rate_radii(tally.positions.wins, tally.positions.games, h)
        state["win_rate_radius"] = seats
        state["position_win_rate_radius"] = positions
        state["win_rate_met"] = tally.games > 0 and all(r <= h for r in seats + positions if r is not None)
    if stop.get("difference_within") and any(s.n for s in vt.paired_wins):
        delta, alpha = stop["difference_within"], ALPHA / max(1, compared)
        seats = [_difference_sequence(sums, delta, alpha) for sums in vt.paired_wins]
        positions = [_difference_sequence(sums, delta, alpha) for sums in vt.paired_positions]
        state["difference_sequence"] = [sequence for sequence, _ in seats]
        state["verdicts"] = [verdict for _, verdict in seats]
        state["position_difference_sequence"] = [sequence for sequence, _ in positions]
        state["position_verdicts"] = [verdict for _, verdict in positions]
        state["difference_met"] = all(verdict is not None for sequence, verdict in seats + positions if sequence)
    return state


def _win_rate_radii(wins: list[int], games: int, within: float) -> list[float | None]:
    """Each win rate's confidence sequence half-width after ``games`` (None before any game)."""
    if games == 0:
        return [None] * len(wins)
    return [rounded(confidence_sequence_radius(games, smoothed_proportion_sd(w, games), tuned_for(within)))
            for w in wins]


def _difference_sequence(sums: PairedSums, delta: float, alpha: float) -> tuple[list[float] | None, str | None]:
    """The confidence sequence of a paired win-rate difference and its verdict: ``different`` (it excludes
    0), ``equivalent`` (it lies inside ±``delta``) or None (not yet; no pairs: no sequence)."""
    if sums.n == 0:
        return None, None
    mean = (sums.x - sums.y) / sums.n
    sd = math.sqrt(max(difference_variance(sums), 1 / sums.n))
    radius = confidence_sequence_radius(sums.n, sd, tuned_for(delta), alpha)
    low, high = mean - radius, mean + radius
    verdict = "different" if low > 0 or high < 0 else "equivalent" if -delta < low and high < delta else None
    return [rounded(low), rounded(high)], verdict


def stop_reason(state: dict, stop: dict, is_base: bool) -> str | None:
    """Why a variant of a precision experiment may stop now, or None to play on. The base plays on
    while any other variant does (every game needs its pair); the caller handles that."""
    win_rate = state.get("win_rate_met") if stop.get("win_rate_within") else None
    difference = None if is_base or not stop.get("difference_within") else state.get("difference_met")
    asked = [met for met in (win_rate, difference) if met is not None]
    if asked and all(asked):
        if win_rate is not None and difference is not None:
            return "precision"
        return "win_rate_precision" if win_rate is not None else "difference_decided"
    if is_base and not stop.get("win_rate_within"):
        return "variants_done"
    if state["games"] >= stop["max_games"]:
        return "budget"
    return None


def next_round_games(games_done: int, stop: dict, chunk_size: int) -> int:
    """Games per variant of the next round: the first round's ``min_games``, then about
    ``ROUND_GROWTH`` of the games so far, in whole chunks, never past the budget."""
    wanted = stop["min_games"] if games_done == 0 else max(chunk_size, math.ceil(games_done * ROUND_GROWTH))
    wanted = math.ceil(wanted / chunk_size) * chunk_size
    return max(0, min(wanted, stop["max_games"] - games_done))


# -- the designer's sentence --------------------------------------------------------------


def sentence(reports: list[dict]) -> str | None:
    """The variant that best balances the first mover, its edge against the base's, and its games'
    length against the base's: "with starting_money=16 the first mover's edge is ..."; with the drama
    measures, then the base's drama and the variant that moves kingmaking most."""
    balance = balance_sentence(reports)
    drama = drama_sentence(reports)
    if balance and drama:
        return f"{balance}. Drama: {drama}"
    return balance or (f"Drama: {drama}" if drama else None)


def balance_sentence(reports: list[dict]) -> str | None:
    """The first mover's part of ``sentence``."""
    base = next((r for r in reports if r["name"] == BASE), None)
    others = [r for r in reports if r["name"] != BASE and r["positions"]["games"]]
    if base is None or not others or not base["positions"]["games"]:
        return None
    best = min(others, key=lambda r: abs(r["first_mover_edge"]["value"]))
    # Rounded before formatting (and -0.0 made 0.0) so an edge of -0.0004 reads +0.000, not -0.000.
    best_edge = best["first_mover_edge"]
    value, low, high = (round(x, 3) + 0.0 for x in (best_edge["value"], *best_edge["ci95"]))
    base_value = round(base["first_mover_edge"]["value"], 3) + 0.0
    direction = "down" if abs(value) < abs(base_value) else "up"
    text = (f"with {best['name']} the first mover's edge is {value:+.3f} [{low:+.3f}, {high:+.3f}], "
            f"{direction} from {base_value:+.3f} with the base")
    relative = (best.get("difference") or {}).get("turns_mean", {}).get("relative")
    if relative is not None:
        text += f"; games are {abs(relative) * 100:.0f}% {'longer' if relative > 0 else 'shorter'}"
    return text
