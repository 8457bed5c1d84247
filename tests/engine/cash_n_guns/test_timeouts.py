"""What a Cash 'n Guns seat too slow to decide plays: a card drawn from its real hand, privately."""

from __future__ import annotations

import math

import pytest

from engine.core.rng import Rng
from tests.engine.cash_n_guns.helpers import RULES, choose_bullets, new_game, take
from tests.engine.cash_n_guns.test_loot import peaceful_round

DRAWS = 7000
#: a count may stray this many standard deviations from its expectation (the draws are seeded: no flake)
SIGMAS = 5


def share_drawn(state, decision, card: str) -> float:
    rng = Rng(2023)
    drawn = [RULES.timeout_action(state, decision, rng) for _ in range(DRAWS)]
    assert all(decision.allows(action) for action in drawn)
    return sum(action["card"] == card for action in drawn) / DRAWS


def assert_share(share: float, expected: float) -> None:
    spread = math.sqrt(expected * (1 - expected) / DRAWS)
    assert abs(share - expected) <= SIGMAS * spread, (share, expected)


@pytest.mark.parametrize(("clicks", "bangs"), [(1, 6), (5, 3), (3, 3), (0, 2), (4, 0)])
def test_a_timed_out_bullet_is_a_card_drawn_from_the_hand(clicks, bangs):
    """1 Click and 6 Bang! fire six times in seven, not half the time; 5 Click and 3 Bang! three in eight."""
    state = new_game(4)
    state.gangsters[2].clicks, state.gangsters[2].bangs = clicks, bangs
    decision = next(d for d in RULES.pending(state) if d.seat == 2)
    assert decision.kind == "choose_bullet" and decision.secret and decision.to_dict()["default"] is None
    before = state.rng.to_dict()
    assert_share(share_drawn(state, decision, "bang"), bangs / (clicks + bangs))
    assert state.rng.to_dict() == before  # the game's own generator never draws a timeout's secret


def clip_taken(clicks: int, bangs: int):
    """Seat 0, holding ``clicks`` Click and ``bangs`` Bang! cards, takes a clip and reloads: its toss waits."""
    state = new_game(4, ["clip", "bill_5000"])
    state.discard_bangs = 1
    peaceful_round(state)
    state.gangsters[0].clicks, state.gangsters[0].bangs = clicks, bangs
    take(state, 0, "clip")
    (decision,) = RULES.pending(state)
    assert decision.kind == "clip_discard" and (state.gangsters[0].clicks, state.gangsters[0].bangs) == (
        clicks, bangs + 1)
    return state, decision


def test_a_timed_out_clip_toss_is_a_card_drawn_from_the_hand_with_the_reloaded_bang():
    """A clip taker holding 1 Click and 3 Bang! reloads a fourth Bang!: he tosses the Click one time in five."""
    state, decision = clip_taken(1, 3)
    assert_share(share_drawn(state, decision, "click"), 1 / 5)


def test_a_timed_out_courage_stands_or_lies_down_at_even_odds():
    state = new_game(4)
    choose_bullets(state, {seat: "click" for seat in range(4)})
    for seat in range(4):
        RULES.apply(state, seat, {"type": "aim", "target": (seat + 1) % 4})
    RULES.apply(state, 0, {"type": "privilege", "target": None})
    decision = RULES.pending(state)[0]
    assert decision.kind == "courage"
    rng = Rng(7)
    stands = sum(RULES.timeout_action(state, decision, rng)["stand"] for _ in range(DRAWS)) / DRAWS
    assert_share(stands, 0.5)


def test_the_heuristic_tosses_a_bang_when_its_hand_holds_nothing_else():
    state, decision = clip_taken(0, 2)
    assert decision.options == [{"type": "clip_discard", "card": "bang"}]
    action = RULES.bot("heuristic").choose(state, decision, Rng(1))
    assert action == {"type": "clip_discard", "card": "bang"}
    RULES.apply(state, 0, action)
    assert (state.gangsters[0].clicks, state.gangsters[0].bangs) == (0, 2)
