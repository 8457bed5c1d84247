"""What a seat has at stake in each game, as the timeout-default tests judge it.

These are the tests' own definitions, written from the rules docs and independent of the engines'
default policies, of what "self-destructive" means for a seat whose time ran out (docs/rules/<id>.md,
"what a timed-out seat plays"): a move's ``Fate`` says whether it put the seat out of the game, whether
the game is over with the seat among the winners, and what of value the seat lost by it for nothing
in return, item by item. ``secret_odds`` is how a secret default is documented to be drawn.

A ruleset without an entry in ``STAKES`` fails the timeout tests: say what it has at stake first.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from engine.core.decisions import Decision
from engine.core.ruleset import Ruleset
from engine.games.cash_n_guns.cards import BANG, CLICK, loot_value
from engine.games.whipcash.state import WhipcashState


@dataclass(frozen=True, slots=True)
class Fate:
    #: the move put the seat out of the game (eliminated, short, dead)
    out: bool
    #: the game is over and the seat is among its winners
    won: bool
    #: amounts of the seat's things of value it no longer has, with nothing in return, item by item
    lost: tuple[int, ...]


def _won(ruleset: Ruleset, after, seat: int) -> bool:
    result = ruleset.result(after)
    return result is not None and seat in result.winners


def uniform_odds(ruleset: Ruleset, state, decision: Decision) -> dict:
    """The core's secret default: each offered option equally likely."""
    share = Fraction(1, len(decision.options))
    return {_key(option): share for option in decision.options}


def _key(action: dict) -> tuple:
    return tuple(sorted(action.items()))


class CashNGunsStakes:
    """A gangster is out when dead; he can lose loot value (never, by a choice of his) and gain wounds.
    A timed-out bullet or clip toss is a card of the hand, each card equally likely; courage even odds."""

    @staticmethod
    def fate(ruleset, before, after, events, seat: int) -> Fate:
        chart = before.painting_set_values
        was, now = before.gangsters[seat], after.gangsters[seat]
        return Fate(out=was.alive and not now.alive, won=_won(ruleset, after, seat),
                    lost=(max(0, loot_value(was.loot, chart) - loot_value(now.loot, chart)),
                          max(0, now.wounds - was.wounds)))

    @staticmethod
    def secret_odds(ruleset, state, decision: Decision) -> dict:
        if decision.kind == "courage":
            return uniform_odds(ruleset, state, decision)
        gangster = state.gangsters[decision.seat]
        hand = gangster.clicks + gangster.bangs
        odds = {CLICK: Fraction(gangster.clicks, hand), BANG: Fraction(gangster.bangs, hand)}
        return {_key({"type": decision.kind, "card": card}): chance for card, chance in odds.items() if chance}


class WhipcashStakes:
    """A player is out when bankrupt; he can lose cash and his Anti-Fender Bender card."""

    @staticmethod
    def fate(ruleset, before: WhipcashState, after: WhipcashState, events, seat: int) -> Fate:
        card_lost = int(before.card[seat] and not after.card[seat])
        return Fate(out=before.alive[seat] and not after.alive[seat], won=_won(ruleset, after, seat),
                    lost=(max(0, before.cash[seat] - after.cash[seat]), card_lost))

    secret_odds = staticmethod(uniform_odds)


class MonopolyStakes:
    """A seat is out when it is the short seat; its worth is its money and its properties at their price
    (a purchase loses nothing: the money becomes the property)."""

    @staticmethod
    def fate(ruleset, before, after, events, seat: int) -> Fate:
        def worth(state) -> int:
            board = ruleset.tables(state).board
            owned = sum(board.spaces[space].price for space, owner in enumerate(state.owners) if owner == seat)
            return state.seats[seat].money + owned

        return Fate(out=after.short_seat == seat, won=_won(ruleset, after, seat),
                    lost=(max(0, worth(before) - worth(after)),))

    secret_odds = staticmethod(uniform_odds)


class HitchikerStakes:
    """Nobody leaves Hitchiker, but a death loses everything: a seat that dies is out, for this purpose.
    Its money is its cash, savings, and its stake and bets lying on the board; money spent on units of
    contraband or a Hometown bought something, so only money gone with nothing gained is lost."""

    @staticmethod
    def fate(ruleset, before, after, events, seat: int) -> Fate:
        def money(state) -> int:
            hitchiker = state.seats[seat]
            stake = state.deal.stake if state.deal is not None and state.deal.buyer == seat else 0
            bets = sum(hand.bet for hand in state.casino.hands if hand.seat == seat and hand.outcome in ("", "stood")) \
                if state.casino is not None else 0
            return hitchiker.cash + hitchiker.savings + stake + bets

        was, now = before.seats[seat], after.seats[seat]
        gained = now.units > was.units or len(now.hometowns) > len(was.hometowns)
        died = any(event.type == "died" and event.data["seat"] == seat for event in events)
        return Fate(out=died, won=_won(ruleset, after, seat),
                    lost=(0 if gained else max(0, money(before) - money(after)),))

    secret_odds = staticmethod(uniform_odds)


STAKES = {
    "cash-n-guns": CashNGunsStakes,
    "whipcash": WhipcashStakes,
    "monopoly-cars2": MonopolyStakes,
    "hitchiker": HitchikerStakes,
}
