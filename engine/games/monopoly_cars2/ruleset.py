"""Monopoly: Cars 2 Edition on the engine contract (see docs/rules/monopoly-cars2.md)."""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable
from types import MappingProxyType

from marshmallow import fields, validate, validates_schema

from engine.bots import GENERIC_BOTS
from engine.core.clone import cloner
from engine.core.decisions import Decision
from engine.core.errors import InvalidOptions
from engine.core.events import Event
from engine.core.result import Result, best_seats
from engine.core.rng import Rng
from engine.core.ruleset import OptionsSchema, Ruleset, action_schema, turn_cap_field
from engine.core.turn_order import clockwise_from
from engine.games.monopoly_cars2 import tables as table_data
from engine.games.monopoly_cars2 import turn
from engine.games.monopoly_cars2.board import PROPERTY
from engine.games.monopoly_cars2.bots import HeuristicBot
from engine.games.monopoly_cars2.state import (
    CANNOT_BUY,
    CANNOT_PAY_BANK,
    CANNOT_PAY_RENT,
    CHOOSE_MOVE,
    CHOOSE_PROPERTY,
    JAIL,
    NOBODY,
    OVER,
    ROLL,
    TURN_CAP,
    GameState,
    OpeningSpin,
    Seat,
)
from engine.games.monopoly_cars2.tables import DEFAULT_BOARD, DEFAULT_DECK, Tables, custom_key, tables_for

DEFAULT_SPINNER = [1, 2, 3, 4, 5, 6]
MAX_SPINNER_FACE = 12
DEFAULT_TURN_CAP = 500
MAX_TURN_CAP = 5_000


def starting_money(players: int) -> int:
    return 18 if players == 2 else 13


class MonopolyCars2Options(OptionsSchema):
    # Once every property is sold, the GO salary can outpace the rents for ever (about 1 two-player
    # random game in 500 never ends), so this game always has a cap: 500 turns by default, at most
    # MAX_TURN_CAP (about two log entries a turn keep its longest record within a record's bound).
    turn_cap = turn_cap_field(
        DEFAULT_TURN_CAP, f"End the game after this many turns (1..{MAX_TURN_CAP}), scored like a normal end.",
        maximum=MAX_TURN_CAP,
    )
    spinner_faces = fields.List(
        fields.Integer(strict=True, validate=validate.Range(min=1, max=MAX_SPINNER_FACE)),
        load_default=None,
        allow_none=True,
        validate=validate.Length(min=1, max=60),
        metadata={"description": "The spinner's outcomes, each equally likely (default 1-6)."},
    )
    starting_money = fields.Integer(
        strict=True,
        load_default=None,
        allow_none=True,
        validate=validate.Range(min=0, max=10_000),
        metadata={"description": "Money dealt to each player (default M18 for 2 players, M13 for 3-4)."},
    )
    board = fields.Dict(
        load_default=None,
        allow_none=True,
        metadata={"description": "A custom board, in the format of `data.board` of GET /v1/rulesets/monopoly-cars2."},
    )
    chance_deck = fields.Dict(
        load_default=None,
        allow_none=True,
        metadata={"description": "A custom Chance deck, in the format of `data.chance_deck` of "
                                 "GET /v1/rulesets/monopoly-cars2."},
    )

    @validates_schema
    def board_and_deck(self, data: dict, **_: object) -> None:
        tables_for(custom_key(data.get("board"), data.get("chance_deck")))



ROLL_OPTIONS = [{"type": "roll"}]
USE_JAIL_CARD = {"type": "use_jail_card"}


@functools.cache
def _roll_decision(seat: int, in_jail: bool) -> Decision:
    """Most steps are a plain roll: one shared, never-mutated Decision per seat spares the hot loop."""
    return Decision(seat, "jail" if in_jail else "turn", ROLL_OPTIONS)


def _cheapest(options: list[dict], costs: list[tuple[bool, int]]) -> dict:
    """What a seat too slow to choose its Chance move plays: a move that does not end the game with it short
    if there is one, losing the least money; of those, the first offered (the lowest space, the shortest move)."""
    return options[min(range(len(options)), key=costs.__getitem__)]


class MonopolyCars2Ruleset(Ruleset):
    id = "monopoly-cars2"
    title = "Monopoly: Cars 2 Edition"
    actions_public = True  # no hidden or simultaneous choices
    #: 2: the rules fixes of issue 11 (see "Rules versions" in the rules doc)
    rules_version = 2
    event_types = (
        "opening_spin", "first_player", "turn", "spun", "moved", "race_again", "sent_to_prison", "left_prison",
        "bought", "cannot_buy", "chariot", "paid_rent", "paid_bank", "collected", "chance", "chance_pile_empty",
        "took_free_property", "game_over",
    )
    end_reasons = (CANNOT_BUY, CANNOT_PAY_RENT, CANNOT_PAY_BANK, TURN_CAP)
    #: the search's evaluation hints (engine/bots/search.py): roll out with the heuristic;
    #: a game is a few dozen actions: the search plays it out
    rollout_bot = "heuristic"
    search_horizon = 200
    #: the game analysis (docs/analysis.md, "The estimator"): choices are rare (a Chance card's property or
    #: move), so each is played out far, 200 actions, in more worlds
    analysis_method = MappingProxyType({"horizon": 200, "playouts": 64})
    min_players = 2
    max_players = 4
    options_schema = MonopolyCars2Options
    action_schemas = {
        "roll": action_schema("roll"),
        "use_jail_card": action_schema("use_jail_card"),
        "choose_property": action_schema("choose_property", space=fields.Integer(required=True, strict=True)),
        "move_forward": action_schema("move_forward", spaces=fields.Integer(required=True, strict=True)),
    }
    state_class = GameState
    generic_bots = GENERIC_BOTS
    bots = {"heuristic": HeuristicBot}

    # -- setup ---------------------------------------------------------------------

    def caches(self) -> dict[str, Callable[[], tuple[int, int]]]:
        return {"custom_tables": table_data.custom_tables.sizes}

    def load_options(self, options: dict | None) -> dict:
        try:
            return super().load_options(options)
        except InvalidOptions as error:
            if "chance_deck" in error.fields and (options or {}).get("board") and not options.get("chance_deck"):
                error.fields["chance_deck"] = [
                    "the published Chance deck does not fit this custom board; give a chance_deck too",
                    error.fields["chance_deck"],
                ]
            raise

    def default_data(self) -> dict:
        return {"board": copy.deepcopy(DEFAULT_BOARD), "chance_deck": copy.deepcopy(DEFAULT_DECK),
                "spinner_faces": list(DEFAULT_SPINNER)}

    def setup(self, players: int, options: dict, rng: Rng) -> GameState:
        custom = custom_key(options["board"], options["chance_deck"])
        tables = tables_for(custom)
        money = options["starting_money"]
        state = GameState(
            players=players,
            seats=[Seat(money=starting_money(players) if money is None else money) for _ in range(players)],
            owners=[NOBODY] * len(tables.board.spaces),
            pile=list(range(len(tables.cards))),
            spinner=list(options["spinner_faces"] or DEFAULT_SPINNER),
            rng=rng,
            custom=custom,
            turn_cap=options["turn_cap"] or 0,
        )
        rng.shuffle(state.pile)
        events: list[Event] = []
        state.current = state.first_seat = turn.spin_off(state, events)
        state.opening_spins = [OpeningSpin(**event.data) for event in events]
        state.last_spin = 0
        turn.start_turn(state, [])
        return state

    def setup_events(self, state: GameState) -> list[Event]:
        events = [Event("opening_spin", {"round": s.round, "seat": s.seat, "value": s.value})
                  for s in state.opening_spins]
        events.append(Event("first_player", {"seat": state.first_seat}))
        return events

    # -- play ----------------------------------------------------------------------

    def tables(self, state: GameState) -> Tables:
        return tables_for(state.custom)

    def pending(self, state: GameState) -> list[Decision]:
        phase = state.phase
        seat = state.current
        if phase == ROLL:
            return [_roll_decision(seat, state.seats[seat].in_jail)]
        if phase == JAIL:
            # "If you have a 'Get Out of Jail Free' card, you simply race ... and pay nothing!"
            return [Decision(seat, "jail", [USE_JAIL_CARD], default=USE_JAIL_CARD)]
        if phase == CHOOSE_PROPERTY:
            tables = self.tables(state)
            choices = turn.free_property_choices(state, tables, tables.cards[state.card])
            size = len(tables.board.spaces)
            position = state.seats[seat].position
            costs = [turn.move_cost(state, tables, seat, (space - position) % size, free_property=True)
                     for space in choices]
            options = [{"type": "choose_property", "space": s} for s in choices]
            return [Decision(seat, "chance_property", options, default=_cheapest(options, costs))]
        if phase == CHOOSE_MOVE:
            tables = self.tables(state)
            steps = range(1, tables.cards[state.card].max_spaces + 1)
            options = [{"type": "move_forward", "spaces": n} for n in steps]
            costs = [turn.move_cost(state, tables, seat, n) for n in steps]
            return [Decision(seat, "chance_move", options, default=_cheapest(options, costs))]
        return []

    def play(self, state: GameState, seat: int, action: dict) -> list[Event]:
        tables = self.tables(state)
        events: list[Event] = []
        kind = action["type"]
        if kind == "roll":
            turn.roll(state, tables, events)
        elif kind == "use_jail_card":
            turn.use_jail_card(state, tables, events)
        else:
            state.phase = ROLL
            state.card = -1
            if kind == "choose_property":
                turn.go_for_free_property(state, tables, seat, action["space"], events)
            else:
                turn.advance(state, tables, seat, action["spaces"], events)
        turn.finish_action(state, events)
        return events

    # -- what players see and the outcome ----------------------------------------------

    def view(self, state: GameState, seat: int | None) -> dict:
        tables = self.tables(state)
        owners = state.owners
        properties: list[list[int]] = [[] for _ in state.seats]
        for space, owner in enumerate(owners):
            if owner != NOBODY:
                properties[owner].append(space)
        return {
            "seat": seat,
            "turn": state.turn,
            "turn_cap": state.turn_cap or None,
            "current": state.current,
            "phase": state.phase,
            "last_spin": state.last_spin,
            "spinner": list(state.spinner),
            "players": [
                {
                    "money": player.money,
                    "position": player.position,
                    "in_prison": player.in_jail,
                    "jail_cards": list(player.jail_cards),
                    "properties": properties[index],
                }
                for index, player in enumerate(state.seats)
            ],
            "owners": [None if owner == NOBODY else owner for owner in owners],
            "board": tables.board.public,
            "go_salary": tables.board.go_salary,
            "jail_fine": tables.board.jail_fine,
            "chance": {
                "cards": tables.public_cards,
                "pile_size": len(state.pile),
                "pending_card": state.card if state.card >= 0 else None,
            },
            "bank": state.bank,
            "opening_spins": [{"round": s.round, "seat": s.seat, "value": s.value} for s in state.opening_spins],
            "end_reason": state.end_reason or None,
        }

    def turn_order(self, state: GameState) -> list[int]:
        """The spin-off's winner, then round the table by seat number (docs/rules, "Who goes first")."""
        return clockwise_from(state.first_seat, state.players)

    def result(self, state: GameState) -> Result | None:
        if state.phase != OVER:
            return None
        money = [player.money for player in state.seats]
        properties = [0] * state.players
        for owner in state.owners:
            if owner != NOBODY:
                properties[owner] += 1
        short = state.short_seat
        # The seat that could not pay or buy is out of the count ("all the other players count their money").
        contenders = sorted(
            (seat for seat in range(state.players) if seat != short),
            key=lambda seat: (-money[seat], -properties[seat], seat),
        )
        winners = best_seats(contenders, key=lambda seat: (money[seat], properties[seat]))
        ranking = contenders + ([short] if short != NOBODY else [])
        return Result(
            winners=winners,
            ranking=ranking,
            scores=money,
            reason=state.end_reason,
            turn_cap_hit=state.end_reason == TURN_CAP,
            details={"properties": properties, "short_seat": None if short == NOBODY else short},
        )

    def standings(self, state: GameState) -> list[float]:
        """The search's hint: money, as the end of the game counts it."""
        return [player.money for player in state.seats]

    def money_in_play(self, state: GameState) -> int:
        return sum(player.money for player in state.seats) + state.bank

    def state_problems(self, state: GameState) -> list[str]:
        """No seat below M0, every property owned by a seat or by nobody, every token on the board, every
        Chance card once in the pile or in one hand."""
        tables = self.tables(state)
        problems = [f"seat {seat} has M{player.money}" for seat, player in enumerate(state.seats) if player.money < 0]
        problems += [f"space {space} is owned by {owner}" for space, owner in enumerate(state.owners)
                     if owner != NOBODY and not (0 <= owner < state.players
                                                 and tables.board.spaces[space].kind == PROPERTY)]
        problems += [f"seat {seat} stands on {player.position}" for seat, player in enumerate(state.seats)
                     if not 0 <= player.position < len(tables.board.spaces)]
        cards = sorted(state.pile + [card for player in state.seats for card in player.jail_cards])
        if cards != list(range(len(tables.cards))):
            problems.append(f"the Chance cards are {cards}")
        return problems

    copy = staticmethod(cloner(GameState))

    def resample_chance(self, state: GameState, rng: Rng) -> GameState:
        """The dice and the Chance pile's order: everything this game hides, and all of it chance."""
        return self.resample_hidden(state, None, rng)

    def resample_hidden(self, state: GameState, seat: int | None, rng: Rng) -> GameState:
        other = super().resample_hidden(state, seat, rng)
        # The pile's order is face down for everyone (its cards are known: those nobody holds): deal
        # it anew from a canonical order, so the world does not depend on the real order.
        other.pile.sort()
        rng.quick_shuffle(other.pile)
        return other
