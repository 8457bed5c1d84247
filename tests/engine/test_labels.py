"""Every code a ruleset shows a person has words in its labels (engine/games/<game>/data/labels.json):
each event type, end reason, decision kind, action type and bot, and every table a template names.
The words themselves are read in a browser by tests/web/test_words.py."""

from __future__ import annotations

import re

import pytest

from engine.core.registry import all_rulesets
from tests.engine.invariants import play_random

RULESETS = sorted(all_rulesets())
#: a hole of a template: {field} or {field|formatter:argument...}
HOLE = re.compile(r"\{([^}|]*)(?:\|([^}]*))?\}")
FORMATTERS = {"text", "seat", "seats", "money", "space", "count", "dice", "term", "card", "each", "won", "per_seat"}
#: what a person never reads: an identifier (snake_case), a card code ("QS", "10C"), a bot's player id
CODE = re.compile(r"\b[a-z]+_[a-z0-9_]+\b|\b(?:[2-9]|10|[AJQK])[SHDC]\b|\bbot:")


def texts(template) -> list[str]:
    """The strings of a template: itself, or every choice of a ``{"case": ...}`` one."""
    if isinstance(template, str):
        return [template]
    assert set(template) <= {"case", "values", "else"} and "case" in template, template
    return [text for choice in [*template.get("values", {}).values(), template.get("else")] if choice is not None
            for text in texts(choice)]


def kinds_and_actions(ruleset_id: str) -> tuple[set[str], set[str]]:
    """The decision kinds and action types offered in seeded random games of the ruleset."""
    ruleset = all_rulesets()[ruleset_id]
    kinds: set[str] = set()
    types: set[str] = set()

    def seen(state, decisions):
        for decision in decisions:
            kinds.add(decision.kind)
            types.update(option["type"] for option in decision.options)

    for seed in range(4):
        play_random(ruleset, ruleset.max_players, seed, joins=0.02, on_step=seen)
    return kinds, types


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_every_event_end_reason_action_and_bot_has_a_label(ruleset_id):
    ruleset = all_rulesets()[ruleset_id]
    labels = ruleset.labels()
    assert set(ruleset.event_types) - set(labels["events"]) == set()
    assert set(labels["events"]) - set(ruleset.event_types) == set(), "a label for an event the ruleset never emits"
    assert set(ruleset.end_reasons) == set(labels["end_reasons"])
    assert set(ruleset.action_schemas) == set(labels["actions"])
    kinds, types = kinds_and_actions(ruleset_id)
    assert kinds - set(labels["decisions"]) == set()
    assert types <= set(ruleset.action_schemas)
    assert set(labels["terms"]["bots"]) == set(ruleset.bot_names())
    assert all(labels["terms"]["bots"].values()) and all(labels["terms"]["bot_about"].values())
    assert set(labels["ranged"]) <= set(ruleset.action_schemas)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_templates_name_known_formatters_and_tables_and_no_code(ruleset_id):
    labels = all_rulesets()[ruleset_id].labels()
    templates = [*labels["events"].values(), *labels["end_reasons"].values(), *labels["actions"].values(),
                 *labels["parts"].values()]
    holes = [hole for template in templates for text in texts(template) for hole in HOLE.findall(text)]
    assert len(holes) > 10
    for _field, format_ in holes:
        name, *args = (format_ or "text").split(":")
        assert name in FORMATTERS, format_
        if name == "term" or (name == "per_seat" and "term" in args):
            table = args[args.index("term") + 1] if name == "per_seat" else args[0]
            assert table in labels["terms"] or table == "end_reasons", format_
        if name == "each":
            assert args[0] in labels["parts"], format_
    words = [text for template in templates for text in texts(template)]
    words += [*labels["decisions"].values()] + [text for table in labels["terms"].values() for text in table.values()]
    words += [text for form in labels["ranged"].values() for text in form.values()]
    # A template's holes are codes by design ({seat|seat}); the words around them are not.
    assert [text for text in words if CODE.search(HOLE.sub("", text))] == []


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_every_phase_met_in_play_has_words(ruleset_id):
    """A board names the phase a game is in ("Phase: banking", not "deposit")."""
    ruleset = all_rulesets()[ruleset_id]
    phases: set[str] = set()
    for seed in range(3):
        state, _, _ = play_random(ruleset, ruleset.max_players, seed, joins=0.02,
                                  on_step=lambda state, decisions: phases.add(state.phase))
        phases.add(state.phase)
    assert "over" in phases and len(phases) > 2
    assert phases - set(ruleset.labels()["terms"]["phases"]) == set()
