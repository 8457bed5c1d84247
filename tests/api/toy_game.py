"""A tiny ruleset with secrets, used to test the service before (and beside) the real games.

Each round the active seat rolls a die and takes that much from the bank; then every
seat secretly plays one card of its hidden hand at the same time; the highest card
takes 1 from each other seat (a tie pays nobody). After ``rounds`` rounds the richest
seat wins.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from marshmallow import fields, validate

from engine.bots import GENERIC_BOTS
from engine.core.decisions import Decision
from engine.core.events import Event
from engine.core.result import Result
from engine.core.rng import Rng
from engine.core.ruleset import OptionsSchema, Ruleset, action_schema


class ToyOptions(OptionsSchema):
    rounds = fields.Integer(load_default=2, validate=validate.Range(min=1, max=20))


@dataclass(slots=True)
class ToyState:
    players: int
    rng: Rng
    turn: int = 0
    rounds: int = 2
    round: int = 0
    phase: str = "roll"
    active: int = 0
    money: list[int] = field(default_factory=list)
    bank: int = 0
    hands: list[list[int]] = field(default_factory=list)
    played: list[int] = field(default_factory=list)  # -1: not yet


class ToyRuleset(Ruleset):
    id = "toy-secrets"
    title = "Toy secrets"
    min_players = 2
    max_players = 4
    options_schema = ToyOptions
    state_class = ToyState
    action_schemas = {
        "roll": action_schema("roll"),
        "play_card": action_schema("play_card", card=fields.Integer(required=True, strict=True)),
    }
    generic_bots = GENERIC_BOTS

    def setup(self, players: int, options: dict, rng: Rng) -> ToyState:
        state = ToyState(players=players, rng=rng, rounds=options["rounds"], money=[5] * players)
        deck = list(range(1, 4 * options["rounds"] * players + 1))
        rng.shuffle(deck)
        state.hands = [sorted(deck[i * options["rounds"]:(i + 1) * options["rounds"]]) for i in range(players)]
        state.played = [-1] * players
        return state

    def turn_order(self, state: ToyState) -> list[int]:
        return list(range(state.players))  # seat 0 rolls first, then round by seat number

    def pending(self, state: ToyState) -> list[Decision]:
        if state.round >= state.rounds:
            return []
        if state.phase == "roll":
            return [Decision(state.active, "roll", [{"type": "roll"}])]
        return [Decision(seat, "play_card", [{"type": "play_card", "card": card} for card in state.hands[seat]])
                for seat in range(state.players) if state.played[seat] < 0]

    def play(self, state: ToyState, seat: int, action: dict) -> list[Event]:
        if action["type"] == "roll":
            die = state.rng.die()
            state.money[seat] += die
            state.bank -= die
            state.phase = "play"
            return [Event("rolled", {"seat": seat, "die": die})]
        card = action["card"]
        state.hands[seat].remove(card)
        state.played[seat] = card
        events = [Event("card_played", {"seat": seat, "card": card}, visible_to=(seat,)),
                  Event("card_played", {"seat": seat})]
        if min(state.played) < 0:
            return events
        best = max(state.played)
        winners = [s for s in range(state.players) if state.played[s] == best]
        events.append(Event("cards_revealed", {"cards": list(state.played)}))
        if len(winners) == 1:
            for other in range(state.players):
                if other != winners[0]:
                    state.money[other] -= 1
                    state.money[winners[0]] += 1
        state.played = [-1] * state.players
        state.round += 1
        state.turn += 1
        state.active = (state.active + 1) % state.players
        state.phase = "roll"
        return events

    def view(self, state: ToyState, seat: int | None) -> dict:
        body = {
            "round": state.round, "phase": state.phase, "active": state.active, "money": list(state.money),
            "hand_sizes": [len(hand) for hand in state.hands],
            "has_played": [card >= 0 for card in state.played],
        }
        if seat is not None:
            body["hand"] = list(state.hands[seat])
            body["my_card"] = state.played[seat]
        return body

    def result(self, state: ToyState) -> Result | None:
        if state.round < state.rounds:
            return None
        best = max(state.money)
        winners = [seat for seat, money in enumerate(state.money) if money == best]
        ranking = sorted(range(state.players), key=lambda s: -state.money[s])
        return Result(winners, ranking, list(state.money), "rounds")

    def resample_hidden(self, state: ToyState, seat: int | None, rng: Rng) -> ToyState:
        other = self.copy(state)
        other.rng = Rng(rng.next64())
        hidden = [s for s in range(state.players) if s != seat]
        pool = [card for s in hidden for card in other.hands[s]]
        rng.shuffle(pool)
        for s in hidden:
            size = len(other.hands[s])
            other.hands[s], pool = sorted(pool[:size]), pool[size:]
            if other.played[s] >= 0:
                other.played[s] = 0  # a played card stays secret until the reveal
        return other

    def money_in_play(self, state: ToyState) -> int:
        return sum(state.money) + state.bank


RULESET = ToyRuleset()
