"""Scenario tests: every Chance card kind, choices from cards, and the pile recycling."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalAction
from engine.games.monopoly_cars2 import turn
from engine.games.monopoly_cars2.state import CHOOSE_MOVE, CHOOSE_PROPERTY, ROLL
from engine.games.monopoly_cars2.tables import DEFAULT_TABLES
from tests.engine.monopoly_cars2.scenario import (
    BOARD,
    CARDS,
    NOBODY,
    RULESET,
    card,
    first,
    new_state,
    own,
    play,
    space,
    top_card,
)

CHANCE_AT_3 = 3
CHANCE_AT_15 = 15


def draw(card_index: int, *, spins=(), position: int = 0, spin: int = CHANCE_AT_3, **seat0):
    """Seat 0 spins onto a Chance space and draws ``card_index``."""
    state = new_state(spins=[spin - position, *spins], position=position, **seat0)
    top_card(state, card_index)
    events = play(state, 0, {"type": "roll"})
    assert first(events, "chance") == {"seat": 0, "card": card_index, "kind": CARDS[card_index].kind}
    return state, events


def test_the_published_deck_has_16_cards_of_every_kind():
    assert len(CARDS) == 16
    kinds = {c.kind for c in CARDS}
    assert kinds == {"advance_to_go", "go_to_space", "free_property", "pay_bank", "collect",
                     "get_out_of_jail", "move_forward"}
    assert sorted(c.amount for c in CARDS if c.kind == "pay_bank") == [1, 2, 3]


def test_advance_to_go_collects_two():
    state, events = draw(card("advance_to_go"))
    assert state.seats[0].position == 0
    assert state.seats[0].money == 20
    assert first(events, "collected")["for"] == "go"


def test_go_to_a_named_space_buys_it_when_unowned():
    casino = space("porto-corsa-casino")
    state, events = draw(card("go_to_space", space=casino))
    assert first(events, "bought") == {"seat": 0, "space": casino, "price": 3}
    assert state.seats[0].position == casino and state.owners[casino] == 0
    assert state.seats[0].money == 15


def test_go_to_a_named_space_pays_rent_when_owned_and_collects_go_when_passing_it():
    butte = space("willys-butte")
    state = new_state(spins=[CHANCE_AT_15 - 12], position=12)
    own(state, 1, "willys-butte", "ramones-house-of-body-art")
    top_card(state, card("go_to_space", space=butte))
    events = play(state, 0, {"type": "roll"})
    assert state.seats[0].position == butte
    assert first(events, "collected") == {"seat": 0, "amount": 2, "for": "go"}
    assert first(events, "paid_rent")["amount"] == 2  # the chariot rent of the pair
    assert state.seats[0].money == 18 + 2 - 2


def test_free_property_is_a_choice_among_the_unsold_spaces_of_its_colours():
    pink_or_orange = card("free_property", colours=("pink", "orange"))
    state, _ = draw(pink_or_orange, spins=[])
    own(state, 1, "tokyo-ginza-street")
    assert state.phase == CHOOSE_PROPERTY and state.current == 0 and state.turn == 0
    [decision] = RULESET.pending(state)
    assert decision.kind == "chance_property"
    assert decision.options == [{"type": "choose_property", "space": s} for s in (8, 10, 11)]
    with pytest.raises(IllegalAction) as caught:
        play(state, 0, {"type": "choose_property", "space": 7})
    assert caught.value.reason == "option_not_allowed"
    events = play(state, 0, {"type": "choose_property", "space": 10})
    assert first(events, "took_free_property") == {"seat": 0, "space": 10}
    assert state.owners[10] == 0 and state.seats[0].position == 10
    assert state.seats[0].money == 18  # free
    assert state.current == 1 and state.phase == ROLL and state.turn == 1


def test_free_property_with_one_unsold_space_takes_it_without_asking():
    green = card("free_property", colours=("green",))
    state = new_state(spins=[3], position=12)
    own(state, 1, "buckingham-palace")
    top_card(state, green)
    events = play(state, 0, {"type": "roll"})
    assert first(events, "took_free_property") == {"seat": 0, "space": space("big-bentley")}
    assert state.current == 1


def test_free_property_when_all_are_sold_the_seat_picks_one_and_pays_its_rent():
    dark_blue = card("free_property", colours=("dark_blue",))
    state = new_state(spins=[3], position=12)
    own(state, 1, "professor-z-oil-rig")
    own(state, 0, "world-grand-prix-finish")
    top_card(state, dark_blue)
    play(state, 0, {"type": "roll"})
    [decision] = RULESET.pending(state)
    assert decision.options == [{"type": "choose_property", "space": 22}, {"type": "choose_property", "space": 23}]
    events = play(state, 0, {"type": "choose_property", "space": 22})
    assert first(events, "paid_rent") == {"seat": 0, "owner": 1, "space": 22, "amount": 5, "due": 5}
    assert state.seats[0].money == 13


def test_pay_the_bank():
    for amount in (1, 2, 3):
        state, events = draw(card("pay_bank", amount=amount))
        assert state.seats[0].money == 18 - amount and state.bank == amount
        assert first(events, "paid_bank") == {"seat": 0, "amount": amount, "due": amount, "for": "chance"}


def test_pay_the_bank_without_the_money_ends_the_game():
    state, _ = draw(card("pay_bank", amount=3), money=2)
    result = RULESET.result(state)
    assert (result.reason, result.winners, state.seats[0].money, state.bank) == ("cannot_pay_bank", [1], 0, 2)


def test_collect_two_from_the_bank():
    state, events = draw(card("collect"))
    assert state.seats[0].money == 20 and state.bank == -2
    assert first(events, "collected") == {"seat": 0, "amount": 2, "for": "chance"}


def test_get_out_of_jail_free_is_kept_out_of_the_pile_until_used():
    jail_card = card("get_out_of_jail")
    state, _ = draw(jail_card)
    assert state.seats[0].jail_cards == [jail_card]
    assert jail_card not in state.pile and len(state.pile) == 15
    assert RULESET.view(state, 1)["players"][0]["jail_cards"] == [jail_card]


def test_move_forward_is_a_choice_of_1_to_n_spaces_then_lands():
    boost = card("move_forward", max_spaces=5)
    state, _ = draw(boost)
    assert state.phase == CHOOSE_MOVE
    [decision] = RULESET.pending(state)
    assert decision.kind == "chance_move"
    assert decision.options == [{"type": "move_forward", "spaces": n} for n in range(1, 6)]
    events = play(state, 0, {"type": "move_forward", "spaces": 2})
    assert state.seats[0].position == 5 and state.owners[5] == 0
    assert first(events, "bought")["space"] == 5
    assert state.current == 1


def test_move_forward_onto_another_chance_draws_again():
    state, _ = draw(card("move_forward", max_spaces=3), position=0, spin=CHANCE_AT_3)
    state.seats[0].position = 7
    top_card(state, card("collect"))
    events = play(state, 0, {"type": "move_forward", "spaces": 2})
    assert first(events, "chance")["kind"] == "collect"
    assert state.seats[0].money == 20


def test_move_forward_onto_go_to_prison_jails():
    state, _ = draw(card("move_forward", max_spaces=3), spin=CHANCE_AT_15, position=12)
    play(state, 0, {"type": "move_forward", "spaces": 3})
    assert state.seats[0].in_jail and state.seats[0].position == BOARD.jail


def test_a_read_card_goes_to_the_bottom_and_a_one_card_pile_recycles():
    collect = card("collect")
    state = new_state(spins=[3, 3, 3])
    state.pile = [collect]
    for _ in range(3):
        state.seats[state.current].position = 0
        play(state, state.current, {"type": "roll"})
        assert state.pile == [collect]
    assert [seat.money for seat in state.seats] == [22, 20]


def test_the_whole_pile_comes_round_in_order_without_the_kept_jail_card():
    state = new_state()
    state.seats[0].money = 1000
    order = list(state.pile)
    drawn = []
    for _ in range(len(order) + 1):
        state.seats[0].position = CHANCE_AT_3
        state.phase, state.card = ROLL, -1
        events = []
        turn.draw_chance(state, DEFAULT_TABLES, 0, events)
        drawn.append(first(events, "chance")["card"])
    jail_card = card("get_out_of_jail")
    assert drawn[:16] == order
    assert state.seats[0].jail_cards == [jail_card]
    assert drawn[16] == next(c for c in order if c != jail_card)


def test_no_owner_changes_without_a_card_choice():
    state, _ = draw(card("pay_bank", amount=1))
    assert all(owner == NOBODY for owner in state.owners)
