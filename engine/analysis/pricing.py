"""Short play-outs scored by the value model: what the analysis prices options and chance outcomes by,
and the statistics of a move's cost (its standard error, its interval, the game's "costly" calls)."""

from __future__ import annotations

import math
from statistics import NormalDist

from engine.analysis.method import QUANTUM, WORK_PER_EVALUATION, Method
from engine.core.errors import IllegalAction
from engine.core.rng import Rng
from engine.values.model import ValueModel, result_shares

#: The two-sided 95% normal quantile of a cost's interval.
Z95 = NormalDist().inv_cdf(0.975)


def quantized(value: float) -> float:
    """``value`` rounded to a multiple of ``QUANTUM`` (exactly representable, so sums stay exact)."""
    return round(value / QUANTUM) * QUANTUM


class PlayOuts:
    """Play-outs of ``ruleset``'s ``rollout_bot`` from a state, scored by ``model`` (by the result if the game
    ends first); ``work`` counts the engine actions they took."""

    def __init__(self, ruleset, model: ValueModel, method: Method) -> None:
        self.ruleset = ruleset
        self.model = model
        self.method = method
        self.policy = ruleset.bot(ruleset.rollout_bot)
        self.work = 0
        self.count = 0

    def score(self, world, horizon: int, continuation: int, players: int) -> list[float]:
        """Every seat's chances after ``horizon`` actions of ``rollout_bot`` from ``world`` (played in place),
        quantized; the bots draw from ``continuation`` (common to every world compared)."""
        ruleset = self.ruleset
        rng = Rng(continuation)
        for _ in range(horizon):
            pending = ruleset.pending(world)
            if not pending:
                break
            decision = pending[0]
            ruleset.apply(world, decision.seat, self.policy.choose(world, decision, rng), check=False)
            self.work += 1
        self.work += 2 * WORK_PER_EVALUATION
        self.count += 1
        result = ruleset.result(world)
        scores = result_shares(result, world.players) if result is not None else self.model.predict(world)
        return [quantized(score) for score in scores[:players]]

    def option_rewards(self, state, seat: int, options: list[dict], seeds: list[int]) -> list[list | None]:
        """Every option's per-seat rewards in each world ``seat`` cannot tell apart from ``state``
        (``Ruleset.resample_hidden``), every option meeting the same world, dice and continuation; None for
        an option the rules refuse in some world (an amount a redrawn hand cannot pay)."""
        ruleset = self.ruleset
        rewards: list[list | None] = [[] for _ in options]
        for seed in seeds:
            world_rng = Rng(seed)
            if self.method.mover_worlds:
                world = ruleset.resample_hidden(state, seat, world_rng)
            else:
                world = ruleset.resample_chance(state, world_rng)
            continuation = world_rng.next64()
            for index, action in enumerate(options):
                if rewards[index] is None:
                    continue
                copy = ruleset.copy(world)
                try:
                    ruleset.apply(copy, seat, action, check=False)
                except IllegalAction:
                    rewards[index] = None
                    continue
                self.work += 1
                rewards[index].append(self.score(copy, self.method.horizon, continuation, state.players))
        return rewards


def mean_rows(rows: list[list[float]], seats: int) -> list[float]:
    return [sum(row[seat] for row in rows) / len(rows) for seat in range(seats)]


def paired(rewards: list[list[list[float]]], better: int, worse: int, seat: int) -> tuple[float, float]:
    """The mean of ``better``'s reward minus ``worse``'s over the common worlds, and its standard error."""
    differences = [b[seat] - w[seat] for b, w in zip(rewards[better], rewards[worse], strict=True)]
    n = len(differences)
    average = sum(differences) / n
    variance = sum((d - average) ** 2 for d in differences) / (n - 1) if n > 1 else 0.0
    return average, math.sqrt(variance / n)


def one_sided_p(difference: float, error: float, count: int) -> float:
    """P(a paired mean at least ``difference`` | no true difference): Student's t with ``count - 1`` degrees
    of freedom, by Wallace's normal approximation of t (close enough for the few dozen play-outs here)."""
    if difference <= 0:
        return 1.0
    if error == 0:
        return 0.0
    freedom = max(1, count - 1)
    t = difference / error
    z = math.sqrt(freedom * math.log1p(t * t / freedom)) * (8 * freedom + 1) / (8 * freedom + 3)
    return 1.0 - NormalDist().cdf(z)


def holm(p_values: list[float], alpha: float) -> list[bool]:
    """Holm's step-down: which of the hypotheses are rejected at family-wise error rate ``alpha``."""
    order = sorted(range(len(p_values)), key=lambda index: p_values[index])
    rejected = [False] * len(p_values)
    for rank, index in enumerate(order):
        if p_values[index] > alpha / (len(p_values) - rank):
            break
        rejected[index] = True
    return rejected
