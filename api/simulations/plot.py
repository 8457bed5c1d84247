"""``rulehouse simulate --plot FILE.png``: win rates with their 95% intervals, and game lengths.

matplotlib is the optional dependency group ``plot``; it is imported only here.
"""

from __future__ import annotations


def plot_stats(stats: dict, path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (wins_axis, length_axis) = plt.subplots(1, 2, figsize=(11, 4.5))
    seats = range(stats["players"])
    rates = stats["win_rates"]
    lows = [rate - low for rate, (low, _) in zip(rates, stats["win_rate_ci95"], strict=True)]
    highs = [high - rate for rate, (_, high) in zip(rates, stats["win_rate_ci95"], strict=True)]
    wins_axis.bar(seats, rates, yerr=[lows, highs], capsize=6, color="#4c72b0")
    wins_axis.set_xticks(list(seats), [f"seat {seat}\n{bot}" for seat, bot in zip(seats, stats["bots"], strict=True)])
    wins_axis.set_ylabel("win rate (95% CI)")
    wins_axis.set_ylim(0, min(1.0, max(high for _, high in stats["win_rate_ci95"]) * 1.15 or 1.0))
    wins_axis.set_title(f"{stats['ruleset']}: {stats['games']} games, seed {stats['seed']}")

    histogram = {int(length): count for length, count in stats["turns"]["histogram"].items()}
    length_axis.bar(list(histogram), list(histogram.values()), width=1.0, color="#55a868")
    median = stats["turns"]["median"]
    length_axis.axvline(median, color="black", linestyle="--", label=f"median {median}")
    length_axis.set_xlabel("game length (turns)")
    length_axis.set_ylabel("games")
    length_axis.legend()
    length_axis.set_title(f"turn-cap hits {stats['turn_cap_hits']}, draws {stats['draws']}")

    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
