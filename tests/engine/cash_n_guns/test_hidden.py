"""Hidden information: secret choices stay secret until their reveal, in views and in events."""

from __future__ import annotations

import json

from engine.core.rng import Rng
from tests.engine.cash_n_guns.helpers import RULES, act, aim, choose_bullets, new_game

SECRET_KEYS = {"card", "target", "stand"}


def visible_data(events, seat):
    return [e.to_dict() for e in events if e.visible(seat)]


def test_a_chosen_bullet_shows_in_nobody_elses_view_or_events():
    with_bang, with_click = new_game(4), new_game(4)
    bang_events = act(with_bang, 0, {"type": "choose_bullet", "card": "bang"})
    click_events = act(with_click, 0, {"type": "choose_bullet", "card": "click"})
    for seat in (None, 1, 2, 3):
        assert RULES.view(with_bang, seat) == RULES.view(with_click, seat)
        assert visible_data(bang_events, seat) == visible_data(click_events, seat)
        assert all(not SECRET_KEYS & set(e) for e in visible_data(bang_events, seat))
    assert RULES.view(with_bang, 0)["bullet"] == "bang"
    assert RULES.view(with_bang, 0)["hand"] == {"click": 5, "bang": 2}
    assert RULES.view(with_bang, 1)["players"][0]["has_chosen"] is True
    assert "hand" not in RULES.view(with_bang, None)


def test_aims_are_hidden_until_everyone_has_aimed_then_public():
    states = [new_game(4), new_game(4)]
    for state, target in zip(states, (2, 3), strict=True):
        choose_bullets(state, {s: "click" for s in range(4)})
        events = aim(state, {0: target})
        assert all(not SECRET_KEYS & set(e) for e in visible_data(events, 1))
    assert RULES.view(states[0], 1) == RULES.view(states[1], 1)
    assert RULES.view(states[0], 0)["players"][0]["target"] == 2
    aim(states[0], {1: 0, 2: 3, 3: 0})
    assert [p["target"] for p in RULES.view(states[0], 1)["players"]] == [2, 0, 3, 0]


def test_courage_choices_are_secret_until_all_are_made():
    states = [new_game(4), new_game(4)]
    for state, stand in zip(states, (True, False), strict=True):
        choose_bullets(state, {s: "click" for s in range(4)})
        aim(state, {0: 1, 1: 2, 2: 3, 3: 0})
        act(state, 0, {"type": "privilege", "target": None})
        events = act(state, 2, {"type": "courage", "stand": stand})
        assert all(not SECRET_KEYS & set(e) for e in visible_data(events, 1))
    for seat in (None, 0, 1, 3):
        assert RULES.view(states[0], seat) == RULES.view(states[1], seat)
    assert RULES.view(states[1], 2)["players"][2]["standing"] is False


def test_cards_discarded_face_down_stay_secret():
    states = [new_game(4), new_game(4)]
    for state, card in zip(states, ("bang", "click"), strict=True):
        choose_bullets(state, {0: "click", 1: card, 2: "click", 3: "click"})
        aim(state, {0: 1, 1: 2, 2: 3, 3: 0})
        act(state, 0, {"type": "privilege", "target": None})
        events = [e for s in range(4) for e in act(state, s, {"type": "courage", "stand": s != 1})]
        assert all("bang" not in json.dumps(e) for e in visible_data(events, 2))
    assert RULES.view(states[0], 2) == RULES.view(states[1], 2)
    assert RULES.view(states[0], 2)["players"][1]["face_down_discards"] == 1


def test_resampling_changes_what_a_seat_cannot_see_and_nothing_it_can():
    state = new_game(5)
    choose_bullets(state, {0: "bang", 1: "click", 2: "bang", 3: "click", 4: "bang"})
    rng = Rng(3)
    seen_choices, seen_piles = set(), set()
    for _ in range(30):
        other = RULES.resample_hidden(state, 0, rng)
        assert RULES.view(other, 0) == RULES.view(state, 0)
        assert other.gangsters[0] == state.gangsters[0]
        seen_choices.add(tuple(g.chosen for g in other.gangsters[1:]))
        seen_piles.add(json.dumps(other.piles))
        for g, original in zip(other.gangsters, state.gangsters, strict=True):
            assert g.clicks + g.bangs == original.clicks + original.bangs
            assert g.clicks + g.bangs + (g.chosen == "click") + (g.chosen == "bang") == 8
            assert [g.bangs + (g.chosen == "bang")] == [original.bangs + (original.chosen == "bang")]
    assert len(seen_choices) > 1 and len(seen_piles) > 1


def test_views_never_carry_the_rng_or_the_undealt_piles():
    state = new_game(4)
    text = json.dumps(RULES.view(state, None))
    assert "rng" not in text and "piles\"" not in text
    assert RULES.view(state, None)["piles_left"] == 7
