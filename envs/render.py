"""The text ``render`` of both environments: what a spectator sees (no seat's secrets), in a few lines."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from envs.table import Table

#: view fields of a player row worth a column (the scalars; lists are shown by their length)
_SKIP = {"seat", "shown", "revealed"}


def _cell(value: object) -> str | None:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, str)):
        return str(value)
    if isinstance(value, list):
        return str(len(value))
    return None


def render_table(table: Table) -> str:
    ruleset, state = table.ruleset, table.state
    view = ruleset.view(state, None)
    lines = [f"{ruleset.title} — seed {table.seed}, turn {ruleset.turns(state)}, phase {view.get('phase', '?')}"]
    players = view.get("players") or []
    for seat, row in enumerate(players):
        cells = [f"{key}={text}" for key, value in row.items()
                 if key not in _SKIP and (text := _cell(value)) is not None]
        lines.append(f"  seat {seat}: " + " ".join(cells))
    result = table.result()
    if result is not None:
        lines.append(f"  over ({result.reason}): winners {result.winners}, scores {result.scores}")
    else:
        for decision in table.pending():
            offered = sorted({option["type"] for option in decision.options})
            lines.append(f"  seat {decision.seat} decides {decision.kind}: {', '.join(offered)}")
    return "\n".join(lines)
