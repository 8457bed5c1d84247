"""Sharing the loot: order, laps, first aid, clips, the New Godfather token."""

from __future__ import annotations

from tests.engine.cash_n_guns.helpers import RULES, act, new_game, of_type, pending_seats, shoot_out, take

ALL_CLICK = {0: "click", 1: "click", 2: "click", 3: "click"}
QUIET_AIMS = {0: 1, 1: 2, 2: 3, 3: 0}


def peaceful_round(state, stands=None):
    return shoot_out(state, dict(ALL_CLICK), dict(QUIET_AIMS), stands)


def finish_sharing(state):
    while state.phase in ("loot", "clip"):
        decision = RULES.pending(state)[0]
        RULES.apply(state, decision.seat, decision.default_action())


def test_sharing_starts_with_the_godfather_and_goes_clockwise_one_pick_at_a_time():
    state = new_game(4, ["bill_20000", "bill_10000", "bill_5000", "bill_5000", "painting"])
    state.godfather = 2
    peaceful_round(state)
    order = []
    while state.phase == "loot":
        decision = RULES.pending(state)[0]
        order.append(decision.seat)
        RULES.apply(state, decision.seat, decision.options[0])
    assert order == [2, 3, 0, 1, 2]
    assert state.gangsters[2].loot == ["bill_20000", "painting"]


def test_a_lone_unhurt_player_takes_everything_and_dead_players_are_skipped():
    state = new_game(4, ["bill_5000"] * 8)
    state.gangsters[1].alive = False
    state.gangsters[1].wounds = 3
    shoot_out(state, {0: "click", 2: "click", 3: "click"}, {0: 2, 2: 3, 3: 0}, stands={0: False, 2: False})
    order = []
    while state.phase == "loot":
        order.append(pending_seats(state)[0])
        take(state, order[-1], "bill_5000")
    assert order == [3] * 8 and len(state.gangsters[3].loot) == 8


def test_loot_nobody_may_take_is_lost():
    state = new_game(4, ["bill_5000", "diamond_1000"])
    money = RULES.money_in_play(state)
    events = peaceful_round(state, stands={0: False, 1: False, 2: False, 3: False})
    assert of_type(events, "loot_lost") == [{"cards": ["bill_5000", "diamond_1000"]}]
    assert state.lost_loot == ["bill_5000", "diamond_1000"] and state.turn == 1
    assert RULES.money_in_play(state) == money


def test_first_aid_heals_every_wound_and_does_nothing_at_zero_wounds():
    state = new_game(4, ["first_aid", "first_aid", "bill_5000"])
    state.gangsters[0].wounds = 2
    peaceful_round(state)
    events = take(state, 0, "first_aid")
    assert state.gangsters[0].wounds == 0 and of_type(events, "healed") == [{"seat": 0, "wounds_healed": 2}]
    events = take(state, 1, "first_aid")
    assert state.gangsters[1].wounds == 0 and of_type(events, "healed") == [{"seat": 1, "wounds_healed": 0}]


def test_a_clip_takes_a_bang_from_the_discard_and_the_player_chooses_the_card_to_discard():
    state = new_game(4, ["clip", "bill_5000"])
    state.discard_bangs = 1
    peaceful_round(state)
    hand_before = (state.gangsters[0].clicks, state.gangsters[0].bangs)
    assert hand_before == (4, 3)
    events = take(state, 0, "clip")
    assert of_type(events, "reloaded") == [{"seat": 0}] and state.discard_bangs == 0
    assert state.phase == "clip" and pending_seats(state) == [0]
    (decision,) = RULES.pending(state)
    assert decision.default_action() == {"type": "clip_discard", "card": "click"}
    events = act(state, 0, {"type": "clip_discard", "card": "click"})
    assert (state.gangsters[0].clicks, state.gangsters[0].bangs) == (3, 4)
    assert state.gangsters[0].face_down == ["click"]
    assert [e.data for e in events if e.type == "clip_discard_secret"] == [{"seat": 0, "card": "click"}]
    assert state.phase == "loot" and pending_seats(state) == [1]


def test_a_clip_is_lost_when_no_bang_lies_in_the_discard_and_leaves_the_game():
    # "If there aren't any Bang! cards in the discard pile, I lose the Clip."
    state = new_game(4, ["clip", "bill_5000"])
    money = RULES.money_in_play(state)
    peaceful_round(state)
    assert state.discard_bangs == 0
    events = take(state, 0, "clip")
    assert of_type(events, "clip_lost") == [{"seat": 0, "why": "no_bang_in_discard"}]
    assert (state.gangsters[0].clicks, state.gangsters[0].bangs) == (4, 3)
    assert state.gangsters[0].loot == [] and state.lost_loot == ["clip"]
    assert RULES.view(state, None)["players"][0]["loot"] == []
    assert state.phase == "loot" and pending_seats(state) == [1]
    assert RULES.money_in_play(state) == money


def test_a_clip_with_only_bangs_in_hand_still_asks_which_card_to_toss():
    # The taker's hand is secret: the table must not learn from the decision that he holds no Click.
    state = new_game(4, ["clip", "bill_5000"])
    state.gangsters[0].clicks = 1
    state.discard_bangs = 2
    peaceful_round(state)
    events = take(state, 0, "clip")
    assert (state.gangsters[0].clicks, state.gangsters[0].bangs) == (0, 4)
    assert state.phase == "clip" and pending_seats(state) == [0]
    (decision,) = RULES.pending(state)
    assert decision.kind == "clip_discard" and decision.options == [{"type": "clip_discard", "card": "bang"}]
    assert [e.type for e in events if e.visible_to is None] == ["loot_taken", "reloaded"]
    events = act(state, 0, {"type": "clip_discard", "card": "bang"})
    assert (state.gangsters[0].clicks, state.gangsters[0].bangs) == (0, 3)
    assert state.gangsters[0].face_down == ["bang"] and state.discard_bangs == 1
    assert [e.type for e in events if e.visible_to is None] == ["clip_discarded"]
    assert state.phase == "loot"


def test_a_clip_pickup_looks_the_same_to_the_table_whatever_the_takers_hand():
    def pick_clip(clicks: int):
        """Seat 0 plays a Click this round, then takes the clip holding ``clicks - 1`` Click cards."""
        state = new_game(4, ["clip", "bill_5000"])
        state.gangsters[0].clicks = clicks
        state.gangsters[0].bangs = 4 - clicks
        state.discard_bangs = 1
        peaceful_round(state)
        events = take(state, 0, "clip")
        return state, events

    with_click, events_click = pick_clip(clicks=2)
    bangs_only, events_bangs = pick_clip(clicks=1)
    for seat in (None, 1, 2, 3):
        assert RULES.view(with_click, seat) == RULES.view(bangs_only, seat)
        assert [e.to_dict() for e in events_click if e.visible(seat)] == \
            [e.to_dict() for e in events_bangs if e.visible(seat)]
    public_decisions = [[(d.seat, d.kind) for d in RULES.pending(state)] for state in (with_click, bangs_only)]
    assert public_decisions[0] == public_decisions[1]
    after_click = act(with_click, 0, {"type": "clip_discard", "card": "bang"})
    after_bangs = act(bangs_only, 0, {"type": "clip_discard", "card": "bang"})
    for seat in (None, 1, 2, 3):
        assert RULES.view(with_click, seat) == RULES.view(bangs_only, seat)
        assert [e.to_dict() for e in after_click if e.visible(seat)] == \
            [e.to_dict() for e in after_bangs if e.visible(seat)]


def test_the_new_godfather_token_makes_its_taker_godfather_next_round():
    state = new_game(4, ["bill_5000", "bill_5000"])
    peaceful_round(state)
    take(state, 0, "bill_5000")
    decision = RULES.pending(state)[0]
    assert {"type": "take_godfather_token"} in decision.options
    events = act(state, 1, {"type": "take_godfather_token"})
    assert of_type(events, "godfather_token_taken") == [{"seat": 1}]
    assert {"type": "take_godfather_token"} not in RULES.pending(state)[0].options
    take(state, 2, "bill_5000")
    assert state.turn == 1 and state.godfather == 1 and state.phase == "bullets"
    assert RULES.view(state, None)["token_available"] is True


def test_without_the_token_taken_the_godfather_stays_or_passes_on_if_dead():
    state = new_game(4, ["bill_5000"])
    peaceful_round(state)
    finish_sharing(state)
    assert state.turn == 1 and state.godfather == 0
    state = new_game(4, ["bill_5000"])
    state.gangsters[0].wounds = 2
    shoot_out(state, {0: "click", 1: "bang", 2: "click", 3: "click"}, dict(QUIET_AIMS) | {1: 0})
    assert not state.gangsters[0].alive
    finish_sharing(state)
    assert state.godfather == 1
