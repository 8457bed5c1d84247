"""Random-bot games on the shipped board end on their own, and Pros do get bankrupted."""

from __future__ import annotations

from engine.games.whipcash import RULESET
from engine.simulate import game_seed, play_game

GAMES = 200


def test_random_games_end_without_a_turn_cap_and_pros_go_bankrupt_in_some():
    outcomes = [play_game(RULESET, 4, ["random"] * 4, None, game_seed(11, i)) for i in range(GAMES)]
    assert all(o.result.reason == "last_player_standing" for o in outcomes)
    lengths = sorted(o.turns for o in outcomes)
    assert lengths[GAMES // 2] < 150, "the median game should stay short"
    with_bankrupt_pro = sum(1 for o in outcomes if o.result.details["pros_bankrupt"])
    assert GAMES * 0.3 < with_bankrupt_pro < GAMES


def test_a_turn_cap_stops_every_game_at_that_turn():
    outcome = play_game(RULESET, 6, ["random"] * 6, {"turn_cap": 5}, 3)
    assert outcome.turns == 5 and outcome.result.turn_cap_hit
