"""Every ruleset lists the event types and end reasons it can emit (``Ruleset.event_types``,
``Ruleset.end_reasons``), so a client can put each in words: the code and played games hold to the list."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.core.registry import all_rulesets
from tests.engine.invariants import play_random

RULESETS = sorted(all_rulesets())
#: an event built in the code: Event("type", ...)
EVENT_LITERAL = re.compile(r'Event\(\s*"([a-z_]+)"')


def _package_source(ruleset_id: str) -> str:
    package = Path(__import__(type(all_rulesets()[ruleset_id]).__module__, fromlist=["_"]).__file__).parent
    return "\n".join(path.read_text() for path in sorted(package.glob("*.py")))


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_the_list_names_every_event_the_code_builds_and_no_other(ruleset_id):
    ruleset = all_rulesets()[ruleset_id]
    built = set(EVENT_LITERAL.findall(_package_source(ruleset_id)))
    assert built, "no Event(...) found: the pattern no longer matches the code"
    assert len(set(ruleset.event_types)) == len(ruleset.event_types)
    assert built == set(ruleset.event_types)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_played_games_emit_only_listed_events_and_end_for_listed_reasons(ruleset_id):
    ruleset = all_rulesets()[ruleset_id]
    seen: set[str] = set()
    for seed in range(12):
        players = ruleset.min_players + seed % (ruleset.max_players - ruleset.min_players + 1)
        state, _, events = play_random(ruleset, players, seed, joins=0.01)
        seen.update(event["type"] for event in events)
        seen.update(event.type for event in ruleset.setup_events(ruleset.new_game(players, None, seed)))
        assert ruleset.result(state).reason in ruleset.end_reasons
    assert seen <= set(ruleset.event_types), seen - set(ruleset.event_types)
