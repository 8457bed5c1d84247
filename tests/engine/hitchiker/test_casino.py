"""Casino blackjack: the lander deals two rounds; cards are stacked, the burn is scripted."""

from __future__ import annotations

from engine.core.rng import Rng
from tests.engine.hitchiker.helpers import RULES, act, game, give, money, pending_kind, stack_cards, types


def at_the_casino(monkeypatch, cards, dealer_cash=25_000):
    """Two players; seat 0 rolls 2 + 3 from Vancougar onto the Great White North Casino."""
    state = game(players=2, homes=["Vancougar", "Sasquatoon"], dice=[2, 3, 0, 0])
    give(state, 0, cash=dealer_cash)
    stack_cards(monkeypatch, cards)
    events = act(state, 0, "roll")
    assert "casino_opened" in types(events)
    return state


def options(state) -> set[str]:
    return {option["type"] for option in RULES.pending(state)[0].options}


def test_blackjack_push_win_house_draws_to_17_bust_and_double_down(monkeypatch):
    state = at_the_casino(monkeypatch, [
        # round 1: first cards (seat 1, dealer hand 1, dealer hand 2), the House card, second cards, House draws
        "AS", "10H", "9D", "6C", "KS", "7H", "9S", "10D", "AC",
        # round 2
        "10S", "5H", "5D", "10C", "6S", "6H", "2C", "10H", "9C", "7S",
    ])
    table = state.casino
    assert [hand.seat for hand in table.hands] == [1, 0, 0] and table.hands[2].second
    assert pending_kind(state) == (1, "bet")
    assert RULES.pending(state)[0].ranges == {"bet": {"amount": [1, 25_000]}}
    act(state, 1, "bet", amount=1_000)
    act(state, 0, "bet", amount=2_000)
    events = act(state, 0, "bet", amount=3_000)
    # Seat 1's ace + king is a blackjack: paid five times the bet at once.
    assert "blackjack" in types(events) and state.seats[1].cash == 25_000 - 1_000 + 6_000
    assert pending_kind(state) == (0, "play_hand")
    act(state, 0, "stick")  # 10 + 7 = 17
    events = act(state, 0, "stick")  # 9 + 9 = 18; the House: 6 + 10 = 16 draws, + ace = 17 stands
    settled = {e.data["hand"]: e.data["outcome"] for e in events if e.type == "hand_settled"}
    assert settled == {1: "push", 2: "win"}
    assert state.seats[0].cash == 25_000 + 2 * 3_000
    # Round 2.
    assert state.casino.round == 2 and pending_kind(state) == (1, "bet")
    act(state, 1, "bet", amount=1_000)
    act(state, 0, "bet", amount=1_000)
    act(state, 0, "bet", amount=1_000)
    events = act(state, 1, "hit")  # 10 + 6 + 10 = bust
    assert "hand_bust" in types(events)
    assert options(state) == {"stick", "hit", "double_down"}
    events = act(state, 0, "double_down")  # 5 + 6 + 9 = 20 on a $2,000 bet, one card only
    assert state.casino.hands[1].bet == 2_000 and state.casino.hands[1].outcome == "stood"
    events = act(state, 0, "stick")  # 5 + 2 = 7; the House 10 + 7 = 17
    settled = {e.data["hand"]: e.data["outcome"] for e in events if e.type == "hand_settled"}
    assert settled == {1: "win", 2: "lose"}
    assert "casino_closed" in types(events) and state.casino is None
    assert state.seats[1].cash == 30_000 - 1_000
    assert state.seats[0].cash == 31_000 - 3_000 + 6_000
    assert pending_kind(state) == (1, "roll")
    assert money(state) == 0


def test_split_plays_two_hands_a_split_21_is_not_a_blackjack_and_soft_17_stands(monkeypatch):
    state = at_the_casino(monkeypatch, [
        # round 1: seat 1 splits aces; the broke dealer plays no hands
        "AS", "10D", "AH", "KD", "9C", "7C",
        # round 2: a pair of twos is offered a split; the House's soft 17 stands
        "2C", "AC", "2D", "6H",
    ], dealer_cash=0)
    assert [hand.seat for hand in state.casino.hands] == [1]
    act(state, 1, "bet", amount=1_000)
    assert options(state) == {"stick", "hit", "double_down", "split"}
    events = act(state, 1, "split")
    assert state.seats[1].cash == 23_000 and "blackjack" not in types(events)
    hands = state.casino.hands
    assert [h.cards for h in hands] == [[0, 12 + 26], [13, 8 + 39]]  # AS KD / AH 9C
    assert hands[0].outcome == "stood" and pending_kind(state) == (1, "play_hand")
    assert "split" not in options(state)
    events = act(state, 1, "stick")  # House 10 + 7 = 17: 21 and 20 both win 2x
    settled = [e.data["outcome"] for e in events if e.type == "hand_settled"]
    assert settled == ["win", "win"] and state.seats[1].cash == 23_000 + 2 * 3_000
    act(state, 1, "bet", amount=500)
    assert "split" in options(state)
    events = act(state, 1, "stick")
    assert [e.data["outcome"] for e in events if e.type == "hand_settled"] == ["lose"]
    assert state.seats[1].cash == 29_000 - 500 and state.casino is None
    assert money(state) == 0


def test_a_dealer_who_stakes_everything_on_the_first_hand_does_not_play_the_second(monkeypatch):
    state = at_the_casino(monkeypatch, ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "10S", "10H"])
    act(state, 1, "bet", amount=1)
    events = act(state, 0, "bet", amount=25_000)
    assert "hand_withdrawn" in types(events) and len(state.casino.hands) == 2
    assert money(state) == 0


def test_resample_hidden_burns_another_card_and_keeps_every_view(monkeypatch):
    state = at_the_casino(monkeypatch, ["AS", "10H", "9D", "6C", "KS", "7H", "9S", "10D", "AC"])
    on_table = set(state.casino.house) | {card for hand in state.casino.hands for card in hand.cards}
    rng = Rng(3)
    burned = set()
    for _ in range(20):
        other = RULES.resample_hidden(state, 1, rng)
        assert other.casino.burned not in on_table
        assert RULES.view(other, 1) == RULES.view(state, 1)
        burned.add(other.casino.burned)
    # The burned card is never shown, so a world a seat cannot tell apart may have burned another one.
    assert len(burned) > 1
