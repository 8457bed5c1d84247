"""``rulehouse simulate --plot FILE.png``: win rates with their 95% intervals per seat and per turn-order
position, and game lengths (or, for a game whose every game lasts as long, the final scores).

matplotlib is the optional dependency group ``plot``; it is imported only here.
"""

from __future__ import annotations

from api.simulations.table import ordinal, positions_of


def plot_stats(stats: dict, path: str) -> None:
    figure = build_figure(stats)  # selects the Agg backend before pyplot is imported
    import matplotlib.pyplot as plt

    figure.savefig(path, dpi=100)
    plt.close(figure)


def build_figure(stats: dict):
    """The three charts: win rates per seat, per turn-order position, then game lengths (or, when every game
    lasts as long, scores)."""
    # matplotlib is optional (the plot extra) and slow to load: only for a plot, its Agg backend chosen first
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (wins_axis, positions_axis, length_axis) = plt.subplots(1, 3, figsize=(15, 4.5))
    seats = [f"seat {seat}\n{bot}" for seat, bot in enumerate(stats["bots"])]
    _win_rate_bars(wins_axis, stats, seats, "#4c72b0")
    wins_axis.set_title(f"{stats['ruleset']}: {stats['games']} games, seed {stats['seed']}")
    positions = positions_of(stats, stats["players"])
    labels = ["1st\n(first mover)", *(f"{ordinal(p)}" for p in range(1, stats["players"]))]
    _win_rate_bars(positions_axis, positions, labels, "#8172b2")
    positions_axis.axhline(1 / stats["players"], color="black", linestyle="--", linewidth=1, label="fair share")
    positions_axis.legend()
    positions_axis.set_title(f"by turn order ({positions['games']} games)")

    lengths = {int(length): count for length, count in stats["turns"]["histogram"].items()}
    if len(lengths) == 1 and stats.get("score_histogram"):
        _score_chart(length_axis, stats, next(iter(lengths)))
    else:
        _length_chart(length_axis, stats, lengths)

    figure.tight_layout()
    return figure


def _win_rate_bars(axis, rates: dict, labels: list[str], color: str) -> None:
    """Bars of ``rates['win_rates']`` with their ``win_rate_ci95`` as error bars."""
    values = rates["win_rates"]
    lows = [rate - low for rate, (low, _) in zip(values, rates["win_rate_ci95"], strict=True)]
    highs = [high - rate for rate, (_, high) in zip(values, rates["win_rate_ci95"], strict=True)]
    axis.bar(range(len(values)), values, yerr=[lows, highs], capsize=6, color=color)
    axis.set_xticks(range(len(values)), labels)
    axis.set_ylabel("win rate (95% CI)")
    axis.set_ylim(0, min(1.0, max(high for _, high in rates["win_rate_ci95"]) * 1.15 or 1.0))


def _length_chart(axis, stats: dict, lengths: dict[int, int]) -> None:
    from matplotlib.ticker import MaxNLocator  # matplotlib only for a plot (see build_figure)

    axis.bar(list(lengths), list(lengths.values()), width=1.0, color="#55a868")
    median = stats["turns"]["median"]
    axis.axvline(median, color="black", linestyle="--", label=f"median {median}")
    axis.xaxis.set_major_locator(MaxNLocator(integer=True))
    axis.set_xlabel("game length (turns)")
    axis.set_ylabel("games")
    axis.legend()
    axis.set_title(f"turn-cap hits {stats['turn_cap_hits']}, draws {stats['draws']}")


def _score_chart(axis, stats: dict, length: int) -> None:
    """Every game lasts ``length`` turns (e.g. Cash 'n Guns' 8 rounds): show how the scores spread instead."""
    scores = {int(score): count for score, count in stats["score_histogram"].items()}
    # The buckets widen with the score's magnitude; drawn as they are, they would mislead: re-bin evenly.
    axis.hist(list(scores), bins=min(30, len(scores)), weights=list(scores.values()), color="#55a868")
    axis.set_xlabel("final score (every seat)")
    axis.set_ylabel("seat-games")
    axis.set_title(f"every game {length} turns; draws {stats['draws']}")
