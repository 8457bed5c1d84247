"""Every event type and end reason each ruleset can emit (the engine's lists, ``Ruleset.event_types``
and ``Ruleset.end_reasons``, and the service's own events) has words in the web table's script, and
real events of played games read as sentences."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from api.play.event_types import SERVICE_EVENT_TYPES, event_types
from engine.core.registry import all_rulesets
from tests.engine.invariants import play_random
from tests.web.pages import wait_data

WORDS_JS = Path(__file__).parents[2] / "api" / "web" / "static" / "js" / "words.js"


def _block(source: str, opening: str) -> str:
    start = source.index(opening)
    return source[start:source.index("\n}", start)]


def worded_event_types() -> set[str]:
    """The keys of words.js's EVENTS table (one `type: (e, c) => ...` per line)."""
    return set(re.findall(r"^  ([a-z_]+): \(", _block(WORDS_JS.read_text(), "const EVENTS = {"), re.M))


def worded_end_reasons() -> set[str]:
    return set(re.findall(r'case "([a-z_]+)": return', _block(WORDS_JS.read_text(), "export function endReason")))


def test_the_parser_reads_the_tables():
    assert {"game_created", "timed_out", "cannot_buy"} <= worded_event_types()
    assert {"turn_cap", "cannot_buy"} <= worded_end_reasons()


@pytest.mark.parametrize("ruleset_id", sorted(all_rulesets()))
def test_every_event_type_and_end_reason_has_words(ruleset_id):
    ruleset = all_rulesets()[ruleset_id]
    assert ruleset.event_types and ruleset.end_reasons
    assert set(event_types(ruleset)) - worded_event_types() == set()
    assert set(ruleset.end_reasons) - worded_end_reasons() == set()


def _sample_events() -> list[dict]:
    """Events of seeded random games of every ruleset (a few of each type), and the service's own."""
    samples: dict[tuple[str, str], list[dict]] = {}
    for ruleset_id, ruleset in sorted(all_rulesets().items()):
        for seed in range(6):
            players = ruleset.min_players + seed % (ruleset.max_players - ruleset.min_players + 1)
            _, _, events = play_random(ruleset, players, seed, joins=0.01)
            for event in events:
                kept = samples.setdefault((ruleset_id, event["type"]), [])
                if len(kept) < 3:
                    kept.append({"ruleset": ruleset_id, "event": event})
    service = [{"type": "game_created", "players": 3, "ruleset": "x"}, {"type": "table_started", "players": 3},
               {"type": "seat_joined", "seat": 1, "name": "Bo"}, {"type": "seat_left", "seat": 1, "name": "Bo"},
               {"type": "seat_removed", "seat": 2}, {"type": "seat_to_bot", "seat": 1, "name": "Bo", "bot": "random"},
               {"type": "timed_out", "seat": 0}, {"type": "game_aborted", "reason": "tournament_cancelled"}]
    assert {event["type"] for event in service} == set(SERVICE_EVENT_TYPES)
    return [entry for kept in samples.values() for entry in kept] + [{"ruleset": "", "event": e} for e in service]


#: what a sentence never shows: a missing field, a raw object or list, an identifier
UNREADABLE = re.compile(r"undefined|NaN|null|\[object|[{}\[\]]|[a-z]_[a-z]")


def test_events_of_played_games_read_as_sentences(service, browser):
    """words.js describes real events in the browser, each through its own sentence (not the fallback)."""
    browser.get(f"{service.url}/")
    wait_data(browser, "ready", "true")
    samples = _sample_events()
    results = browser.execute_async_script("""
        const [samples, done] = arguments;
        import('/web/static/js/words.js').then((words) => {
          const seats = ['Ann', 'Bo', 'Cy', 'Di', 'Ed', 'Flo', 'Gil', 'Hal'].map((name) => ({ name }));
          const ctx = words.makeContext(seats, (i) => `Place ${i}`, { bank: 'the bank' });
          done(samples.map(({ event }) => {
            try { return words.sentence(event, ctx); } catch (error) { return `FAILED ${error}`; }
          }));
        }, (error) => done([`FAILED import ${error}`]));""", samples)
    bad = [(entry["ruleset"], entry["event"], text) for entry, text in zip(samples, results, strict=True)
           if text.startswith("FAILED") or UNREADABLE.search(text) or not text.endswith((".", "!"))]
    assert len(results) > 300
    assert not bad, json.dumps(bad[:10], indent=1)


def test_every_decision_kind_met_in_play_has_a_heading():
    """The move panel heads each pending decision with a phrase ("Stand or lie down?"), not its kind."""
    table = _block(WORDS_JS.read_text(), "const DECISION_TITLES")
    titled = {name for pair in re.findall(r'^  ([a-z_]+): "|, ([a-z_]+): "', table, re.M) for name in pair if name}
    assert {"courage", "escape_pit"} <= titled  # the pattern reads the table
    kinds: set[tuple[str, str]] = set()
    for ruleset_id, ruleset in sorted(all_rulesets().items()):
        for seed in range(4):
            play_random(ruleset, ruleset.max_players, seed, joins=0.02,
                        on_step=lambda state, decisions, rid=ruleset_id: kinds.update((rid, d.kind) for d in decisions))
    assert {kind for _, kind in kinds} - titled == set()
