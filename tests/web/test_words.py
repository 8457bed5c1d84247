"""The words a person reads are the labels the service serves per ruleset (GET /v1/rulesets/{id}/labels,
from engine/games/<game>/data/labels.json and api/play/labels.json), put in sentences by words.js:
every event of played games, every decision heading and action button, and seats and bots by name, read
in a browser, show no code of the engine (snake_case identifiers, card codes like "QS", "bot:heuristic#a");
a table and its log of each ruleset show them too."""

from __future__ import annotations

import json
import re

import pytest
import requests
from selenium.webdriver.common.by import By

from api.play.event_types import SERVICE_EVENT_TYPES, event_types
from api.play.labels import service_labels
from engine.core.registry import all_rulesets
from tests.engine.invariants import play_random
from tests.web.pages import click_action, wait, wait_data

RULESETS = sorted(all_rulesets())
#: what a person never reads: a missing field, a raw object or list, an identifier, a card code, a bot's id,
#: a seat counted from 0
UNREADABLE = re.compile(r"undefined|NaN|null|\[object|[{}\[\]]|\b[a-z]+_[a-z0-9_]+\b|\b(?:[2-9]|10|[AJQK])[SHDC]\b"
                        r"|bot:|\bseat \d")


def test_the_service_labels_its_own_events_and_seats():
    assert set(service_labels()["events"]) == set(SERVICE_EVENT_TYPES)
    assert {"seat", "bot_seat", "open_seat", "nobody"} <= set(service_labels()["seats"])


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_the_served_labels_cover_every_event_type_and_are_cached(service, ruleset_id):
    url = f"{service.url}/v1/rulesets/{ruleset_id}/labels"
    answer = requests.get(url, timeout=10)
    assert answer.status_code == 200
    labels = answer.json()
    assert set(event_types(all_rulesets()[ruleset_id])) == set(labels["events"])
    assert set(all_rulesets()[ruleset_id].end_reasons) == set(labels["end_reasons"])
    again = requests.get(url, headers={"If-None-Match": answer.headers["ETag"]}, timeout=10)
    assert again.status_code == 304 and again.headers["ETag"] == answer.headers["ETag"]
    assert requests.get(f"{service.url}/v1/rulesets/{ruleset_id}", timeout=10).json()["links"]["labels"] == \
        f"/v1/rulesets/{ruleset_id}/labels"


def _samples() -> list[dict]:
    """Per ruleset: events of seeded random games (a few of each type), the service's own, and every
    decision and action offered."""
    samples = []
    for ruleset_id, ruleset in sorted(all_rulesets().items()):
        events: dict[str, list[dict]] = {}
        offered: dict[str, dict] = {}

        parts: list = []

        def seen(state, decisions, offered=offered, parts=parts, ruleset=ruleset):
            deal = ruleset.view(state, None).get("deal") if ruleset.id == "hitchiker" else None
            if deal and len(parts) < 5:  # the black market's deal, as the board shows it
                parts.append(["deal", deal])
            for decision in decisions:
                for option in decision.options:
                    offered.setdefault(json.dumps([decision.kind, option], sort_keys=True), option)

        for seed in range(6):
            players = ruleset.min_players + seed % (ruleset.max_players - ruleset.min_players + 1)
            _, _, played = play_random(ruleset, players, seed, joins=0.01, on_step=seen)
            for event in played:
                kept = events.setdefault(event["type"], [])
                if len(kept) < 3:
                    kept.append(event)
        service = [{"type": "game_created", "players": 3, "ruleset": "x"}, {"type": "table_started", "players": 3},
                   {"type": "seat_joined", "seat": 1, "name": "Bo"}, {"type": "seat_left", "seat": 1, "name": "Bo"},
                   {"type": "seat_removed", "seat": 2}, {"type": "timed_out", "seat": 0},
                   {"type": "seat_to_bot", "seat": 1, "name": "Bo", "bot": "heuristic"},
                   {"type": "game_aborted", "reason": "tournament_cancelled"}]
        samples.append({"ruleset": ruleset_id, "events": [e for kept in events.values() for e in kept] + service,
                        "decisions": sorted({json.loads(key)[0] for key in offered}),
                        "actions": list(offered.values()), "bots": ruleset.bot_names(), "parts": parts})
    return samples


READ_ALL = """
    const [samples, done] = arguments;
    Promise.all([import('/web/static/js/words.js'),
                 ...samples.map((s) => fetch(`/v1/rulesets/${s.ruleset}/labels`).then((answer) => answer.json()))])
      .then(([words, ...labels]) => done(samples.map((sample, index) => {
        // Seat 5 has no name (a bot seat, "Seat 6 · …"), seat 6 a bot's player id as its name.
        const seats = ['Ann', 'Bo', 'Cy', 'Di', 'Ed'].map((name) => ({ name }))
          .concat([{ name: null, bot: 'heuristic' }, { name: 'bot:heuristic#a', bot: 'heuristic' }, { name: 'Hal' }]);
        const ctx = words.makeContext(seats, (i) => `Place ${i}`, { bank: 'the bank' }, '$', labels[index]);
        const strict = (make) => { try { return make(); } catch (error) { return `FAILED ${error}`; } };
        return {
          events: sample.events.map((event) => strict(() => words.sentence(event, ctx))),
          decisions: sample.decisions.map((kind) => (Object.hasOwn(labels[index].decisions, kind)
            ? words.decisionTitle(kind, ctx) : `FAILED no heading for ${kind}`)),
          actions: sample.actions.map((action) => (Object.hasOwn(labels[index].actions, action.type)
            ? words.actionLabel(action, ctx) : `FAILED no label for ${action.type}`)),
          seats: [5, 6, 9].map(ctx.who),
          parts: sample.parts.map(([name, values]) => ctx.part(name, values) ?? `FAILED no part ${name}`),
          bots: sample.bots.map((bot) => ctx.term('bots', bot)),
          ranged: Object.keys(labels[index].ranged).map((type) => {
            const form = words.rangedLabels(type, { amount: [1, 21000] }, ctx);
            return `${form.button}: ${Object.values(form.inputs).join(', ')}`;
          }),
        };
      })), (error) => done([`FAILED import ${error}`]));"""


def test_events_actions_and_seats_of_every_ruleset_read_as_words(service, browser):
    """words.js fills the served labels in the browser: every sample through its own label (not the
    fallback), and nothing a person reads is a code."""
    browser.get(f"{service.url}/")
    wait_data(browser, "ready", "true")
    samples = _samples()
    results = browser.execute_async_script(READ_ALL, samples)
    bad = []
    for sample, read in zip(samples, results, strict=True):
        assert len(read["events"]) == len(sample["events"]) and read["actions"] and read["decisions"]
        for part, texts in read.items():
            bad += [(sample["ruleset"], part, text) for text in texts
                    if text.startswith("FAILED") or UNREADABLE.search(text)]
        bad += [(sample["ruleset"], "event", text) for text in read["events"] if not text.endswith((".", "!"))]
        assert read["seats"] == ["Seat 6 · Heuristic bot", "Seat 7 · Heuristic bot", "Seat 10"]
    assert sum(len(read["events"]) for read in results) > 300
    assert not bad, json.dumps(bad[:10], indent=1)
    hitchiker = results[RULESETS.index("hitchiker")]
    casino = " ".join(hitchiker["events"])
    assert "Casino" in casino and re.search(r"(Queen|King|Jack|Ace) of (spades|hearts|diamonds|clubs) \(", casino)
    assert "Amount to risk (1\N{EN DASH}21,000)" in " ".join(hitchiker["ranged"])
    assert "Move forward 1 space" in results[RULESETS.index("monopoly-cars2")]["actions"]
    assert any(" on a deal; " in part for part in hitchiker["parts"]), hitchiker["parts"]


#: ruleset: (seed, players) of a short table played by clicking
TABLES = {"monopoly-cars2": (3, 3), "cash-n-guns": (4, 4), "whipcash": (5, 3), "hitchiker": (6, 3)}
CLICKS = 3


def page_texts(driver) -> dict:
    """What a person reads on a table: the seats, the log, the move panel and the board's words."""
    return driver.execute_script("""
        const text = (selector) => [...document.querySelectorAll(selector)].map((node) => node.innerText);
        return {seats: text('#seats li'), log: text('#log li'), decisions: text('#decisions'),
                board: text('#board')};""")


@pytest.mark.parametrize("ruleset_id", sorted(TABLES))
def test_a_table_and_its_log_show_labels_not_codes(service, browser, ruleset_id):
    seed, players = TABLES[ruleset_id]
    seats = [{"name": "Ann"}, {"bot": "heuristic"}] + [{"name": f"Bot {seat + 1}", "bot": "random"}
                                                      for seat in range(2, players)]
    game = requests.post(f"{service.url}/v1/games", json={"ruleset": ruleset_id, "seed": seed, "seats": seats},
                         timeout=10).json()
    browser.get(f"{service.url}/table/{game['id']}#seat=0&token={game['seats'][0]['token']}")
    wait_data(browser, "live", "true")
    for _ in range(CLICKS):
        if click_action(browser) is None:
            break
    wait(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#log li")) >= 3, message="the log stayed short")
    texts = page_texts(browser)
    assert any(line.startswith("Seat 2") and "Heuristic bot" in line for line in texts["seats"]), texts["seats"]
    assert any("Random bot" in line for line in texts["seats"]) or players == 2
    codes = {part: [text for text in values if UNREADABLE.search(text.replace("(open seat)", ""))]
             for part, values in texts.items()}
    assert codes == {"seats": [], "log": [], "decisions": [], "board": []}, codes
