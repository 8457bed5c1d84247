"""Bullets, aims, courage and the shoot-out: wounds, death, lying down, the last player standing."""

from __future__ import annotations

from tests.engine.cash_n_guns.helpers import RULES, new_game, of_type, pending_seats, shoot_out

BILLS = ["bill_5000"] * 8


def test_mutual_bang_wounds_both_and_neither_shares_the_loot():
    state = new_game(4, BILLS)
    events = shoot_out(state, {0: "bang", 1: "bang", 2: "click", 3: "click"}, {0: 1, 1: 0, 2: 3, 3: 2})
    assert [g.wounds for g in state.gangsters] == [1, 1, 0, 0]
    assert {e["seat"] for e in of_type(events, "wounded")} == {0, 1}
    assert of_type(events, "bullets_revealed")[0]["cards"] == ["bang", "bang", "click", "click"]
    # The Godfather (seat 0) is wounded, so the sharing starts at the next unhurt standing player.
    assert state.phase == "loot" and pending_seats(state) == [2]


def test_three_bangs_in_one_round_kill_and_the_dead_are_out_of_every_later_choice():
    state = new_game(5, BILLS)
    events = shoot_out(state, {0: "click", 1: "bang", 2: "bang", 3: "bang", 4: "click"},
                       {0: 1, 1: 0, 2: 0, 3: 0, 4: 0})
    dead = state.gangsters[0]
    assert dead.wounds == 3 and not dead.alive and dead.died_in == 1
    assert of_type(events, "killed") == [{"seat": 0}]
    while state.phase in ("loot", "clip"):
        decision = RULES.pending(state)[0]
        RULES.apply(state, decision.seat, decision.default_action())
    assert state.turn == 1 and state.phase == "bullets"
    assert sorted(pending_seats(state)) == [1, 2, 3, 4]
    state.gangsters[1].chosen = "click"
    for aim in (d for d in RULES.pending(state) if d.kind == "aim"):
        assert {"type": "aim", "target": 0} not in aim.options


def test_a_third_wound_kills_a_player_already_wounded_twice():
    state = new_game(4, BILLS)
    state.gangsters[2].wounds = 2
    events = shoot_out(state, {0: "bang", 1: "click", 2: "click", 3: "click"}, {0: 2, 1: 2, 2: 3, 3: 1})
    assert not state.gangsters[2].alive and of_type(events, "killed") == [{"seat": 2}]


def test_a_bullet_at_a_player_lying_down_is_discarded_face_down_unrevealed():
    # "If I or my target have already laid down, the Bullet card will be discarded and have no effect."
    state = new_game(4, BILLS)
    events = shoot_out(state, {0: "click", 1: "bang", 2: "bang", 3: "click"}, {0: 1, 1: 2, 2: 3, 3: 0},
                       stands={2: False})
    assert [g.wounds for g in state.gangsters] == [0, 0, 0, 0]
    assert of_type(events, "shot") == []
    # Seat 2 lies down and seat 1 aims at him: both cards go away face down, fire nothing, show nothing.
    assert state.gangsters[2].face_down == ["bang"] and state.gangsters[2].revealed == ""
    assert state.gangsters[1].face_down == ["bang"] and state.gangsters[1].revealed == ""
    assert of_type(events, "bullets_revealed") == [{"cards": ["click", None, None, "click"],
                                                    "discarded_face_down": [1]}]
    assert state.discard_bangs == 0 and state.discard_clicks == 2
    assert of_type(events, "courage_revealed") == [{"standing": [0, 1, 3], "lying_down": [2]}]
    public = RULES.view(state, None)["players"][1]
    assert public["revealed"] is None and public["shown"] == {"click": 0, "bang": 0}
    assert public["face_down_discards"] == 1
    assert all("bang" not in str(e.to_dict()) for e in events if e.visible(3) and e.type != "bullet_card")


def test_a_standing_player_aiming_at_nobody_discards_his_bullet_face_down():
    state = new_game(4, BILLS)
    events = shoot_out(state, {0: "bang", 1: "click", 2: "click", 3: "click"}, {0: None, 1: 2, 2: 3, 3: 1})
    assert state.gangsters[0].face_down == ["bang"] and state.gangsters[0].revealed == ""
    assert of_type(events, "bullets_revealed")[0] == {"cards": [None, "click", "click", "click"],
                                                      "discarded_face_down": [0]}


def test_the_reveal_wasted_bullets_house_rule_turns_a_wasted_bullet_face_up():
    state = new_game(4, BILLS, reveal_wasted_bullets=True)
    events = shoot_out(state, {0: "click", 1: "bang", 2: "bang", 3: "click"}, {0: 1, 1: 2, 2: 3, 3: 0},
                       stands={2: False})
    assert [g.wounds for g in state.gangsters] == [0, 0, 0, 0]
    assert of_type(events, "shot") == [{"shooter": 1, "target": 2, "wounded": False}]
    assert state.gangsters[1].revealed == "bang" and state.gangsters[1].face_down == []
    assert state.gangsters[2].face_down == ["bang"]  # lying down still throws the card away unseen
    assert state.discard_bangs == 1 and state.discard_clicks == 2


def test_lying_down_players_share_no_loot():
    state = new_game(4, BILLS)
    shoot_out(state, {0: "click", 1: "click", 2: "click", 3: "click"}, {0: 1, 1: 2, 2: 3, 3: 0},
              stands={0: False, 1: False})
    order = []
    while state.phase == "loot":
        decision = RULES.pending(state)[0]
        order.append(decision.seat)
        RULES.apply(state, decision.seat, {"type": "take_loot", "card": "bill_5000"})
    assert order == [2, 3, 2, 3, 2, 3, 2, 3]
    assert [len(g.loot) for g in state.gangsters] == [0, 0, 4, 4]


def test_the_last_player_standing_wins_at_once_whatever_the_loot():
    state = new_game(4, BILLS)
    for seat in (2, 3):
        state.gangsters[seat].alive = False
        state.gangsters[seat].wounds = 3
    state.gangsters[1].wounds = 2
    state.gangsters[1].loot = ["bill_20000"] * 5
    events = shoot_out(state, {0: "bang", 1: "click"}, {0: 1, 1: 0})
    result = RULES.result(state)
    assert result.winners == [0] and result.reason == "last_standing"
    assert result.ranking[0] == 0 and state.turn == 1
    assert of_type(events, "game_over")[0]["winners"] == [0]
    assert RULES.pending(state) == []


def test_when_the_last_two_kill_each_other_the_richer_of_them_wins():
    state = new_game(4, BILLS)
    for seat in (2, 3):
        state.gangsters[seat].alive = False
        state.gangsters[seat].wounds = 3
        state.gangsters[seat].died_in = 1
        state.gangsters[seat].loot = ["bill_20000"] * 9
    state.turn = 3
    state.gangsters[0].wounds = state.gangsters[1].wounds = 2
    state.gangsters[1].loot = ["bill_10000"]
    shoot_out(state, {0: "bang", 1: "bang"}, {0: 1, 1: 0})
    result = RULES.result(state)
    assert result.reason == "all_dead" and result.winners == [1]
    assert result.ranking == [1, 0, 2, 3]


def test_a_player_too_slow_to_aim_holds_nobody_up():
    state = new_game(4, BILLS)
    decision = next(d for d in RULES.pending(state) if d.seat == 1)
    assert decision.default_action() == {"type": "choose_bullet", "card": "click"}
    events = shoot_out(state, {0: "click", 1: "bang", 2: "click", 3: "click"}, {0: 2, 1: None, 2: 3, 3: 0})
    assert of_type(events, "shot") == [] and state.gangsters[1].face_down == ["bang"]
    assert of_type(events, "aims_revealed")[0]["targets"] == [2, None, 3, 0]


def test_no_one_can_aim_at_himself_and_each_bullet_card_is_used_once():
    state = new_game(4, BILLS)
    state.gangsters[3].bangs = 0
    state.gangsters[3].clicks = 8
    bullet = next(d for d in RULES.pending(state) if d.seat == 3)
    assert bullet.options == [{"type": "choose_bullet", "card": "click"}]
    shoot_out(state, {0: "bang", 1: "click", 2: "click", 3: "click"}, {0: 1, 1: 2, 2: 3, 3: 0})
    assert (state.gangsters[0].clicks, state.gangsters[0].bangs) == (5, 2)
    state = new_game(4, BILLS)
    for seat in range(4):
        RULES.apply(state, seat, {"type": "choose_bullet", "card": "click"})
    aim = next(d for d in RULES.pending(state) if d.seat == 2)
    assert {o["target"] for o in aim.options} == {0, 1, 3, None}
