"""docs/bots.md states what each search level costs, as the classes say (the quotas count these)."""

from __future__ import annotations

import re
from pathlib import Path

from engine.bots.search import SEARCH_BOTS

ROOT = Path(__file__).resolve().parents[1]
MARKERS = ("<!-- search-costs:start -->", "<!-- search-costs:end -->")


def cost_table() -> str:
    """The table between the markers, made from ``engine.bots.search.SEARCH_BOTS``."""
    rows = ["| bot | level | sampled worlds a move | cost a move (engine actions, at most) |", "|---|---:|---:|---:|"]
    for name, bot in SEARCH_BOTS.items():
        same = next(other for other, found in SEARCH_BOTS.items() if found is bot)
        shown = f"`{name}`" if same == name else f"`{name}` (= `{same}`)"
        rows.append(f"| {shown} | {bot.level} | {bot.worlds():,} | {bot.cost_per_move:,} |")
    return "\n".join(rows)


def test_the_bots_guide_has_the_cost_of_every_search_level():
    text = (ROOT / "docs" / "bots.md").read_text()
    found = re.search(re.escape(MARKERS[0]) + r"\n(.*?)\n" + re.escape(MARKERS[1]), text, flags=re.DOTALL)
    assert found, f"docs/bots.md needs the table between {MARKERS}"
    assert found.group(1) == cost_table(), "put this table in docs/bots.md:\n" + cost_table()
