"""The heuristic bot: legal whole games, and the choices it is meant to make."""

from __future__ import annotations

from engine.core.rng import Rng
from engine.games.monopoly_cars2 import turn
from engine.simulate import simulate
from tests.engine.monopoly_cars2.scenario import RULESET, card, new_state, own, play, top_card

BOT = RULESET.bot("heuristic")


def bot_choice(state) -> dict:
    [decision] = RULESET.pending(state)
    action = BOT.act(RULESET.view(state, decision.seat), decision, Rng(0))
    assert decision.allows(action)
    return action


def test_heuristic_bots_play_whole_games_against_random_ones():
    stats = simulate("monopoly-cars2", 60, 3, ["heuristic", "random"], None, seed=4)
    assert stats["games"] == 60 and sum(stats["wins"]) + stats["draws"] == 60


def test_takes_the_free_property_that_completes_its_pair():
    state = new_state(spins=[3])
    own(state, 0, "tokyo-ginza-street")
    top_card(state, card("free_property", colours=("pink", "orange")))
    play(state, 0, {"type": "roll"})
    assert bot_choice(state) == {"type": "choose_property", "space": 8}


def test_otherwise_takes_the_free_property_that_blocks_an_opponents_pair():
    state = new_state(spins=[3])
    own(state, 1, "santa-ruotina-square")
    top_card(state, card("free_property", colours=("red", "yellow")))
    play(state, 0, {"type": "roll"})
    assert bot_choice(state) == {"type": "choose_property", "space": 14}


def test_when_all_are_sold_goes_to_its_own_property():
    state = new_state(spins=[3], position=12)
    own(state, 1, "professor-z-oil-rig")
    own(state, 0, "world-grand-prix-finish")
    top_card(state, card("free_property", colours=("dark_blue",)))
    play(state, 0, {"type": "roll"})
    assert bot_choice(state) == {"type": "choose_property", "space": 23}


def test_moves_forward_to_avoid_a_rent_it_cannot_pay():
    state = new_state(spins=[3], money=4)
    own(state, 1, "ramones-house-of-body-art", "willys-butte", "tokyo-ginza-street", "tokyo-grand-prix-circuit")
    top_card(state, card("move_forward", max_spaces=5))
    play(state, 0, {"type": "roll"})
    assert bot_choice(state) == {"type": "move_forward", "spaces": 3}  # Prison, just visiting


def test_uses_the_jail_card_rather_than_paying():
    state = new_state(position=6, in_jail=True, jail_cards=[card("get_out_of_jail")])
    turn.start_turn(state, [])
    assert bot_choice(state) == {"type": "use_jail_card"}
