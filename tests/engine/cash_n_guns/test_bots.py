"""The heuristic bot: legal moves from the view alone, and sensible choices."""

from __future__ import annotations

from engine.core.rng import Rng
from engine.simulate import simulate
from tests.engine.cash_n_guns.helpers import RULES, aim, choose_bullets, new_game, shoot_out

BOT = RULES.bot("heuristic")


def bot_move(state, seat):
    decision = next(d for d in RULES.pending(state) if d.seat == seat)
    action = BOT.act(RULES.view(state, seat), decision, Rng(0))
    assert decision.allows(action)
    return action


def test_heuristic_beats_random_seats_in_a_short_run():
    stats = simulate("cash-n-guns", 60, 5, ["heuristic", "random"], seed=11)
    assert stats["wins"][0] > 2 * max(stats["wins"][1:])


def test_it_saves_bang_cards_for_rich_lineups():
    poor = new_game(4, ["bill_5000"] * 8)
    rich = new_game(4, ["bill_20000"] * 8)
    assert bot_move(poor, 1)["card"] == "click"
    assert bot_move(rich, 1)["card"] == "bang"
    poor.gangsters[1].clicks = 0
    assert bot_move(poor, 1)["card"] == "bang"


def test_it_aims_at_the_richest_rival():
    state = new_game(4)
    state.gangsters[2].loot = ["bill_20000"]
    choose_bullets(state, {s: "click" for s in range(4)})
    assert bot_move(state, 0) == {"type": "aim", "target": 2}


def test_it_lies_down_facing_several_guns_and_stands_facing_none():
    state = new_game(4)
    choose_bullets(state, {s: "bang" for s in range(4)})
    aim(state, {0: 1, 1: 0, 2: 0, 3: 0})
    if state.phase == "privilege":
        RULES.apply(state, 0, {"type": "privilege", "target": None})
    assert bot_move(state, 0) == {"type": "courage", "stand": False}
    assert bot_move(state, 2) == {"type": "courage", "stand": True}


def test_the_godfather_orders_a_gunman_aiming_at_him_to_retarget():
    state = new_game(4)
    choose_bullets(state, {s: "click" for s in range(4)})
    aim(state, {0: 1, 1: 2, 2: 0, 3: 1})
    assert bot_move(state, 0) == {"type": "privilege", "target": 2}


def test_it_takes_the_card_worth_most_to_it():
    state = new_game(4, ["bill_10000", "painting", "first_aid"])
    state.gangsters[0].loot = ["painting", "painting"]
    state.gangsters[1].wounds = 2
    shoot_out(state, {s: "click" for s in range(4)}, {0: 1, 1: 2, 2: 3, 3: 0})
    assert bot_move(state, 0) == {"type": "take_loot", "card": "painting"}
    RULES.apply(state, 0, {"type": "take_loot", "card": "painting"})
    assert bot_move(state, 1) == {"type": "take_loot", "card": "first_aid"}


def _is_part(part, whole) -> bool:
    """``part`` has some of ``whole``'s keys (in every dict, lists item by item), each with the same value."""
    if isinstance(part, dict):
        return isinstance(whole, dict) and all(key in whole and _is_part(value, whole[key])
                                               for key, value in part.items())
    if isinstance(part, list):
        return (isinstance(whole, list) and len(part) == len(whole)
                and all(map(_is_part, part, whole)))
    return type(part) is type(whole) and part == whole


def test_the_bots_view_is_part_of_the_seats_view_and_gives_the_same_moves():
    # The heuristic bot reads heuristic_view (cheaper) instead of the full view: it must show
    # nothing the full view does not, and the bot must move the same from either.
    from engine.games.cash_n_guns.view import heuristic_view

    checked = 0
    for seed in range(3):
        state = RULES.new_game(4, None, seed)
        rng = Rng(seed)
        while pending := RULES.pending(state):
            decision = pending[0]
            part = heuristic_view(state, decision.seat)
            whole = RULES.view(state, decision.seat)
            assert _is_part(part, whole)
            assert BOT.act(part, decision, Rng(seed)) == BOT.act(whole, decision, Rng(seed))
            checked += 1
            RULES.apply(state, decision.seat, BOT.choose(state, decision, rng))
    assert checked > 100
    assert not _is_part({"players": [{"target": 99}]}, {"players": [{"target": 1}]})
