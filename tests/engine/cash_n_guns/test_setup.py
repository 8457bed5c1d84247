"""Setup, the loot deck data and its overrides, and the default of every decision."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.core.errors import InvalidOptions
from engine.core.rng import Rng
from engine.games.cash_n_guns.cards import DECK, DeckDataError, parse_deck_data
from tests.engine.cash_n_guns.helpers import RULES, new_game
from tests.engine.invariants import play_random


def test_setup_deals_eight_piles_of_eight_and_eight_bullets_each():
    state = RULES.new_game(6, None, 5)
    dealt = Counter(state.lineup + [card for pile in state.piles for card in pile])
    assert dealt == Counter(DECK.counts) and sum(dealt.values()) == 64
    assert len(state.lineup) == 8 and [len(p) for p in state.piles] == [8] * 7
    assert all((g.clicks, g.bangs) == (5, 3) for g in state.gangsters)
    assert state.godfather == 0 and state.turn == 0 and state.phase == "bullets"
    assert sorted(d.seat for d in RULES.pending(state)) == list(range(6))


def test_the_published_deck_counts():
    assert DECK.counts == {
        "bill_20000": 10, "bill_10000": 15, "bill_5000": 15,
        "diamond_10000": 1, "diamond_5000": 3, "diamond_1000": 5,
        "painting": 10, "first_aid": 2, "clip": 3,
    }
    assert RULES.money_in_play(new_game(4)) == 425_000 + 30_000


def test_a_custom_deck_is_dealt_and_a_bad_one_is_rejected_with_field_messages():
    state = RULES.new_game(4, {"deck": {"bill_5000": 60, "painting": 4}, "diamond_bonus": 0}, 1)
    assert Counter(state.lineup + [c for p in state.piles for c in p]) == {"bill_5000": 60, "painting": 4}
    assert state.diamond_bonus == 0
    with pytest.raises(InvalidOptions) as caught:
        RULES.new_game(4, {"deck": {"bill_5000": 63}}, 1)
    assert "64" in caught.value.fields["deck"][0]
    with pytest.raises(InvalidOptions) as caught:
        RULES.new_game(4, {"deck": {"gold_bar": 64}}, 1)
    assert "gold_bar" in caught.value.fields["deck"][0]
    with pytest.raises(InvalidOptions) as caught:
        RULES.new_game(4, {"painting_set_values": [1000, 2000]}, 1)
    assert "painting_set_values" in caught.value.fields
    with pytest.raises(InvalidOptions):
        RULES.new_game(9, None, 1)


def test_the_shipped_data_is_validated_on_load():
    with pytest.raises(DeckDataError) as caught:
        parse_deck_data({"cards": [{"id": "x", "kind": "gold", "value": -1, "count": 64}], "piles": 8,
                         "pile_size": 8, "bullets": {"click": 5, "bang": 3}, "painting_set_values": [],
                         "diamond_bonus": 60000})
    assert len(caught.value.fields["cards"]) == 2


def test_every_decision_has_a_legal_default_as_documented():
    defaults: dict[str, set] = {}

    def record(state, decisions):
        for decision in decisions:
            default = decision.default_action()
            assert decision.allows(default)
            defaults.setdefault(decision.kind, set()).add(repr(sorted(default.items())))

    for seed in range(12):
        play_random(RULES, 4 + seed % 5, seed, on_step=record)
    assert defaults["aim"] == {repr([("target", None), ("type", "aim")])}
    assert defaults["courage"] == {repr([("stand", True), ("type", "courage")])}
    assert defaults["privilege"] == {repr([("target", None), ("type", "privilege")])}
    # Click when the hand holds one, else the Bang! (the only card there is to toss).
    assert defaults["clip_discard"] <= {repr([("card", card), ("type", "clip_discard")]) for card in ("click", "bang")}
    assert set(defaults) == {"choose_bullet", "aim", "privilege", "retarget", "courage", "take_loot", "clip_discard"}


def test_the_loot_default_is_the_first_card_of_the_lineup_in_catalog_order():
    state = new_game(4, ["bill_10000", "diamond_1000", "painting"])
    state.phase, state.picker = "loot", 2
    (decision,) = RULES.pending(state)
    assert decision.default_action() == {"type": "take_loot", "card": "bill_10000"}
    assert decision.options[-1] == {"type": "take_godfather_token"}


def test_random_games_last_eight_rounds_unless_everyone_else_dies():
    lengths = Counter()
    for seed in range(40):
        state, _, _ = play_random(RULES, 4 + seed % 5, seed)
        result = RULES.result(state)
        lengths[state.turn] += 1
        assert state.turn == 8 or result.reason in ("last_standing", "all_dead")
    assert lengths[8] > 0


def test_the_same_seed_deals_the_same_piles():
    assert RULES.new_game(5, None, 42) == RULES.new_game(5, None, 42)
    assert RULES.new_game(5, None, 42).piles != RULES.new_game(5, None, 43).piles
    assert Rng(1).randint(0, 10) == Rng(1).randint(0, 10)
