"""Players joining a running game: "Anyone can join the game at any time"."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalAction
from engine.core.rng import Rng
from engine.games.hitchiker.state import NOBODY, owner_of
from tests.engine.hitchiker.helpers import RULES, TABLES, city, first, game, pending_kind, script
from tests.engine.invariants import assert_round_trip


def join(state) -> list:
    """The seat change the service hands the engine when someone joins the running game."""
    return RULES.seat_changed(state, {"seat": state.players, "kind": "seat_joined", "name": "New", "bot": None})


def test_other_seat_changes_leave_the_rules_alone():
    state = game(players=3, cash=25_000)
    before = RULES.to_dict(state)
    for change in ({"seat": 1, "kind": "seat_joined"}, {"seat": 2, "kind": "seat_to_bot", "bot": "random"},
                   {"seat": 1, "kind": "seat_left"}, {"seat": 5, "kind": "seat_joined"}):
        assert RULES.seat_changed(state, {"name": None, "bot": None, **change}) == []
    assert RULES.to_dict(state) == before


def test_a_joiner_takes_25000_from_the_bank_and_picks_a_hometown_beside_the_turn():
    state = game(players=2, cash=25_000)
    money = RULES.money_in_play(state)
    events = join(state)
    assert state.players == 3 and len(state.seats) == 3
    assert state.seats[2].cash == 25_000 and state.seats[2].hometowns == []
    assert RULES.money_in_play(state) == money
    assert [e.type for e in events] == ["player_joined", "collected"]
    pending = RULES.pending(state)
    assert [(d.seat, d.kind) for d in pending] == [(0, "roll"), (2, "pick_hometown")]
    owned = {city("Vancougar"), city("Sasquatoon")}
    assert all(TABLES.index_by_name[o["city"]] not in owned for o in pending[1].options)
    RULES.apply(state, 2, {"type": "pick_hometown", "city": "Torontoe"})
    assert state.seats[2].hometowns == [city("Torontoe")] and state.seats[2].position == city("Torontoe")
    assert state.joining == [] and [d.seat for d in RULES.pending(state)] == [0]
    assert_round_trip(RULES, state)


def test_a_joiner_waits_for_their_hometown_before_their_first_turn():
    state = game(players=2, cash=25_000)
    join(state)
    state.rng = Rng(3)
    for _ in range(200):  # the others play on; seat 2 never gets the turn
        decision = next(d for d in RULES.pending(state) if d.seat != 2)
        RULES.apply(state, decision.seat, decision.default_action())
        assert state.active != 2 and state.phase != "over"
        if state.turn >= 4:
            break
    assert state.turn >= 4 and state.joining == [2]


def test_with_every_hometown_owned_the_joiner_comes_in_homeless_on_the_active_players_city():
    state = game(players=2, cash=25_000)
    for hometown in TABLES.hometowns:
        if owner_of(state, hometown) == NOBODY:
            state.seats[1].hometowns.append(hometown)
    seat, events = 2, join(state)
    assert events[-1].type == "joined_homeless" and events[-1].data == {"seat": seat, "at": state.seats[0].position}
    assert state.joining == [] and all(d.seat != seat for d in RULES.pending(state))


def test_the_table_seats_at_most_six():
    state = game(players=6, cash=25_000)
    with pytest.raises(IllegalAction) as error:
        join(state)
    assert error.value.reason == "table_full"


@pytest.mark.parametrize("seed", range(6))
def test_random_games_with_joins_keep_the_money_and_end(seed):
    state = RULES.new_game(2, None, seed)
    rng = Rng(seed + 50)
    bot = RULES.bot("random")
    money, joined = RULES.money_in_play(state), 0
    for step in range(20_000):
        if step in (3, 40, 150) and RULES.result(state) is None:
            join(state)
            joined += 1
        decisions = RULES.pending(state)
        if not decisions:
            break
        decision = rng.choice(decisions)
        RULES.apply(state, decision.seat, bot.act(None, decision, rng))
        assert RULES.money_in_play(state) == money
    assert RULES.result(state) is not None and state.players == 2 + joined and joined >= 2
    assert_round_trip(RULES, state)


def offer_calgaree(state) -> None:
    """Seat 0 rolls 1 + 2 from Vancougar onto Calgaree, unowned, priced 2 x $5,000: the buy offer waits."""
    script(state, 1, 2, 2)
    RULES.apply(state, 0, {"type": "roll"})
    assert pending_kind(state) == (0, "buy_hometown") and state.seats[0].position == city("Calgaree")


def pickable(state, seat: int) -> list[str]:
    return [option["city"] for d in RULES.pending(state) if d.seat == seat and d.kind == "pick_hometown"
            for option in d.options]


@pytest.mark.parametrize("answer", ["buy_hometown", "pass"])
def test_a_joiner_cannot_pick_the_hometown_on_offer_to_the_active_seat(answer):
    """One Hometown, one owner: the Hometown the active seat may buy is not free for a joiner to pick."""
    state = game(players=2, cash=25_000)
    offer_calgaree(state)
    join(state)
    offered = pickable(state, 2)
    assert "Calgaree" not in offered and offered
    with pytest.raises(IllegalAction) as error:
        RULES.apply(state, 2, {"type": "pick_hometown", "city": "Calgaree"})
    assert error.value.reason == "option_not_allowed"
    RULES.apply(state, 0, {"type": answer})
    assert ("Calgaree" in pickable(state, 2)) == (answer == "pass")
    assert RULES.state_problems(state) == []


@pytest.mark.parametrize("answer", ["buy_hometown", "pass"])
def test_a_joiner_whose_only_free_hometown_is_on_offer_waits_for_the_offer(answer):
    state = game(players=2, cash=25_000)
    for hometown in TABLES.hometowns:
        if owner_of(state, hometown) == NOBODY and hometown != city("Calgaree"):
            state.seats[1].hometowns.append(hometown)
    offer_calgaree(state)
    join(state)
    assert state.joining == [2] and [d.seat for d in RULES.pending(state)] == [0]  # no decision to pick from
    events = RULES.apply(state, 0, {"type": answer})
    if answer == "pass":
        assert pickable(state, 2) == ["Calgaree"]
    else:
        assert state.joining == [] and first(events, "joined_homeless").data["seat"] == 2
        assert owner_of(state, city("Calgaree")) == 0
    assert RULES.state_problems(state) == []


def test_two_owners_of_one_hometown_are_a_state_problem():
    state = game(players=2, cash=25_000)
    state.seats[1].hometowns.append(city("Vancougar"))
    assert RULES.state_problems(state) == ["Vancougar has 2 owners"]


def test_a_joiner_takes_the_turn_order_position_after_the_highest_seat_and_plays_there():
    """First player 2 of 4, a fifth player joins as seat 4: the order of play is 2, 3, 4, 0, 1, which
    is what ``turn_order`` says and what the turns then do."""
    state = game(players=4, cash=25_000)
    state.active = state.decider = state.first = 2
    state.rng = Rng(7)
    assert RULES.turn_order(state) == [2, 3, 0, 1]
    join(state)
    assert RULES.turn_order(state) == [2, 3, 4, 0, 1]
    picked = next(d for d in RULES.pending(state) if d.kind == "pick_hometown")
    RULES.apply(state, 4, picked.options[0])
    turns = [state.active]
    while len(turns) < 11 and RULES.result(state) is None:
        decision = RULES.pending(state)[0]
        RULES.apply(state, decision.seat, decision.default_action())
        if state.active != turns[-1]:
            turns.append(state.active)
    assert turns == [2, 3, 4, 0, 1, 2, 3, 4, 0, 1, 2]
