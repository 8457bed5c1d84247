"""Hidden information, for every registered ruleset: over HTTP a seat sees exactly what the engine's
``view`` for that seat shows, and only the events whose visibility includes it."""

from __future__ import annotations

import pytest

from engine.core.registry import all_rulesets, get_ruleset
from engine.core.rng import Rng
from tests.api.playthrough import play_over_http, read_all_events, visible_events
from tests.api.toy_game import RULESET as TOY
from tests.engine.invariants import OutcomeSecrecy

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


#: Options that make each game's secrets come up within the steps played (cash-n-guns: clips, so a
#: pickup's public shape is checked against the taker's secret hand; wasted bullets happen by themselves).
SECRECY_OPTIONS = {"cash-n-guns": {"deck": {"bill_5000": 40, "clip": 24}}}
SECRECY_STEPS = 250


@pytest.mark.parametrize("ruleset_id", list(all_rulesets()))
def test_what_each_action_shows_over_http_tells_no_seat_what_it_cannot_see(client, ruleset_id):
    """The game played over HTTP (every view and event checked against the engine) is replayed
    through the engine's outcome-secrecy check: no action's events or public outcome may depend
    on what a seat cannot see (a face-down card, another player's hand)."""
    ruleset = get_ruleset(ruleset_id)
    players = min(ruleset.max_players, max(ruleset.min_players, 3))
    options = SECRECY_OPTIONS.get(ruleset_id)
    play = play_over_http(client, ruleset_id, players, seed=1, options=options, max_steps=SECRECY_STEPS,
                          check_every=10)
    state = ruleset.new_game(players, options, 1)
    check = OutcomeSecrecy(ruleset, players, Rng(1))
    happened: list[dict] = []
    for seat, action in play.actions:
        check(state, ruleset.pending(state))
        happened.extend(event.to_dict() for event in ruleset.apply(state, seat, action))
    if ruleset_id == "cash-n-guns":
        # The two secrets this check guards came up: a bullet discarded face down by a standing
        # player, and a clip pickup that made its taker toss a card.
        assert any(e["type"] == "bullets_revealed" and e["discarded_face_down"] for e in happened)
        assert any(e["type"] == "clip_discarded" for e in happened)
