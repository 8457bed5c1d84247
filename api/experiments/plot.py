"""``rulehouse experiment --plot FILE.png``: the first mover's edge, seat 0's beside it, the mean game
length and the lead changes per variant (with ``drama``, a second row: decided at, comebacks, kingmaker
games, the skill index), each with its 95% interval as a band (a sweep: along its
first option, one line per value of the second) or as error bars (named variants). matplotlib is
imported only here."""

from __future__ import annotations

#: (title, the value and interval of a variant, whether 0 is the fair value: an edge)
MEASURES = (("first mover's edge", lambda v: (v["first_mover_edge"]["value"], v["first_mover_edge"]["ci95"]), True),
            ("seat 0's edge", lambda v: (v["first_seat_edge"]["value"], v["first_seat_edge"]["ci95"]), True),
            ("mean game length (turns)", lambda v: (v["turns"]["mean"], v["turns"]["mean_ci95"]), False),
            ("lead changes per game", lambda v: (v["lead_changes"]["mean"], v["lead_changes"]["ci95"]), False))
#: with ``drama``: one chart more per drama measure
DRAMA_MEASURES = (
    ("decided at (share of turns)", lambda v: (v["drama"]["decided_at"]["mean"], v["drama"]["decided_at"]["ci95"]),
     False),
    ("comebacks (games)", lambda v: (v["drama"]["comebacks"]["rate"], v["drama"]["comebacks"]["ci95"]), False),
    ("kingmaker games", lambda v: (v["drama"]["kingmaking"]["games"]["rate"],
                                   v["drama"]["kingmaking"]["games"]["ci95"]), False),
    ("skill index", lambda v: (v["drama"]["skill_index"]["value"], v["drama"]["skill_index"]["ci95"]), True))


def measures_of(state: dict) -> tuple:
    """The charts to draw: the drama's too when the experiment asked for it."""
    return MEASURES + (DRAMA_MEASURES if state["result"]["variants"][0].get("drama") else ())


def series(state: dict) -> list[tuple[str, list[dict]]]:
    """The lines to draw: (label, variants in x order). A sweep of one option is one line, of two
    options one line per value of the second; named variants are one categorical line."""
    variants = [v for v in state["result"]["variants"] if v["name"] != "base"]
    names = list(state["sweep"])
    if len(names) == 2:
        seconds = state["sweep"][names[1]]
        return [(f"{names[1]}={value}", [v for v in variants if v["point"][names[1]] == value]) for value in seconds]
    return [("", variants)]


def plot_experiment(state: dict, path: str) -> None:
    # matplotlib is optional (the plot extra) and slow to load: only for a plot, its Agg backend chosen first
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    swept = list(state["sweep"])
    measures = measures_of(state)
    rows = 1 + (len(measures) > len(MEASURES))
    figure, grid = plt.subplots(rows, len(MEASURES), figsize=(4.5 * len(MEASURES), 4.2 * rows), squeeze=False)
    axes = [axis for row in grid for axis in row]
    base = state["result"]["variants"][0]
    for axis, (title, read, is_edge) in zip(axes, measures, strict=True):
        for label, variants in series(state):
            values = [read(v) for v in variants]
            means = [m for m, _ in values]
            lows = [ci[0] for _, ci in values]
            highs = [ci[1] for _, ci in values]
            if swept and all(isinstance(v["point"][swept[0]], int | float) for v in variants):
                xs = [v["point"][swept[0]] for v in variants]
                axis.plot(xs, means, marker="o", label=label or None)
                axis.fill_between(xs, lows, highs, alpha=0.25)
                axis.set_xlabel(swept[0])
            else:
                xs = list(range(len(variants)))
                axis.errorbar(xs, means, yerr=[[m - lo for m, lo in zip(means, lows, strict=True)],
                                               [hi - m for m, hi in zip(means, highs, strict=True)]],
                              fmt="o", capsize=5, label=label or None)
                axis.set_xticks(xs, [v["name"] for v in variants], rotation=20, ha="right")
        base_mean, _ = read(base)
        axis.axhline(base_mean, color="grey", linestyle="--", linewidth=1, label="base")
        if is_edge:
            axis.axhline(0, color="black", linewidth=0.8, label="fair")
        axis.set_title(title)
        axis.legend(fontsize=8)
    figure.suptitle(state["result"]["summary"] or f"{state['ruleset']} experiment", fontsize=9)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
