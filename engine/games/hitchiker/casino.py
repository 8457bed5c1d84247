"""Casino cities: the lander deals two rounds of face-up blackjack against the House hand.

Order at the table: the players to the dealer's left in turn, then the dealer's two hands.
Each round: a fresh shuffled deck with its top card burned to the bottom; one card to every
hand, one to the House; bets in table order (1..cash); a second card to every hand (a
two-card 21 is a blackjack, paid 5x at once); hands played in order (hit, stick, double
down, split); the House draws to 17 and stands on every 17; wins pay 2x, ties push.
"""

from __future__ import annotations

import bisect

from engine.core.decisions import Decision
from engine.core.events import Event
from engine.core.rng import Rng
from engine.games.hitchiker.state import Casino, Hand, HitchikerState

ROUNDS = 2
DECK_SIZE = 52
HOUSE_STANDS_ON = 17
WIN_PAYS = 2
BLACKJACK_PAYS = 5

RANK_NAMES = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
#: card id -> its name, e.g. 0 -> "AS", 51 -> "KC"
CARD_NAMES = [rank + suit for suit in "SHDC" for rank in RANK_NAMES]
#: card id -> blackjack value with an ace as 1
CARD_VALUES = [min(rank + 1, 10) for _ in "SHDC" for rank in range(13)]

HIT = {"type": "hit"}
STICK = {"type": "stick"}
DOUBLE_DOWN = {"type": "double_down"}
SPLIT = {"type": "split"}


def total_and_soft(cards: list[int]) -> tuple[int, bool]:
    """The best total, and whether an ace in it counts 11 (a soft hand)."""
    total = 0
    ace = False
    for card in cards:
        value = CARD_VALUES[card]
        total += value
        if value == 1:
            ace = True
    if ace and total <= 11:
        return total + 10, True
    return total, False


def hand_total(cards: list[int]) -> int:
    return total_and_soft(cards)[0]


def table_money(casino: Casino | None) -> int:
    if casino is None:
        return 0
    return sum(hand.bet for hand in casino.hands if hand.outcome in ("", "stood"))


def open_casino(state: HitchikerState, dealer: int, events: list[Event]) -> None:
    events.append(Event("casino_opened", {"dealer": dealer}))
    state.casino = Casino(dealer=dealer, round=0, burned=0, house=[], hands=[])
    _start_round(state, events)


def _cards_on_table(casino: Casino) -> list[int]:
    """The cards on the table (every one a different card), in card order."""
    taken = casino.house[:]
    for hand in casino.hands:
        taken += hand.cards
    taken.sort()
    return taken


def _card_left(taken: list[int], index: int) -> int:
    """The ``index``-th card (0-based, in card order) of those not in ``taken`` (sorted, no repeats)."""
    for card in taken:
        if card > index:
            break
        index += 1
    return index


def _draw(state: HitchikerState) -> int:
    """A uniformly random card of those not on the table and not burned.

    Drawing at random from the cards left deals exactly like a shuffled deck, with no deck
    order to store or hide. (A table holding 51 cards would get the burned one too.)
    """
    casino = state.casino
    taken = _cards_on_table(casino)
    if len(taken) < DECK_SIZE - 1 and casino.burned not in taken:
        bisect.insort(taken, casino.burned)
    return _card_left(taken, state.rng.randint(0, DECK_SIZE - len(taken) - 1))


def reburn(casino: Casino | None, rng: Rng) -> None:
    """Burn another card, one of those not on the table: the burned card is never shown, so a
    world a seat cannot tell apart from this one may have burned any of them."""
    if casino is None:
        return
    taken = _cards_on_table(casino)
    if len(taken) < DECK_SIZE:
        casino.burned = _card_left(taken, rng.randint(0, DECK_SIZE - len(taken) - 1))


def _start_round(state: HitchikerState, events: list[Event]) -> None:
    casino = state.casino
    while casino.round < ROUNDS:
        casino.round += 1
        dealer = casino.dealer
        order = [(dealer + step) % state.players for step in range(1, state.players)]
        hands = [Hand(seat, []) for seat in order if state.seats[seat].cash > 0]
        if state.seats[dealer].cash > 0:
            hands.append(Hand(dealer, []))
            hands.append(Hand(dealer, [], second=True))
        if not hands:
            events.append(Event("casino_round_skipped", {"round": casino.round, "why": "nobody has money"}))
            continue
        # A fresh shuffled deck; its top card, a random one, is burned to the bottom.
        casino.burned = state.rng.randint(0, DECK_SIZE - 1)
        casino.hands = hands
        casino.house = []
        for hand in hands:
            hand.cards.append(_draw(state))
        casino.house.append(_draw(state))
        events.append(Event("casino_round_dealt", {
            "round": casino.round,
            "hands": [{"seat": h.seat, "cards": [CARD_NAMES[c] for c in h.cards]} for h in hands],
            "house": [CARD_NAMES[casino.house[0]]],
        }))
        casino.current = 0
        _prompt_bet(state, events)
        return
    state.casino = None
    state.phase = ""
    events.append(Event("casino_closed", {}))


def _prompt_bet(state: HitchikerState, events: list[Event]) -> None:
    casino = state.casino
    while casino.current < len(casino.hands):
        hand = casino.hands[casino.current]
        if state.seats[hand.seat].cash > 0:
            state.phase = "bet"
            state.decider = hand.seat
            return
        # The dealer staked everything on the first hand: the second one is not played.
        events.append(Event("hand_withdrawn", {"seat": hand.seat, "why": "no money left to bet"}))
        del casino.hands[casino.current]
    _deal_second_cards(state, events)


def bet(state: HitchikerState, amount: int, events: list[Event]) -> None:
    casino = state.casino
    hand = casino.hands[casino.current]
    state.seats[hand.seat].cash -= amount
    hand.bet = amount
    events.append(Event("bet_placed", {"seat": hand.seat, "hand": casino.current, "amount": amount}))
    casino.current += 1
    _prompt_bet(state, events)


def _deal_second_cards(state: HitchikerState, events: list[Event]) -> None:
    casino = state.casino
    for index, hand in enumerate(casino.hands):
        card = _draw(state)
        hand.cards.append(card)
        events.append(Event("card_dealt", {"seat": hand.seat, "hand": index, "card": CARD_NAMES[card]}))
        if hand_total(hand.cards) == 21:
            hand.outcome = "blackjack"
            winnings = BLACKJACK_PAYS * hand.bet
            state.seats[hand.seat].cash += hand.bet + winnings
            state.bank -= winnings
            events.append(Event("blackjack", {"seat": hand.seat, "hand": index, "won": winnings}))
    casino.current = 0
    _prompt_play(state, events)


def _prompt_play(state: HitchikerState, events: list[Event]) -> None:
    casino = state.casino
    while casino.current < len(casino.hands):
        hand = casino.hands[casino.current]
        if hand.outcome == "":
            if hand_total(hand.cards) < 21:
                state.phase = "play_hand"
                state.decider = hand.seat
                return
            hand.outcome = "stood"
        casino.current += 1
    _finish_round(state, events)


def _hit(state: HitchikerState, hand: Hand, index: int, events: list[Event]) -> None:
    card = _draw(state)
    hand.cards.append(card)
    events.append(Event("card_dealt", {"seat": hand.seat, "hand": index, "card": CARD_NAMES[card]}))
    if hand_total(hand.cards) > 21:
        hand.outcome = "bust"
        state.bank += hand.bet
        events.append(Event("hand_bust", {"seat": hand.seat, "hand": index, "lost": hand.bet}))


def play_hand(state: HitchikerState, move: str, events: list[Event]) -> None:
    casino = state.casino
    index = casino.current
    hand = casino.hands[index]
    if move == "hit":
        _hit(state, hand, index, events)
    elif move == "stick":
        hand.outcome = "stood"
    elif move == "double_down":
        state.seats[hand.seat].cash -= hand.bet
        hand.bet *= 2
        hand.doubled = True
        events.append(Event("doubled_down", {"seat": hand.seat, "hand": index, "bet": hand.bet}))
        _hit(state, hand, index, events)
        if hand.outcome == "":
            hand.outcome = "stood"
    else:  # split
        state.seats[hand.seat].cash -= hand.bet
        twin = Hand(hand.seat, [hand.cards.pop()], hand.bet, from_split=True, second=hand.second)
        hand.from_split = True
        casino.hands.insert(index + 1, twin)
        events.append(Event("split", {"seat": hand.seat, "hand": index, "bet": hand.bet}))
        _hit(state, hand, index, events)
        _hit(state, twin, index + 1, events)
    _prompt_play(state, events)


def _finish_round(state: HitchikerState, events: list[Event]) -> None:
    casino = state.casino
    standing = [hand for hand in casino.hands if hand.outcome == "stood"]
    house_total = hand_total(casino.house)
    if standing:
        while house_total < HOUSE_STANDS_ON:
            casino.house.append(_draw(state))
            house_total = hand_total(casino.house)
    events.append(Event("house_played", {"cards": [CARD_NAMES[c] for c in casino.house], "total": house_total}))
    for index, hand in enumerate(casino.hands):
        if hand.outcome != "stood":
            continue
        total = hand_total(hand.cards)
        cash_back = 0
        if house_total > 21 or total > house_total:
            hand.outcome = "win"
            cash_back = hand.bet + WIN_PAYS * hand.bet
            state.bank -= WIN_PAYS * hand.bet
        elif total == house_total:
            hand.outcome = "push"
            cash_back = hand.bet
        else:
            hand.outcome = "lose"
            state.bank += hand.bet
        state.seats[hand.seat].cash += cash_back
        events.append(Event("hand_settled", {"seat": hand.seat, "hand": index, "outcome": hand.outcome,
                                             "paid": cash_back}))
    _start_round(state, events)


def bet_decision(state: HitchikerState) -> Decision:
    seat = state.decider
    cash = state.seats[seat].cash
    low = {"type": "bet", "amount": 1}
    options = [low] if cash == 1 else [low, {"type": "bet", "amount": cash}]
    return Decision(seat, "bet", options, {"bet": {"amount": [1, cash]}}, low)


def play_decision(state: HitchikerState) -> Decision:
    casino = state.casino
    hand = casino.hands[casino.current]
    options = [STICK, HIT]
    if len(hand.cards) == 2 and state.seats[hand.seat].cash >= hand.bet:
        options.append(DOUBLE_DOWN)
        first, second = hand.cards
        if not hand.from_split and CARD_VALUES[first] == CARD_VALUES[second]:
            options.append(SPLIT)
    return Decision(hand.seat, "play_hand", options, default=STICK)


def _hand_view(hand: Hand) -> dict:
    total, soft = total_and_soft(hand.cards)
    return {"seat": hand.seat, "cards": [CARD_NAMES[c] for c in hand.cards],
            "card_values": [CARD_VALUES[c] for c in hand.cards], "total": total, "soft": soft, "bet": hand.bet,
            "outcome": hand.outcome, "split": hand.from_split, "doubled": hand.doubled, "second": hand.second}


def view(casino: Casino | None) -> dict | None:
    if casino is None:
        return None
    return {
        "dealer": casino.dealer,
        "round": casino.round,
        "house": [CARD_NAMES[c] for c in casino.house],
        "house_values": [CARD_VALUES[c] for c in casino.house],
        "house_total": hand_total(casino.house),
        "current": casino.current,
        "hands": [_hand_view(hand) for hand in casino.hands],
    }
