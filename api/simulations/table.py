"""``rulehouse simulate``'s table: wins per seat, then per turn-order position with the first mover's
edge (in a game whose rulebook rolls for the first player, seat 0 is not the first mover)."""

from __future__ import annotations

from engine.experiments.report import edge
from engine.simulate import PositionTally, position_summary


def positions_of(summary: dict, players: int) -> dict:
    """A result's wins by turn-order position; none counted in a result of a service of a release
    before turn order (``--url`` reaches any), so that its table and plot still show its seats."""
    return summary.get("positions") or position_summary(PositionTally(players))


def ordinal(position: int) -> str:
    """0 -> "1st", 1 -> "2nd", ... (a turn-order position as a table says it)."""
    number = position + 1
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def _rate(rates: dict, index: int) -> str:
    """Wins, win rate and interval at ``index`` of a summary's (or its ``positions``') win figures."""
    low, high = rates["win_rate_ci95"][index]
    return f"{rates['wins'][index]:>7} {rates['win_rates'][index]:>7.3f}  [{low:.3f}, {high:.3f}]"


def format_table(stats: dict) -> str:
    positions = positions_of(stats, stats["players"])
    rows = [f"{stats['ruleset']}: {stats['games']} games, {stats['players']} players, seed {stats['seed']}, "
            f"rules version {stats['rules_version']}",
            f"{'seat':>4}  {'bot':12} {'wins':>7} {'rate':>7}  {'95% CI':16} {'moved first':>11}"]
    for seat, bot in enumerate(stats["bots"]):
        rows.append(f"{seat:>4}  {bot:12} {_rate(stats, seat)} {positions['first_movers'][seat]:>11}")
    counted = "" if positions["games"] == stats["games"] else f" (over the {positions['games']} games that counted it)"
    rows.append(f"{'turn order':18} {'wins':>7} {'rate':>7}  95% CI{counted}")
    for position in range(len(positions["wins"])):
        label = f"{ordinal(position)}{' (first mover)' if position == 0 else ''}"
        rows.append(f"{label:18} {_rate(positions, position)}")
    fair = 1 / stats["players"]
    first = edge(positions, positions["games"], fair)
    rows.append(f"first mover's edge {first['value']:+.3f} [{first['ci95'][0]:+.3f}, {first['ci95'][1]:+.3f}] "
                f"over a fair {fair:.3f}")
    turns = stats["turns"]
    rows.append(f"draws {stats['draws']}, turn-cap hits {stats['turn_cap_hits']}")
    rows.append(f"turns: mean {turns['mean']}, median {turns['median']}, p90 {turns['p90']}, max {turns['max']}")
    rows.append(f"{stats['games_per_s']} games/s")
    if stats.get("drama"):
        rows += drama_lines(stats["drama"])
    return "\n".join(rows)


def drama_lines(drama: dict) -> list[str]:
    """``--drama``: when the game is decided, comebacks, kingmaking and the skill index, with intervals."""
    def rate(entry: dict) -> str:
        return f"{entry['rate']:.3f} [{entry['ci95'][0]:.3f}, {entry['ci95'][1]:.3f}]"

    kingmaking, skill, decided = drama["kingmaking"], drama["skill_index"], drama["decided_at"]
    return [f"drama (win chances, calibration {drama['thresholds']['calibration']}): decided at "
            f"{decided['mean']:.3f} [{decided['ci95'][0]:.3f}, {decided['ci95'][1]:.3f}] of the turns, before "
            f"halfway {rate(drama['decided_before_half'])}",
            f"comebacks {rate(drama['comebacks'])}, "
            f"winner's lowest chance {drama['lowest_winner_chance']['mean']:.3f}, "
            f"lead changes on the chances {drama['chance_lead_changes']['mean']:.2f}",
            f"kingmaker games {rate(kingmaking['games'])}, spread {kingmaking['spread']['mean']:.3f}, changes the "
            f"winner {rate(kingmaking['changes_winner'])}",
            f"skill index {skill['value']:+.2f} [{skill['ci95'][0]:+.2f}, {skill['ci95'][1]:+.2f}] "
            f"({skill['strong']} against {skill['weak']}, {skill['games']} games)"]
