"""The statistics of an experiment: intervals of means, paired differences, the Holm adjustment,
and the confidence sequences that let a precision experiment look after every round.

A fixed-size experiment reports ordinary 95% intervals (Wilson for proportions, normal for means)
and, against the base, paired differences with two-sided p-values adjusted by Holm's step-down
method across the variants (Holm 1979, "A simple sequentially rejective multiple test procedure").

A precision experiment looks at its results after every round, and stopping at the first look
where an ordinary 95% interval is narrow enough is not 95% sure. It uses instead the asymptotic
confidence sequence of Waudby-Smith, Arnold, Wu and Ramdas ("Time-uniform central limit theory and
asymptotic confidence sequences", Annals of Statistics, 2024; arXiv:2103.06476), a normal-mixture
boundary (Robbins 1970) around the running mean whose coverage holds at every sample size at once,
so the experiment may stop whenever it likes.
"""

from __future__ import annotations

import math

from engine.experiments.sums import Moments, PairedSums
from engine.simulate import wilson_interval

Z95 = 1.959964
ALPHA = 0.05


def rounded(value: float) -> float:
    return round(value, 6)


def mean_interval(moments: Moments) -> tuple[float, list[float]]:
    """The mean and its 95% normal interval."""
    if moments.n == 0:
        return 0.0, [0.0, 0.0]
    mean = moments.total / moments.n
    half = Z95 * math.sqrt(_variance(moments.n, moments.total, moments.squares) / moments.n)
    return rounded(mean), [rounded(mean - half), rounded(mean + half)]


def _variance(n: int, total: float, squares: float) -> float:
    if n < 2:
        return 0.0
    return max(0.0, (squares - total * total / n) / (n - 1))


def normal_p_value(z: float) -> float:
    """Two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2))


def difference_variance(sums: PairedSums) -> float:
    """The sample variance of the differences x - y of the pairs."""
    total = sums.x - sums.y
    squares = sums.xx + sums.yy - 2 * sums.xy
    return _variance(sums.n, total, squares)


def correlation(sums: PairedSums) -> float | None:
    """Pearson correlation of x and y over the pairs (None when either does not vary)."""
    n = sums.n
    if n < 2:
        return None
    cov = sums.xy - sums.x * sums.y / n
    vx = sums.xx - sums.x * sums.x / n
    vy = sums.yy - sums.y * sums.y / n
    if vx <= 0 or vy <= 0:
        return None
    return rounded(cov / math.sqrt(vx * vy))


def paired_difference(sums: PairedSums) -> dict:
    """Mean of x - y with its 95% interval and two-sided p-value, from the paired games; and the
    unpaired interval's half-width, which the same games would give had the seeds differed."""
    n = sums.n
    if n == 0:
        return {"difference": 0.0, "ci95": [0.0, 0.0], "p_value": 1.0, "pairs": 0, "correlation": None,
                "unpaired_half_width": None}
    diff = (sums.x - sums.y) / n
    variance = difference_variance(sums)
    half = Z95 * math.sqrt(variance / n)
    se = math.sqrt(variance / n)
    p = 1.0 if se == 0 else normal_p_value(diff / se)
    if se == 0 and diff != 0:
        p = 0.0
    unpaired = Z95 * math.sqrt((_variance(n, sums.x, sums.xx) + _variance(n, sums.y, sums.yy)) / n)
    return {"difference": rounded(diff), "ci95": [rounded(diff - half), rounded(diff + half)], "p_value": rounded(p),
            "pairs": n, "correlation": correlation(sums), "unpaired_half_width": rounded(unpaired)}


def holm(p_values: list[float]) -> list[float]:
    """Holm's step-down adjusted p-values (same order as given): reject where adjusted < alpha."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    adjusted = [1.0] * len(p_values)
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[index]))
        adjusted[index] = rounded(running)
    return adjusted


def mixture_rho2(tuned_for: int, alpha: float = ALPHA) -> float:
    """The mixture's precision ρ² that makes the sequence tightest after ``tuned_for`` observations
    (Waudby-Smith et al., section 3.2)."""
    log_term = -2 * math.log(alpha)
    return (log_term + math.log(log_term + 1)) / max(1, tuned_for)


def confidence_sequence_radius(n: int, sd: float, tuned_for: int, alpha: float = ALPHA) -> float:
    """Half-width of the asymptotic confidence sequence for a mean after ``n`` observations of
    standard deviation ``sd``: it covers the true mean at every ``n`` at once with probability 1 - alpha."""
    if n == 0:
        return math.inf
    rho2 = mixture_rho2(tuned_for, alpha)
    grown = n * rho2 + 1
    return sd * math.sqrt(2 * grown / (n * n * rho2) * math.log(math.sqrt(grown) / alpha))


def smoothed_proportion_sd(successes: float, trials: int) -> float:
    """sqrt(p(1-p)) with one success and one failure added, so a run of all-wins is not taken for certain."""
    p = (successes + 1) / (trials + 2)
    return math.sqrt(p * (1 - p))


def fixed_half_width(sd: float, n: int) -> float:
    """The ordinary 95% half-width at ``n`` observations (what the sequence is compared with in the docs)."""
    return math.inf if n == 0 else Z95 * sd / math.sqrt(n)


def proportion_interval(successes: int, trials: int) -> list[float]:
    return wilson_interval(successes, trials)
