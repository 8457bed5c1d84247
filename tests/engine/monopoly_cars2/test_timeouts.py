"""What a seat too slow to choose its Chance move plays: never a move that ends the game with it short
while another does not, and the one that loses the least money (docs/rules/monopoly-cars2.md)."""

from __future__ import annotations

from engine.core.rng import Rng
from tests.engine.monopoly_cars2.scenario import RULESET, card, new_state, own, play, top_card

CHANCE_AT_15 = 15


def drawn(card_index: int, money: int, owners: dict[int, tuple[str, ...]], players: int = 3):
    """Seat 0 spins from Free Parking onto the Chance space at 15 and draws ``card_index``; its decision."""
    state = new_state(players, spins=[CHANCE_AT_15 - 12], position=12, money=money)
    for seat, spaces in owners.items():
        own(state, seat, *spaces)
    top_card(state, card_index)
    play(state, 0, {"type": "roll"})
    (decision,) = RULESET.pending(state)
    return state, decision


def timed_out(state, decision) -> dict:
    default = RULESET.timeout_action(state, decision, Rng(0))
    assert default == decision.to_dict()["default"]
    return default


def test_a_free_property_of_its_own_is_taken_over_a_rivals_it_cannot_pay_for():
    """The trap the lowest-numbered default walked into: the rival's Oil Rig (rent 5) with 3 in hand."""
    state, decision = drawn(card("free_property", colours=("dark_blue",)), 3,
                            {1: ("professor-z-oil-rig",), 0: ("world-grand-prix-finish",)})
    assert decision.kind == "chance_property" and [o["space"] for o in decision.options] == [22, 23]
    assert timed_out(state, decision) == {"type": "choose_property", "space": 23}
    play(state, 0, timed_out(state, decision))
    assert RULESET.result(state) is None and state.seats[0].money == 3


def test_a_free_property_among_rivals_goes_where_the_rent_is_cheapest():
    # Pink pair with seat 1 (rent 4 each), Paris with seat 1 and Tomber's with seat 2 (rent 2 each); from
    # 15 every one of them is past GO (+2): only the oranges cost nothing in the end.
    state, decision = drawn(card("free_property", colours=("pink", "orange")), 3,
                            {1: ("tokyo-ginza-street", "tokyo-grand-prix-circuit", "paris-parts-market"),
                             2: ("tombers-stall",)})
    assert [o["space"] for o in decision.options] == [7, 8, 10, 11]
    assert timed_out(state, decision) == {"type": "choose_property", "space": 10}


def test_a_chance_move_does_not_walk_into_a_rent_it_cannot_pay():
    """1 space lands on the rival's Casino (chariot rent 6 with the Harbour) with 4 in hand; 3 is prison."""
    state, decision = drawn(card("move_forward", max_spaces=3), 4,
                            {1: ("porto-corsa-casino", "porto-corsa-harbour")})
    assert decision.kind == "chance_move"
    assert timed_out(state, decision) == {"type": "move_forward", "spaces": 3}
    play(state, 0, timed_out(state, decision))
    assert RULESET.result(state) is None and state.seats[0].in_jail


def test_a_chance_move_does_not_walk_onto_a_purchase_it_cannot_afford():
    state, decision = drawn(card("move_forward", max_spaces=3), 2, {0: ("porto-corsa-harbour",)})
    assert timed_out(state, decision) == {"type": "move_forward", "spaces": 2}  # the Casino costs 3


def test_a_chance_move_that_costs_nothing_keeps_the_shortest_move():
    state, decision = drawn(card("move_forward", max_spaces=3), 10, {})
    assert timed_out(state, decision) == {"type": "move_forward", "spaces": 1}  # buying loses nothing
