"""Hidden information, for every registered ruleset: over HTTP a seat sees exactly what the engine's
``view`` for that seat shows, and only the events whose visibility includes it."""

from __future__ import annotations

import pytest

from engine.core.registry import all_rulesets, get_ruleset
from tests.api.playthrough import play_over_http, read_all_events, visible_events
from tests.api.toy_game import RULESET as TOY

MAX_STEPS = 60


@pytest.fixture(params=[TOY.id, *all_rulesets()])
def ruleset_id(request, toy_ruleset) -> str:
    return request.param


def test_views_and_event_logs_hold_only_what_each_seat_may_see(client, ruleset_id):
    ruleset = get_ruleset(ruleset_id)
    players = min(ruleset.max_players, max(ruleset.min_players, 3))
    play = play_over_http(client, ruleset_id, players, seed=5, max_steps=MAX_STEPS)  # checks every view
    replay = ruleset.new_game(players, None, 5)
    everything = [event for event in ruleset.setup_events(replay)]
    for seat, action in play.actions:
        everything.extend(ruleset.apply(replay, seat, action))
    for seat, token in [*enumerate(play.tokens), (None, None)]:
        feed = [entry["event"] for entry in read_all_events(client, play.game_id, token, limit=25)]
        assert feed[1:] == visible_events(everything, seat)
        for event in feed:
            assert "visible_to" not in event or (seat is not None and seat in event["visible_to"])
