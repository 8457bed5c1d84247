"""A game analysis told in words (``rulehouse analyse``): the chart, the key moments, the costliest
costly move with its interval and the luck-skill split with its drift, in percentage points of win chance."""

from __future__ import annotations

import json

#: The chart is told at these shares of the game's length.
CHART_POINTS = (0.0, 0.25, 0.5, 0.75, 1.0)


def _percent(chance: float) -> str:
    return f"{100 * chance:.0f}%"


def _points(change: float) -> str:
    return f"{100 * change:+.1f}"


def _action(action: dict | None) -> str:
    if action is None:
        return "-"
    rest = {key: value for key, value in action.items() if key != "type"}
    return action["type"] + (" " + json.dumps(rest, separators=(",", ":")) if rest else "")


def _events(events: list[dict], more: int) -> str:
    told = ", ".join(event["type"] for event in events)
    return told + (f" (+{more} more)" if more else "")


def describe(analysis: dict) -> list[str]:
    """Lines of text telling ``analysis`` (``engine.analysis.game.analyse``)."""
    chances = analysis["chances"]
    result = analysis["result"] or {}
    lines = [f"{analysis['ruleset']} (rules version {analysis['rules_version']}), {analysis['players']} seats, "
             f"{analysis['entries']} log entries; winners {result.get('winners')} ({result.get('reason')})",
             "", "Win chances along the game (version: seat 0, seat 1, ...):"]
    last = len(chances) - 1
    for share in CHART_POINTS:
        version = round(share * last)
        row = chances[version]
        lines.append(f"  {share:>4.0%} v{version:<6} " + "  ".join(_percent(chance) for chance in row))
    for seat in range(analysis["players"]):
        series = [(version, row[seat]) for version, row in enumerate(chances) if seat < len(row)]
        high = max(series, key=lambda pair: pair[1])
        low = min(series, key=lambda pair: pair[1])
        lines.append(f"  seat {seat}: highest {_percent(high[1])} at v{high[0]}, "
                     f"lowest {_percent(low[1])} at v{low[0]}")
    lines += ["", "Key moments (largest swings of one seat's chance):"]
    for moment in analysis["key_moments"]:
        lines.append(f"  v{moment['version']}: seat {moment['seat']} {_action(moment['action'])}: seat "
                     f"{moment['affected']} {_points(moment['swing'])} points (decision {_points(moment['decision'])}, "
                     f"chance {_points(moment['chance'])}, drift {_points(moment['drift'])}; {moment['cause']}): "
                     f"{_events(moment['events'], moment['more_events'])}")
    costliest = analysis["costliest_move"]
    costly = sum(move["costly"] for move in analysis["moves"])
    lines += ["", f"Costly moves: {costly} of {len(analysis['moves'])} moves with a choice (a cost beyond the "
              f"play-outs' noise, at a family-wise rate of {analysis['method']['costly_alpha']:g})."]
    if costliest is None:
        lines.append("Costliest move: none was costly.")
    else:
        low, high = costliest["cost_ci95"]
        lines.append(f"Costliest move: v{costliest['version']}, seat {costliest['seat']} played "
                     f"{_action(costliest['action'])} ({_percent(costliest['chosen'])}) where "
                     f"{_action(costliest['best_action'])} was worth {_percent(costliest['best'])}: "
                     f"{100 * costliest['cost']:.1f} points (95% interval {100 * low:.1f} to {100 * high:.1f})")
    lines += ["", "Luck-skill split, in points of win chance (skill + luck + others + drift = change; drift: what "
              "is neither skill nor luck; cost: the sum of the moves' costs; costly: its costly moves):",
              f"  {'seat':>4} {'start':>6} {'result':>6} {'change':>7} {'skill':>7} {'luck':>7} {'others':>7} "
              f"{'drift':>7} {'choices':>7} {'cost':>6} {'costly':>6}"]
    for part in analysis["split"]:
        lines.append(f"  {part['seat']:>4} {_percent(part['start']):>6} {_percent(part['result']):>6} "
                     f"{_points(part['change']):>7} {_points(part['skill']):>7} {_points(part['luck']):>7} "
                     f"{_points(part['others']):>7} {_points(part['drift']):>7} {part['decisions']:>7} "
                     f"{100 * part['cost']:>6.1f} {part['costly_moves']:>6}")
    return lines
