"""Is the game analysis right? An outside check of the luck-skill split and the move costs (issue 38).

    .venv/bin/python bench/analysis_check.py [--games N] [--playouts K] [--moves M] [--rulesets a,b] [--jobs 2]
    ANALYSIS_CHECK_TREE=/path/to/other/checkout .venv/bin/python bench/analysis_check.py ...  (its engine)

Written from the issue's definitions, not from the estimator's code: it plays N seeded games per
ruleset and lineup (4 seats, all ``random``; ``heuristic`` in seat 0 against three ``random``), analyses
each with ``engine.analysis.game.analyse`` and measures

- **luck**: its mean per seat, with its standard error: chance averages zero whatever the lineup;
- **skill**: the heuristic seat's mean above the random seats' (paired per game), and in all-random
  games every pair of seats equal;
- **forced moves**: a decision with one legal option (one option, no range) is in no move list and
  carries no skill (checked in ``moves``, in the key moments' decision parts, and: a seat with no move
  in the list has no skill);
- **sums**: change == skill + luck + drift + others, exactly, for every seat of every game;
- **costs**: for a sample of the moves called costly (and a few priced but not costly, as a control),
  ``playouts`` independent play-outs from the recorded state of the chosen option and of the best one,
  every seat continued by the ``heuristic`` bot to the END of the game, with common random numbers
  (play-out ``k`` re-deals the hidden chance and seeds the bots the same way for both options, on
  seeds of this module's own stream, never the analysis'): the measured effect is the mover's win
  share after the best option minus after the chosen one. Per ruleset: mean effect +- SE, sign
  agreement, moves significantly reversed (Holm), Pearson correlation of claimed cost and effect.

``--luck-only`` analyses games for luck alone (no decision priced, which is nearly all of an analysis's
work; every chance event scored as the full analysis scores it, on the same seeds, so the luck is the
same to the last bit): a sample of luck's mean ten to a hundred times larger for the same CPU, merged
with full runs by ``--report``. Luck is judged over every game; skill, drift and costs over the fully
analysed ones.

Every comparison's p-value is Holm-corrected across the whole run (``engine.experiments.statistics``).
Seeds: ``derive_seed(CHECK_SEED, ...)``, a stream no golden test or other test uses. The figures depend
on the machine's load only in their timings.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace

#: ``ANALYSIS_CHECK_TREE=<another checkout>`` checks that tree's engine (its estimator) with this harness.
sys.path.insert(0, os.environ.get("ANALYSIS_CHECK_TREE") or os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine.analysis.game import analyse
from engine.analysis.method import method_for
from engine.core.errors import IllegalAction
from engine.core.registry import all_rulesets, get_ruleset
from engine.core.rng import Rng, derive_seed
from engine.experiments.statistics import holm, normal_p_value
from engine.records import ACTION, action_entry, initial_state, load_record, make_record
from engine.values.model import result_shares

#: The root of every seed here (0x38C4EC: "issue 38, check"); the golden games use 1414 and 1515.
CHECK_SEED = 0x38C4EC
#: Streams under it: the games' seeds, and the play-outs' chance and bot seeds.
GAME_STREAM, PLAYOUT_STREAM, SAMPLE_STREAM = 1, 2, 3
PLAYERS = 4
LINEUPS = {"all-random": ["random"] * PLAYERS, "heuristic-vs-random": ["heuristic"] + ["random"] * (PLAYERS - 1)}
#: Format 1 has no ``costly`` flag: the issue's outside check played out moves priced at least this.
FORMAT1_COSTLY = 0.05
#: Two standard errors: the issue's bound for "within" and "above".
BOUND_SE = 2.0
ALPHA = 0.05


def game_seed(ruleset_id: str, lineup: str, game: int) -> int:
    seed = derive_seed(CHECK_SEED, GAME_STREAM, sorted(all_rulesets()).index(ruleset_id),
                       list(LINEUPS).index(lineup), game)
    return seed & (2 ** 63 - 1)  # a record's seed fits a signed 64-bit integer


def record_of(ruleset_id: str, bots: list[str], seed: int) -> dict:
    """A complete record of one game of ``bots`` (one per seat), built the way the service builds one."""
    ruleset = get_ruleset(ruleset_id)
    players = len(bots)
    state = ruleset.new_game(players, None, seed)
    setup = [event.to_dict() for event in ruleset.setup_events(state)]
    choose = [ruleset.bot(name) for name in bots]
    rngs = [Rng(derive_seed(seed, 1, seat)) for seat in range(players)]
    log = []
    while pending := ruleset.pending(state):
        decision = pending[0]
        action = choose[decision.seat].choose(state, decision, rngs[decision.seat])
        events = [event.to_dict() for event in ruleset.apply(state, decision.seat, action)]
        log.append(action_entry(len(log) + 1, decision.seat, action, events))
    record = make_record(ruleset, players=players, options={}, seed=seed, log=log, setup_events=setup,
                         result=ruleset.result(state).to_dict(), version=len(log))
    return json.loads(json.dumps(record))


def is_forced(decision) -> bool:
    """One legal option: one offered action and no range with room in it."""
    if len(decision.options) != 1:
        return False
    return all(low == high for bounds in decision.ranges.values() for low, high in bounds.values())


def forced_entries(record: dict) -> set[int]:
    """Indexes of the log entries whose decision had one legal option (replayed on the whole state)."""
    loaded = load_record(record)
    ruleset = get_ruleset(loaded["ruleset"])
    state = initial_state(ruleset, loaded)
    forced = set()
    for index, entry in enumerate(loaded["log"]):
        if entry["kind"] != ACTION:
            ruleset.seat_changed(state, entry)
            continue
        action = ruleset.parse_action(entry["action"])
        if is_forced(ruleset.check(state, entry["seat"], action)):
            forced.add(index)
        ruleset.play(state, entry["seat"], action)
    return forced


def is_costly(move: dict) -> bool:
    """The analysis calls the move costly (format 2's ``costly``; format 1: priced >= FORMAT1_COSTLY)."""
    return move["costly"] if "costly" in move else move["cost"] >= FORMAT1_COSTLY


@dataclass
class GameCheck:
    """What one analysed game says, reduced to what the checks need."""

    ruleset: str
    lineup: str
    seed: int
    format: int
    shares: list[float]
    skill: list[float]
    luck: list[float]
    drift: list[float]
    others: list[float]
    #: seats whose change != skill + luck + drift + others exactly
    unsummed: list[int]
    #: forced entries found in the move list, or with a decision part in the steps
    forced_with_skill: list[int]
    forced: int
    moves: list[dict] = field(default_factory=list)
    seconds: float = 0.0
    #: seats with no move in the list (every one of their moves forced) and yet some skill
    idle_skill: list[int] = field(default_factory=list)
    #: analysed for luck alone (``--luck-only``): no decision priced, so its skill is 0 and its choices are drift
    luck_only: bool = False


def luck_alone(ruleset_id: str):
    """The ruleset's method weighing one candidate a decision: no decision is priced (the costly part), while
    every chance event is scored exactly as in the full analysis (the same seeds), so the luck is the same."""
    return replace(method_for(get_ruleset(ruleset_id)), max_candidates=1)


def check_game(ruleset_id: str, lineup: str, game: int, luck_only: bool = False) -> GameCheck:
    return check_seed(ruleset_id, lineup, game_seed(ruleset_id, lineup, game), luck_only)


def check_seed(ruleset_id: str, lineup: str, seed: int, luck_only: bool = False) -> GameCheck:
    """The game of ``lineup`` on ``seed`` played and analysed (for luck alone with ``luck_only``)."""
    record = record_of(ruleset_id, LINEUPS[lineup], seed)
    began = time.perf_counter()
    analysis = analyse(record, method=luck_alone(ruleset_id) if luck_only else None)
    seconds = time.perf_counter() - began
    split = analysis["split"]
    drift = [part.get("drift", 0.0) for part in split]
    unsummed = [part["seat"] for part, seat_drift in zip(split, drift, strict=True)
                if part["skill"] + part["luck"] + seat_drift + part["others"] != part["change"]
                or part["change"] != part["result"] - part["start"]]
    forced = forced_entries(record)
    forced_with_skill = sorted({move["index"] for move in analysis["moves"] if move["index"] in forced}
                               | {step["index"] for step in analysis.get("key_moments", [])
                                  if step["index"] in forced and step.get("decision", 0.0) != 0.0})
    shares = result_shares(type("Result", (), {"winners": record["result"]["winners"]})(), record["players"])
    moves = [{"index": move["index"], "seat": move["seat"], "cost": move["cost"], "costly": is_costly(move),
              "cost_se": move.get("cost_se"), "action": move["action"], "best_action": move["best_action"]}
             for move in analysis["moves"]]
    if os.environ.get("ANALYSIS_CHECK_PROGRESS"):  # a long run's progress, one line a game
        print(f"{ruleset_id} {lineup} game {seed}: {len(record['log'])} entries analysed in {seconds:.1f} s",
              file=sys.stderr, flush=True)
    movers = {move["seat"] for move in analysis["moves"]}
    idle_skill = [part["seat"] for part in split if part["seat"] not in movers and part["skill"] != 0]
    return GameCheck(ruleset_id, lineup, seed, analysis["format"], list(shares), [p["skill"] for p in split],
                     [p["luck"] for p in split], drift, [p["others"] for p in split], unsummed, forced_with_skill,
                     len(forced), moves, seconds, idle_skill, luck_only)


# -- play-outs -------------------------------------------------------------------------------------------

def state_before(record: dict, index: int):
    """The whole state just before log entry ``index`` of ``record``."""
    loaded = load_record(record)
    ruleset = get_ruleset(loaded["ruleset"])
    state = initial_state(ruleset, loaded)
    for entry in loaded["log"][:index]:
        if entry["kind"] != ACTION:
            ruleset.seat_changed(state, entry)
        else:
            ruleset.play(state, entry["seat"], ruleset.parse_action(entry["action"]))
    return ruleset, state


def play_to_end(ruleset, state, bots: list, rngs: list[Rng]) -> None:
    while pending := ruleset.pending(state):
        decision = pending[0]
        ruleset.play(state, decision.seat, bots[decision.seat].choose(state, decision, rngs[decision.seat]))


#: The worlds a move is played out in: ``hindsight``, the whole recorded state with its chance dealt anew
#: (the other seats' hands and face-down choices as they were); ``mover``, worlds the mover could not tell
#: apart from it (what it could not see redrawn), the worlds the analysis judges a move in.
WORLDS = ("hindsight", "mover")


def playout_effect(ruleset_id: str, lineup: str, game_seed_: int, move: dict, playouts: int,
                   worlds: str = "hindsight") -> dict:
    """The measured effect of a move: the mover's mean win share after its best option minus after the
    chosen one, over ``playouts`` heuristic play-outs to the end with common random numbers, in ``worlds``."""
    record = record_of(ruleset_id, LINEUPS[lineup], game_seed_)
    ruleset, state = state_before(record, move["index"])
    seat = move["seat"]
    best, chosen = ruleset.parse_action(move["best_action"]), ruleset.parse_action(move["action"])
    bots = [ruleset.bot("heuristic") for _ in range(ruleset.max_players)]  # a seat may join mid-game
    differences = []
    for k in range(playouts):
        seed = derive_seed(CHECK_SEED, PLAYOUT_STREAM, game_seed_, move["index"], k)
        shares = []
        for action in (best, chosen):
            world_rng = Rng(derive_seed(seed, SAMPLE_STREAM))
            world = (ruleset.resample_hidden(state, seat, world_rng) if worlds == "mover"
                     else ruleset.resample_chance(state, world_rng))
            try:
                ruleset.apply(world, seat, action)
            except IllegalAction:
                return {**move, "effect": None, "reason": "option refused"}
            play_to_end(ruleset, world, bots, [Rng(derive_seed(seed, 1, n)) for n in range(len(bots))])
            shares.append(seat_share(ruleset.result(world), seat))
        differences.append(shares[0] - shares[1])
    mean = sum(differences) / playouts
    variance = sum((d - mean) ** 2 for d in differences) / (playouts - 1)
    se = math.sqrt(variance / playouts)
    p = 1.0 if se == 0 else normal_p_value(abs(mean) / se)
    return {**move, "ruleset": ruleset_id, "lineup": lineup, "seed": game_seed_, "effect": mean, "effect_se": se,
            "p_value": p, "worlds": worlds}


def seat_share(result, seat: int) -> float:
    """``seat``'s share of the win (a shared win split evenly; no winner: an equal share each)."""
    winners = result.winners or result.ranking
    return 1.0 / len(winners) if seat in winners else 0.0


# -- the run, in at most two processes -------------------------------------------------------------------

def _call(task: tuple) -> object:
    function, args = task
    return function(*args)


def run_tasks(tasks: list[tuple], jobs: int) -> list:
    """``[function(*args) for function, args in tasks]``, the odd ones in one extra process when ``jobs`` is
    2 (this machine's cores are shared: never more than one extra)."""
    if jobs < 2 or len(tasks) < 2:
        return [_call(task) for task in tasks]
    with ProcessPoolExecutor(max_workers=1) as pool:
        futures = [pool.submit(_call, task) for task in tasks[1::2]]
        mine = [_call(task) for task in tasks[0::2]]
        theirs = [future.result() for future in futures]
    results = [None] * len(tasks)
    results[0::2], results[1::2] = mine, theirs
    return results


def check_games(ruleset_id: str, lineup: str, games: int, jobs: int = 1, first: int = 0,
                luck_only: bool = False) -> list[GameCheck]:
    return run_tasks([(check_game, (ruleset_id, lineup, game, luck_only)) for game in range(first, first + games)],
                     jobs)


def costly_sample(checks: list[GameCheck], moves: int, costly: bool = True) -> list[tuple]:
    """Up to ``moves`` (ruleset, lineup, game seed, move) of the games, called costly (or, for
    ``costly=False``, priced but not called costly), drawn evenly with this module's own generator."""
    pool = [(check.ruleset, check.lineup, check.seed, move) for check in checks for move in check.moves
            if move["costly"] == costly and move["action"] != move["best_action"]]
    if not pool:
        return []
    rng = Rng(derive_seed(CHECK_SEED, SAMPLE_STREAM, len(pool), int(costly)))
    for last in range(len(pool) - 1, 0, -1):  # a seeded shuffle: Fisher-Yates
        other = rng.randint(0, last)
        pool[last], pool[other] = pool[other], pool[last]
    return pool[:moves]


def measure_costs(sample: list[tuple], playouts: int, jobs: int = 1, worlds: str = "hindsight") -> list[dict]:
    effects = run_tasks([(playout_effect, (*item, playouts, worlds)) for item in sample], jobs)
    return [effect for effect in effects if effect.get("effect") is not None]


# -- statistics ------------------------------------------------------------------------------------------

def mean_se(values: list[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, math.inf
    return mean, math.sqrt(sum((value - mean) ** 2 for value in values) / (n - 1) / n)


def z_of(mean: float, se: float) -> float:
    return 0.0 if mean == 0 else (math.inf if se == 0 else mean / se)


def pearson(xs: list[float], ys: list[float]) -> float | None:
    n = len(xs)
    if n < 3:
        return None
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx, syy = sum((x - mx) ** 2 for x in xs), sum((y - my) ** 2 for y in ys)
    return None if sxx == 0 or syy == 0 else sxy / math.sqrt(sxx * syy)


@dataclass
class Comparison:
    """One test of the run: ``null`` ones pass when chance explains them (|z| <= 2, Holm p >= alpha),
    the others when it does not (z > 2, Holm p < alpha). ``below_only``: a null refused only by a mean
    below zero (a played-out move reversed), its p-value one-sided."""

    name: str
    mean: float
    se: float
    null: bool
    below_only: bool = False
    p: float = 1.0
    holm_p: float = 1.0

    @property
    def z(self) -> float:
        return z_of(self.mean, self.se)

    @property
    def within_2se(self) -> bool:
        if self.below_only:
            return self.z >= -BOUND_SE
        return abs(self.z) <= BOUND_SE if self.null else self.z > BOUND_SE

    @property
    def holm_ok(self) -> bool:
        return self.holm_p >= ALPHA if self.null else self.holm_p < ALPHA


def lineup_groups(checks: list[GameCheck]) -> list[tuple[str, str, list[GameCheck], list[GameCheck]]]:
    """(ruleset, lineup, every game, the fully analysed ones) per ruleset and lineup, in order: luck is
    judged over every game, the rest over the fully analysed games."""
    groups: dict[tuple[str, str], list[GameCheck]] = {}
    for check in checks:
        groups.setdefault((check.ruleset, check.lineup), []).append(check)
    return [(ruleset_id, lineup, every, [check for check in every if not check.luck_only])
            for (ruleset_id, lineup), every in sorted(groups.items())]


def split_comparisons(checks: list[GameCheck]) -> list[Comparison]:
    """Luck zero for every seat (over every game, those analysed for luck alone too); in all-random games
    every pair of seats of equal skill; the heuristic seat's skill above the random seats' (paired per game)
    where it wins more (both over the fully analysed games)."""
    comparisons = []
    for ruleset_id, lineup, every, group in lineup_groups(checks):
        seats = min(len(check.luck) for check in every)
        for seat in range(seats):
            mean, se = mean_se([check.luck[seat] for check in every])
            comparisons.append(Comparison(f"{ruleset_id} {lineup} seat {seat} luck == 0", mean, se, True))
        if len(group) < 2:
            continue
        if lineup == "all-random":
            for a in range(seats):
                for b in range(a + 1, seats):
                    mean, se = mean_se([check.skill[a] - check.skill[b] for check in group])
                    comparisons.append(Comparison(f"{ruleset_id} all-random skill seat {a} == seat {b}", mean, se,
                                                  True))
        else:
            wins, wins_se = mean_se([check.shares[0] - sum(check.shares[1:seats]) / (seats - 1) for check in group])
            if z_of(wins, wins_se) > BOUND_SE:  # the heuristic wins more: its choices must show as skill
                mean, se = mean_se([check.skill[0] - sum(check.skill[1:seats]) / (seats - 1) for check in group])
                comparisons.append(Comparison(f"{ruleset_id} heuristic skill > random seats'", mean, se, False))
    return comparisons


def reversal_comparisons(effects: list[dict]) -> list[Comparison]:
    """Each played-out costly move: is its measured effect reversed (below zero beyond chance)?"""
    return [Comparison(f"{effect['ruleset']} move {effect['index']} of game {effect.get('seed', '')} not reversed",
                       effect["effect"], effect["effect_se"], True, below_only=True) for effect in effects]


def upper_p(z: float) -> float:
    """One-sided p-value of a standard normal statistic ``z`` against "above zero"."""
    if not math.isfinite(z):
        return 0.0 if z > 0 else 1.0
    return normal_p_value(z) / 2 if z > 0 else 1 - normal_p_value(z) / 2


def settle(comparisons: list[Comparison]) -> None:
    """Every comparison's p-value (two-sided for the null ones, one-sided above zero for the others) and
    its Holm-adjusted one across all of them."""
    for comparison in comparisons:
        z = comparison.z
        if comparison.below_only:
            comparison.p = upper_p(-z)
        elif comparison.null:
            comparison.p = normal_p_value(abs(z)) if math.isfinite(z) else 0.0
        else:
            comparison.p = upper_p(z)
    for comparison, adjusted in zip(comparisons, holm([c.p for c in comparisons]), strict=True):
        comparison.holm_p = adjusted


def failures(checks: list[GameCheck], comparisons: list[Comparison], effects: dict[str, list[dict]],
             least_correlation: float = 0.5) -> list[str]:
    """What the issue's "Done when" refuses, in words (empty: the analysis passes). Luck and equal skill are
    null hypotheses, refused only when Holm's correction over the run rejects them; the heuristic's skill
    must be above the random seats' by more than two standard errors; costly moves' play-outs must agree
    in sign on average, none reversed beyond chance (Holm), with a correlation of at least
    ``least_correlation`` between claimed cost and measured effect."""
    found = []
    for check in checks:
        if check.unsummed:
            found.append(f"{check.ruleset} game {check.seed}: seats {check.unsummed} do not add up exactly")
        if check.forced_with_skill:
            found.append(f"{check.ruleset} game {check.seed}: forced entries {check.forced_with_skill[:5]} "
                         f"carry a decision part")
        if check.idle_skill:
            found.append(f"{check.ruleset} game {check.seed}: seats {check.idle_skill} with no choice have skill")
    for comparison in comparisons:
        if comparison.null and not comparison.holm_ok:
            found.append(f"{comparison.name}: {comparison.mean:+.4f} ± {comparison.se:.4f} (Holm p "
                         f"{comparison.holm_p:.4f})")
        elif not comparison.null and not comparison.within_2se:
            found.append(f"{comparison.name}: {comparison.mean:+.4f} ± {comparison.se:.4f}, not above by 2 SE")
    for ruleset_id, played in sorted(effects.items()):
        summary = cost_summary(played)
        if summary["moves"] < 3:
            continue
        if summary["effect"] <= 0:
            found.append(f"{ruleset_id}: costly moves' measured effect {summary['effect']:+.3f} ± "
                         f"{summary['effect_se']:.3f} does not agree in sign")
        if summary["correlation"] is None or summary["correlation"] < least_correlation:
            found.append(f"{ruleset_id}: correlation of claimed cost and measured effect "
                         f"{summary['correlation'] or 0:+.2f} < {least_correlation}")
    return found


def cost_summary(effects: list[dict]) -> dict:
    """Per ruleset: claimed cost against measured effect over the played-out moves."""
    if not effects:
        return {"moves": 0}
    measured = [effect["effect"] for effect in effects]
    claimed = [effect["cost"] for effect in effects]
    mean, se = mean_se(measured)
    return {"moves": len(effects), "claimed": sum(claimed) / len(claimed), "effect": mean, "effect_se": se,
            "agree": sum(value > 0 for value in measured) / len(measured),
            "reversed": sum(effect["effect"] < 0 and effect["p_value"] < ALPHA for effect in effects),
            "correlation": pearson(claimed, measured),
            "big": sum(abs(value) > 0.10 for value in measured),
            # the claimed cost within two standard errors (its own and the play-outs') of the measured effect
            "consistent": None if any(effect.get("cost_se") is None for effect in effects) else sum(
                abs(effect["cost"] - effect["effect"]) <= BOUND_SE * math.hypot(effect["cost_se"], effect["effect_se"])
                for effect in effects) / len(effects)}


# -- the report ------------------------------------------------------------------------------------------

def seat_table(checks: list[GameCheck]) -> list[str]:
    """Per ruleset, lineup and seat: the fully analysed games' figures, and luck over every game (``luck n``
    counts those analysed for luck alone too)."""
    lines = [f"{'ruleset':15} {'lineup':19} {'seat':>4} {'games':>5} {'win':>6} {'luck n':>6} {'luck mean±SE':>17} "
             f"{'skill mean±SE':>17} {'drift':>8} {'others':>8} {'analyse s':>9}"]
    for ruleset_id, lineup, every, analysed in lineup_groups(checks):
        group = analysed or every
        seconds = sum(check.seconds for check in group) / len(group)
        for seat in range(min(len(check.luck) for check in every)):
            luck, luck_se = mean_se([check.luck[seat] for check in every])
            skill, skill_se = mean_se([check.skill[seat] for check in group])
            drift, _ = mean_se([check.drift[seat] for check in group])
            others, _ = mean_se([check.others[seat] for check in group])
            win, _ = mean_se([check.shares[seat] for check in group])
            lines.append(f"{ruleset_id:15} {lineup:19} {seat:>4} {len(group):>5} {win:>6.3f} {len(every):>6} "
                         f"{luck:>+8.3f}±{luck_se:<8.3f} {skill:>+8.3f}±{skill_se:<8.3f} {drift:>+8.3f} "
                         f"{others:>+8.3f} {seconds:>9.2f}")
    return lines


def integrity_lines(checks: list[GameCheck]) -> list[str]:
    formats = sorted({check.format for check in checks})
    unsummed = sum(len(check.unsummed) for check in checks)
    forced = sum(check.forced for check in checks)
    forced_bad = sum(len(check.forced_with_skill) for check in checks)
    idle = sum(len(check.idle_skill) for check in checks)
    luck_only = sum(check.luck_only for check in checks)
    return [f"analysis format {formats}; seats whose parts do not add up exactly: {unsummed} of "
            f"{sum(len(check.luck) for check in checks)}; forced moves {forced}, of them in the move list or "
            f"with a decision part: {forced_bad}; seats with no choice and some skill: {idle}",
            *([f"{luck_only} of the {len(checks)} games analysed for luck alone (--luck-only): their luck counts, "
               f"the rest is the fully analysed games'"] if luck_only else [])]


def worlds_lines(effects: dict, controls: dict) -> list[str]:
    played = {effect.get("worlds", "hindsight") for found in (effects, controls) for each in found.values()
              for effect in each}
    return [f"moves played out in {' and '.join(sorted(played))} worlds"] if played else []


def comparison_lines(comparisons: list[Comparison]) -> list[str]:
    lines = [f"{'comparison':58} {'mean':>8} {'SE':>7} {'z':>6} {'2SE':>4} {'Holm p':>7} {'Holm':>4}"]
    for c in comparisons:
        lines.append(f"{c.name[:58]:58} {c.mean:>+8.4f} {c.se:>7.4f} {c.z:>+6.2f} "
                     f"{'ok' if c.within_2se else 'FAIL':>4} {c.holm_p:>7.4f} {'ok' if c.holm_ok else 'FAIL':>4}")
    return lines


def cost_lines(effects: dict[str, list[dict]], controls: dict[str, list[dict]]) -> list[str]:
    lines = [f"{'ruleset':15} {'kind':9} {'moves':>5} {'claimed':>8} {'effect mean±SE':>17} {'sign':>5} "
             f"{'reversed':>8} {'|eff|>.1':>8} {'r(cost,eff)':>11} {'cost~eff':>8}"]
    for ruleset_id in sorted(set(effects) | set(controls)):
        for kind, table in (("costly", effects), ("control", controls)):
            summary = cost_summary(table.get(ruleset_id, []))
            if not summary["moves"]:
                lines.append(f"{ruleset_id:15} {kind:9} {0:>5}")
                continue
            r = summary["correlation"]
            lines.append(f"{ruleset_id:15} {kind:9} {summary['moves']:>5} {summary['claimed']:>8.3f} "
                         f"{summary['effect']:>+8.3f}±{summary['effect_se']:<8.3f} {summary['agree']:>5.2f} "
                         f"{summary['reversed']:>8} {summary['big']:>8} {'-' if r is None else f'{r:+.2f}':>11} "
                         f"{'-' if (c := summary['consistent']) is None else f'{c:.2f}':>8}")
        both = effects.get(ruleset_id, []) + controls.get(ruleset_id, [])
        r = pearson([e["cost"] for e in both], [e["effect"] for e in both])
        lines.append(f"{ruleset_id:15} {'all':9} {len(both):>5} {'':>8} {'':>17} {'':>5} {'':>8} {'':>8} "
                     f"{'-' if r is None else f'{r:+.2f}':>11}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=300, help="games per ruleset and lineup")
    parser.add_argument("--games-for", default="", help="fewer (or more) for some rulesets: hitchiker=6,whipcash=30")
    parser.add_argument("--playouts", type=int, default=100, help="play-outs per option of a played-out move")
    parser.add_argument("--moves", type=int, default=25, help="costly moves played out per ruleset")
    parser.add_argument("--controls", type=int, default=10, help="moves not called costly played out per ruleset")
    parser.add_argument("--rulesets", default=",".join(sorted(all_rulesets())))
    parser.add_argument("--lineups", default=",".join(LINEUPS))
    parser.add_argument("--first", type=int, default=0, help="the first game's number (more games of a run)")
    parser.add_argument("--jobs", type=int, default=1, choices=[1, 2], help="2: one extra process")
    parser.add_argument("--json", help="write every game's and move's figures into this file (.gz: compressed)")
    parser.add_argument("--report", help="report again from files --json wrote, comma-separated (no games played)")
    parser.add_argument("--measure-again", action="store_true",
                        help="with --report: play out --moves costly moves and --controls others drawn from all "
                             "the files' games, instead of the files' own play-outs (--json keeps these alone)")
    parser.add_argument("--luck-only", action="store_true",
                        help="analyse the games for luck alone (no decision priced, no play-outs): a cheap, larger "
                             "sample of luck's mean, merged with full runs by --report")
    parser.add_argument("--worlds", default="hindsight", choices=WORLDS,
                        help="play-outs from the recorded state (hindsight) or from worlds the mover could not "
                             "tell apart from it (mover: what the analysis judges by)")
    args = parser.parse_args()
    began = time.perf_counter()
    sources = args.report.split(",") if args.report else []
    if sources:
        checks, effects, controls = load_figures(sources)
        if args.measure_again:
            effects, controls = measure_sample(checks, args)
    else:
        checks, effects, controls = run(args, began)
    comparisons = split_comparisons(checks) + reversal_comparisons([e for es in effects.values() for e in es])
    settle(comparisons)
    # The table shows the claims (heuristic above random) and every comparison one of the criteria refuses.
    shown = [c for c in comparisons if not c.null or not c.within_2se or not c.holm_ok]
    print(f"{len(comparisons)} comparisons, Holm-corrected together; shown: the claims and the refused ones")
    for line in [*integrity_lines(checks), "", *seat_table(checks), "", *comparison_lines(shown), "",
                 *worlds_lines(effects, controls), *cost_lines(effects, controls), "",
                 "what the issue's 'Done when' refuses:",
                 *(failures(checks, comparisons, effects) or ["nothing"])]:
        print(line)
    print(f"\n{time.perf_counter() - began:.0f} s in all")
    if args.json:
        figures = {"games": [vars(check) for check in checks], "effects": effects, "controls": controls}
        if args.measure_again:  # the play-outs alone: the games are in the files named
            figures.update(games=[], **{"from": sources})
        with figures_file(args.json, "w") as out:
            json.dump(figures, out, default=str)


def load_figures(paths: list[str]) -> tuple[list[GameCheck], dict, dict]:
    """The games, costly moves' effects and controls of files --json wrote (chunks of one run), merged."""
    checks, effects, controls = [], {}, {}
    for path in paths:
        with figures_file(path, "r") as saved:
            data = json.load(saved)
        checks += [GameCheck(**game) for game in data["games"]]
        for mine, theirs in ((effects, data["effects"]), (controls, data["controls"])):
            for ruleset_id, played in theirs.items():
                mine.setdefault(ruleset_id, []).extend(played)
    return checks, effects, controls


def figures_file(path: str, mode: str):
    """A --json file, gzip-compressed when its name ends in .gz (the kept records in bench/records)."""
    return gzip.open(path, mode + "t") if path.endswith(".gz") else open(path, mode)


def measure_sample(checks: list[GameCheck], args) -> tuple[dict, dict]:
    """Per ruleset of ``checks``: ``args.moves`` moves called costly and ``args.controls`` priced but not,
    each played out ``args.playouts`` times per option in ``args.worlds``."""
    effects, controls = {}, {}
    for ruleset_id in sorted({check.ruleset for check in checks}):
        mine = [check for check in checks if check.ruleset == ruleset_id]
        for found, costly, count in ((effects, True, args.moves), (controls, False, args.controls)):
            found[ruleset_id] = measure_costs(costly_sample(mine, count, costly), args.playouts, args.jobs,
                                              args.worlds)
    return effects, controls


def run(args, began: float) -> tuple[list[GameCheck], dict, dict]:
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {args.games} games per ruleset and "
          f"lineup, {args.playouts} play-outs per option", flush=True)
    checks, effects, controls = [], {}, {}
    games_for = dict(item.split("=") for item in args.games_for.split(",") if item)
    for ruleset_id in args.rulesets.split(","):
        games = int(games_for.get(ruleset_id, args.games))
        mine = [check for lineup in args.lineups.split(",")
                for check in check_games(ruleset_id, lineup, games, args.jobs, args.first, args.luck_only)]
        checks += mine
        if not args.luck_only:
            measured, measured_controls = measure_sample(mine, args)
            effects.update(measured)
            controls.update(measured_controls)
        print(f"{ruleset_id}: done after {time.perf_counter() - began:.0f} s", flush=True)
    return checks, effects, controls

if __name__ == "__main__":
    main()
