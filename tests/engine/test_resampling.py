"""``resample_hidden(state, seat, rng)``: fair, canonical worlds for a search, in every ruleset.

A resample re-deals everything ``seat`` cannot see, and nothing else:

- (a) ``seat`` cannot tell it from the real state (its view is the same);
- (b) it depends only on what ``seat`` sees and on ``rng``: a state that differs from another in
  hidden things alone (here: a resample of it) gives the very same resamples;
- (c) it really re-deals: where something is hidden, resamples differ from the real state.
"""

from __future__ import annotations

import pytest

from engine.core.registry import all_rulesets
from engine.core.rng import Rng
from engine.games.cash_n_guns.cards import BANG
from engine.games.cash_n_guns.state import AIM, COURAGE, CashNGunsState, Gangster
from tests.engine.samples import sampled_states

RULESETS = sorted(all_rulesets())
#: games sampled per ruleset (Monopoly's are short) and a state every this many actions (Hitchiker's long)
GAMES = {"monopoly-cars2": 16}
EVERY = {"hitchiker": 25}


def secrets(ruleset_id: str, state, seat: int | None):
    """What ``seat`` cannot see in ``state``, beside the RNG (None where a game hides nothing else)."""
    if ruleset_id == "cash-n-guns":
        hands = [(g.clicks, g.bangs, g.chosen, list(g.face_down),
                  g.target if state.phase == AIM else None, g.stands if state.phase == COURAGE else None)
                 for index, g in enumerate(state.gangsters) if index != seat]
        return [list(pile) for pile in state.piles], hands
    if ruleset_id == "monopoly-cars2":
        return list(state.pile)
    if ruleset_id == "hitchiker":
        return None if state.casino is None else state.casino.burned
    return None


def samples(ruleset):
    return sampled_states(ruleset, GAMES.get(ruleset.id, 4), every=EVERY.get(ruleset.id, 3), seed=77)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_a_resample_keeps_the_view_of_its_seat_and_leaves_the_state_alone(ruleset_id):
    ruleset = all_rulesets()[ruleset_id]
    rng = Rng(5)
    for state, _ in samples(ruleset):
        before = ruleset.to_dict(state)
        for seat in [None, *range(state.players)]:
            world = ruleset.resample_hidden(state, seat, rng)
            assert ruleset.view(world, seat) == ruleset.view(state, seat), f"{ruleset_id}: seat {seat} tells"
        assert ruleset.to_dict(state) == before


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_a_resample_depends_only_on_what_its_seat_sees(ruleset_id):
    ruleset = all_rulesets()[ruleset_id]
    checked = 0
    for state, acting in samples(ruleset):
        for seat in {None, acting, (acting + 1) % state.players}:
            twin = ruleset.resample_hidden(state, seat, Rng(1))  # differs from state in hidden things only
            for k in (2, 3):
                from_state = ruleset.resample_hidden(state, seat, Rng(k))
                from_twin = ruleset.resample_hidden(twin, seat, Rng(k))
                assert ruleset.to_dict(from_state) == ruleset.to_dict(from_twin), f"{ruleset_id}: seat {seat}"
                checked += 1
    assert checked > 30


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_a_resample_re_deals_what_is_hidden(ruleset_id):
    ruleset = all_rulesets()[ruleset_id]
    rng = Rng(9)
    hidden = changed = 0
    for state, seat in samples(ruleset):
        world = ruleset.resample_hidden(state, seat, rng)
        assert world.rng != state.rng  # the dice and draws to come are re-seeded, always
        real = secrets(ruleset_id, state, seat)
        if real is None:
            continue
        hidden += 1
        changed += secrets(ruleset_id, world, seat) != real
    if ruleset_id == "whipcash":
        assert hidden == 0  # nothing is secret but the dice to come
    else:
        assert hidden > 10 and changed > 0.8 * hidden, (ruleset_id, hidden, changed)


def test_cash_n_guns_deals_another_players_bullets_by_their_odds():
    """A player who chose one card of 5 Click and 3 Bang! and threw 2 away face down: each face-down
    card is a Bang! 3 times in 8, whatever was really played, and the counts add up."""
    ruleset = all_rulesets()["cash-n-guns"]
    state = ruleset.new_game(4, None, 3)
    assert isinstance(state, CashNGunsState)
    state.gangsters[1] = Gangster(clicks=5, bangs=0, chosen=BANG, face_down=[BANG, BANG])
    rng = Rng(11)
    draws = 4000
    bangs_chosen = bangs_face_down = 0
    for _ in range(draws):
        g = ruleset.resample_hidden(state, 0, rng).gangsters[1]
        assert g.clicks + g.bangs == 5 and len(g.face_down) == 2 and g.chosen
        assert g.bangs + g.face_down.count(BANG) + (g.chosen == BANG) == 3
        bangs_chosen += g.chosen == BANG
        bangs_face_down += g.face_down.count(BANG)
    assert abs(bangs_chosen / draws - 3 / 8) < 0.03
    assert abs(bangs_face_down / (2 * draws) - 3 / 8) < 0.03
