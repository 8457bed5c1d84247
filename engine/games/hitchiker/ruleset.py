"""Hitchiker: the ruleset (setup, decisions, actions, views, result)."""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable

from marshmallow import fields, validate

from engine.bots import GENERIC_BOTS
from engine.core.clone import cloner
from engine.core.decisions import Decision
from engine.core.errors import IllegalAction, InvalidOptions
from engine.core.events import Event
from engine.core.result import Result
from engine.core.rng import Rng
from engine.core.ruleset import STATE_FORMAT, OptionsSchema, Ruleset, action_schema, turn_cap_field
from engine.core.strict import StrictBoolean
from engine.core.turn_order import clockwise_from, roll_for_first
from engine.games.hitchiker import black_market, casino, turn
from engine.games.hitchiker import tables as table_data
from engine.games.hitchiker.bots import HeuristicBot
from engine.games.hitchiker.money import START_CASH, bus_home, from_bank, take_hometown
from engine.games.hitchiker.state import (
    NOBODY,
    Hitchiker,
    HitchikerState,
    owner_of,
    state_from_jsonable,
    state_to_jsonable,
)
from engine.games.hitchiker.tables import DEFAULT_DATA, Tables, custom_data, data_key, tables_for

ROLL = {"type": "roll"}
PASS = {"type": "pass"}
BUY = {"type": "buy_hometown"}
SELL = {"type": "sell"}


#: the decisions whose options never change: phase -> (options, default)
FIXED_DECISIONS = {
    "roll": ([ROLL], ROLL),
    "deal_roll": ([ROLL], ROLL),
    "buy_hometown": ([BUY, PASS], PASS),
    "sell": ([SELL, PASS], SELL),
}


@functools.cache
def _fixed_decision(seat: int, phase: str) -> Decision:
    """One shared, never-mutated Decision per seat and phase: ``pending`` runs after every action."""
    options, default = FIXED_DECISIONS[phase]
    return Decision(seat, phase, options, default=default)


#: Rules version 3: a game ends after this many turns at the latest. Savings grow only by deposits,
#: so a table that never saves (or random bots, whose 6-player games reached 4,096 turns) could
#: play on for ever; the cap bounds every game and so every record (docs/rules/hitchiker.md).
DEFAULT_TURN_CAP = 2_000


class HitchikerOptions(OptionsSchema):
    turn_cap = turn_cap_field(
        DEFAULT_TURN_CAP, f"End the game after this many turns (1..{DEFAULT_TURN_CAP}, the default); the highest "
        "savings + travelling cash wins.", maximum=DEFAULT_TURN_CAP)
    board = fields.Dict(load_default=None, allow_none=True,
                        metadata={"description": "A custom board, as `data.board` of GET /v1/rulesets/hitchiker."})
    deal_chart = fields.Dict(load_default=None, allow_none=True,
                             metadata={"description": "A custom Black Market Deal Chart, as `data.deal_chart`."})
    bad_ride_deck = fields.Dict(load_default=None, allow_none=True,
                                metadata={"description": "A custom Bad Ride deck, as `data.bad_ride_deck`."})
    savings_to_pouch = StrictBoolean(
        load_default=False,
        metadata={"description": "House rule: savings inherited at a death or received from a Customs bust go "
                                 "into the receiver's Bank Pouch (by default they arrive as travelling cash)."})


def _amount() -> fields.Integer:
    return fields.Integer(required=True, strict=True, validate=validate.Range(min=0))


#: what a dollar of travelling cash counts for, beside a dollar saved, in the search's standings
STANDING_CASH_SHARE = 0.5


class HitchikerRuleset(Ruleset):
    id = "hitchiker"
    title = "Hitchiker"
    actions_public = True  # no hidden or simultaneous choices
    #: 2: the rules fixes of issue 11; 3: a Hometown on offer to the active seat cannot be picked by a
    #: joining player, and the default turn cap (see "Rules versions" in the rules doc)
    rules_version = 3
    event_types = (
        "turn_order_rolled", "hometown_picked", "game_started", "player_joined", "joined_homeless",
        "rolled", "still_in_pot_hole", "escaped_pot_hole", "moving", "passed_hometown", "landed",
        "collected", "paid", "went_broke", "bussed_home", "deposited", "declined",
        "hometown_priced", "hometown_bought", "rent_roll", "no_hometown", "shark_roll", "in_pot_hole",
        "contraband_found", "contraband_sold", "contraband_lost", "customs_cleared", "busted",
        "bad_ride_reshuffled", "bad_ride", "rolled_for_bill", "savings_lost", "savings_withdrawn",
        "black_market_skipped", "deal_opened", "deal_rolled", "deal_declined", "contraband_bought",
        "contraband_free", "ripped_off", "casino_opened", "casino_round_skipped", "casino_round_dealt",
        "hand_withdrawn", "bet_placed", "card_dealt", "blackjack", "hand_bust", "doubled_down", "split",
        "house_played", "hand_settled", "casino_closed", "died", "reincarnated_homeless", "game_won",
        "turn_cap_reached",
    )
    end_reasons = ("savings", "travelling_cash", "both", "turn_cap")
    #: the search's evaluation hints (engine/bots/search.py): roll out with the heuristic;
    #: games run for hundreds of actions; a hand of blackjack or a deposit shows in 40
    rollout_bot = "heuristic"
    search_horizon = 40
    #: With the value model (docs/bots.md, "The paired games"): rollouts of 10 actions scored by the model,
    #: twice the level's worlds (at about three quarters of the cost of 40-action rollouts) and no tree of
    #: the seat's later moves; the search beat the heuristic in its seat over 800 paired games.
    value_horizon = 10
    value_worlds = 2
    value_flat = True
    min_players = 2
    max_players = 6
    options_schema = HitchikerOptions
    state_class = HitchikerState
    action_schemas = {
        "pick_hometown": action_schema("pick_hometown", city=fields.String(required=True)),
        "roll": action_schema("roll"),
        "deposit": action_schema("deposit", amount=_amount()),
        "buy_hometown": action_schema("buy_hometown"),
        "pass": action_schema("pass"),
        "risk": action_schema("risk", amount=_amount()),
        "accept_deal": action_schema("accept_deal"),
        "decline_deal": action_schema("decline_deal"),
        "sell": action_schema("sell"),
        "go_home": action_schema("go_home", city=fields.String(required=True)),
        "bet": action_schema("bet", amount=_amount()),
        "hit": action_schema("hit"),
        "stick": action_schema("stick"),
        "split": action_schema("split"),
        "double_down": action_schema("double_down"),
    }
    generic_bots = GENERIC_BOTS
    bots = {"heuristic": HeuristicBot}

    # -- setup -------------------------------------------------------------------

    def caches(self) -> dict[str, Callable[[], tuple[int, int]]]:
        return {"custom_tables": table_data.custom_tables.sizes}

    def setup(self, players: int, options: dict, rng: Rng) -> HitchikerState:
        custom = custom_data(options)
        key = data_key(custom)
        tables = tables_for(key, custom)
        if len(tables.hometowns) < players:
            raise InvalidOptions(f"the board has {len(tables.hometowns)} hometowns for {players} players",
                                 fields={"board": {"cities": [f"needs at least {players} hometowns"]}})
        state = HitchikerState(
            players=players, rng=rng, seats=[Hitchiker(cash=START_CASH) for _ in range(players)],
            bad_ride_discards=[],
            bank=-START_CASH * players, turn_cap=options["turn_cap"], custom=custom, data_key=key,
            savings_to_pouch=options["savings_to_pouch"],
        )
        state.first = self._roll_for_first(state)
        state.pick_queue = self.turn_order(state)  # Hometowns are picked in turn order
        state.active = state.decider = state.first
        return state

    @staticmethod
    def _roll_for_first(state: HitchikerState) -> int:
        """Everyone rolls both dice; the highest goes first; a tie for highest re-rolls among the tied."""
        rng = state.rng
        (first,), rolls = roll_for_first(range(state.players), lambda: rng.die() + rng.die())
        state.opening_rolls = [{"round": round_number, "seat": seat, "roll": roll}
                               for round_number, seat, roll in rolls]
        return first

    def setup_events(self, state: HitchikerState) -> list[Event]:
        rolls = [dict(roll) for roll in state.opening_rolls]
        return [Event("turn_order_rolled", {"rolls": rolls, "first": state.first})]

    def tables(self, state: HitchikerState) -> Tables:
        return tables_for(state.data_key, state.custom)

    # -- decisions ---------------------------------------------------------------

    def pending(self, state: HitchikerState) -> list[Decision]:
        decisions = self._phase_pending(state)
        if state.joining and state.phase not in ("over", "pick_hometown"):
            # Players who joined mid-game pick their Hometown beside whatever the table waits for
            # (after a reincarnated player's pick, which must not find the Hometowns all gone), but
            # never the one on offer to the active seat; when it is the only one left they wait
            # until the offer is settled.
            on_offer = state.seats[state.decider].position if state.phase == "buy_hometown" else NOBODY
            options = self._unowned_hometowns(state, besides=on_offer)
            if options:
                decisions += [Decision(seat, "pick_hometown", options) for seat in state.joining]
        return decisions

    def _unowned_hometowns(self, state: HitchikerState, besides: int = NOBODY) -> list[dict]:
        tables = self.tables(state)
        return [{"type": "pick_hometown", "city": tables.cities[c].name}
                for c in tables.hometowns if c != besides and owner_of(state, c) == NOBODY]

    def _phase_pending(self, state: HitchikerState) -> list[Decision]:
        phase = state.phase
        seat = state.decider
        if phase == "roll" or phase == "deal_roll":
            return [_fixed_decision(seat, phase)]
        if phase == "deposit":
            limit = state.deposit_limit
            most = {"type": "deposit", "amount": limit}
            # A seat too slow to decide banks all it may: travelling cash is what Customs, fines and
            # thieves take, and savings are what wins.
            return [Decision(seat, "deposit", [{"type": "deposit", "amount": 0}, most],
                             {"deposit": {"amount": [0, limit]}}, most)]
        if phase == "bet":
            return [casino.bet_decision(state)]
        if phase == "play_hand":
            return [casino.play_decision(state)]
        if phase == "black_market":
            return [black_market.risk_decision(state)]
        if phase == "deal_choice":
            return [black_market.choice_decision(state, self.tables(state))]
        if phase == "buy_hometown" or phase == "sell":
            return [_fixed_decision(seat, phase)]
        if phase == "pick_hometown":
            return [Decision(seat, "pick_hometown", self._unowned_hometowns(state))]
        if phase == "go_home":
            cities = self.tables(state).cities
            options = [{"type": "go_home", "city": cities[c].name} for c in state.seats[seat].hometowns]
            return [Decision(seat, "go_home", options)]
        return []

    # -- actions -----------------------------------------------------------------

    def play(self, state: HitchikerState, seat: int, action: dict) -> list[Event]:
        tables = self.tables(state)
        events: list[Event] = []
        kind = action["type"]
        phase = state.phase
        if kind == "roll":
            if phase == "roll":
                turn.take_turn_roll(state, tables, events)
            else:
                black_market.roll(state, tables, events)
        elif kind == "deposit":
            turn.deposit(state, seat, action["amount"], events)
        elif kind in ("hit", "stick", "split", "double_down"):
            casino.play_hand(state, kind, events)
        elif kind == "bet":
            casino.bet(state, action["amount"], events)
        elif kind == "risk":
            black_market.risk(state, seat, action["amount"], events)
        elif kind == "accept_deal":
            black_market.take(state, tables, events)
        elif kind == "decline_deal":
            black_market.decline(state, events)
        elif kind == "buy_hometown":
            turn.buy_hometown(state, seat, events)
        elif kind == "sell":
            state.phase = ""
            turn.sell(state, tables, seat, events)
        elif kind == "pass":
            state.phase = ""
            events.append(Event("declined", {"seat": seat, "what": phase}))
        elif kind == "pick_hometown" and not (phase == "pick_hometown" and state.decider == seat):
            self._joiner_picks(state, tables, seat, action["city"], events)
        elif kind == "pick_hometown":
            self._pick_hometown(state, tables, seat, action["city"], events)
        elif kind == "go_home":
            state.phase = ""
            bus_home(state, seat, tables.index_by_name[action["city"]], events)
        else:  # pragma: no cover - the base class only lets offered actions through
            raise IllegalAction("action_not_allowed", f"{kind!r} is not a choice now")
        if state.phase == "":
            turn.advance(state, tables, events)
        if state.phase != "over":
            turn.check_winners(state, events)
        if state.joining:
            self._settle_joiners(state, events)
        return events

    # -- players joining a running game ---------------------------------------------

    joins_mid_game = True

    def seat_changed(self, state: HitchikerState, change: dict) -> list[Event]:
        """"Anyone can join the game at any time": a ``seat_joined`` naming the next seat number
        seats a new player, last in seat order, with $25,000 from the bank and an unowned
        Hometown to pick (homeless when every one is owned). A join into an existing seat (before
        the start) and every other seat change leave the rules alone."""
        if change.get("kind") != "seat_joined" or change.get("seat") != state.players:
            return []
        if state.phase == "over":
            raise IllegalAction("game_over", "the game is over")
        if state.players >= self.max_players:
            raise IllegalAction("table_full", f"{self.title} seats at most {self.max_players} players")
        seat = state.players
        state.players += 1
        start = state.seats[state.active].position
        state.seats.append(Hitchiker(position=start))
        events = [Event("player_joined", {"seat": seat, "at": start})]
        from_bank(state, seat, START_CASH, "joined", events)
        free = len(self._unowned_hometowns(state))
        if state.phase == "pick_hometown" and not state.started and free > len(state.pick_queue):
            state.pick_queue.append(seat)  # the opening picks are still going: pick last
        elif not free or (state.phase == "pick_hometown" and not state.started):
            events.append(Event("joined_homeless", {"seat": seat, "at": start}))
        else:
            state.joining.append(seat)
        return events

    def _joiner_picks(self, state: HitchikerState, tables: Tables, seat: int, name: str, events: list[Event]) -> None:
        city = tables.index_by_name[name]
        take_hometown(state, seat, city)
        state.seats[seat].position = city
        state.joining.remove(seat)
        events.append(Event("hometown_picked", {"seat": seat, "city": city, "name": name}))

    def _settle_joiners(self, state: HitchikerState, events: list[Event]) -> None:
        """Joiners left without an unowned Hometown to pick stay homeless and take their turns."""
        if state.joining and not self._unowned_hometowns(state):
            for seat in state.joining:
                events.append(Event("joined_homeless", {"seat": seat, "at": state.seats[seat].position}))
            state.joining.clear()

    def _pick_hometown(self, state: HitchikerState, tables: Tables, seat: int, name: str, events: list[Event]) -> None:
        if seat in state.joining:  # died and reincarnated before picking: this pick is both
            state.joining.remove(seat)
        city = tables.index_by_name[name]
        take_hometown(state, seat, city)
        state.seats[seat].position = city
        state.pick_queue.pop(0)
        events.append(Event("hometown_picked", {"seat": seat, "city": city, "name": name}))
        if state.pick_queue:
            state.decider = state.pick_queue[0]
        elif state.started:
            state.phase = ""
        else:
            state.started = True
            state.phase = "roll"
            state.decider = state.active = state.first
            events.append(Event("game_started", {"first": state.first}))

    # -- views and results -------------------------------------------------------

    def view(self, state: HitchikerState, seat: int | None) -> dict:
        tables = self.tables(state)
        return {
            "seat": seat,
            "turn": state.turn,
            "phase": state.phase,
            "active": state.active,
            "decider": state.decider,
            "first": state.first,
            "bank": state.bank,
            "players": [
                {"cash": h.cash, "savings": h.savings, "units": h.units, "position": h.position,
                 "hometowns": list(h.hometowns), "in_pot_hole": h.in_pot_hole}
                for h in state.seats
            ],
            "deposit_limit": state.deposit_limit if state.phase == "deposit" else None,
            "offer_price": state.offer_price if state.phase == "buy_hometown" else None,
            "deal": black_market.view(state.deal, tables),
            "casino": casino.view(state.casino),
            "bad_ride_cards_left": len(tables.deck) - len(state.bad_ride_discards),
            "bad_ride_discards": list(state.bad_ride_discards),
            "opening_rolls": state.opening_rolls,
            "turn_cap": state.turn_cap or None,
            "winners": list(state.winners),
            "end_reason": state.end_reason or None,
            "joining": list(state.joining),
            # The default board, chart and deck are in the ruleset's metadata; custom ones ride along.
            "custom_data": state.custom,
        }

    copy = staticmethod(cloner(HitchikerState))

    # The generic serializer walks the tree through dataclass introspection; these write out
    # the very same JSON shape (tested against it) several times faster.
    def to_dict(self, state: HitchikerState) -> dict:
        return {"format": STATE_FORMAT, "ruleset": self.id, "state": state_to_jsonable(state)}

    def from_dict(self, data: dict) -> HitchikerState:
        if data.get("format") != STATE_FORMAT or data.get("ruleset") != self.id:
            raise ValueError(f"not a {self.id} state of format {STATE_FORMAT}")
        return state_from_jsonable(data["state"])

    def resample_chance(self, state: HitchikerState, rng: Rng) -> HitchikerState:
        """The dice, the piles' draws and the burned casino card: everything this game hides is chance."""
        return self.resample_hidden(state, None, rng)

    def resample_hidden(self, state: HitchikerState, seat: int | None, rng: Rng) -> HitchikerState:
        """Re-seed the RNG and burn another card at a casino table: the two things nobody sees.

        Card piles are drawn from at random, not stored in order, so nothing else is secret; the
        new burned card is drawn from the cards not on the table, whatever the real one was.
        """
        other = super().resample_hidden(state, seat, rng)
        casino.reburn(other.casino, rng)
        return other

    def default_data(self) -> dict:
        return copy.deepcopy(DEFAULT_DATA)

    def standings(self, state: HitchikerState) -> list[float]:
        """The search's hint: savings, and travelling cash at half (it can still be lost on the road and
        only savings reach the goal)."""
        return [h.savings + h.cash * STANDING_CASH_SHARE for h in state.seats]

    def state_problems(self, state: HitchikerState) -> list[str]:
        """Every Hometown has at most one owner and only Hometowns are owned; no seat holds a negative
        amount of cash, savings or contraband; every pawn is on the board."""
        tables = self.tables(state)
        owned = [city for h in state.seats for city in h.hometowns]
        distinct = set(owned)
        problems = []
        if len(distinct) != len(owned):
            problems += [f"{tables.cities[city].name} has {owned.count(city)} owners"
                         for city in sorted(distinct) if owned.count(city) > 1]
        if not distinct.issubset(tables.hometowns):
            problems += [f"{tables.cities[city].name} is owned but no Hometown"
                         for city in sorted(distinct.difference(tables.hometowns))]
        cities = len(tables.cities)
        problems += [f"seat {seat}: {h}" for seat, h in enumerate(state.seats)
                     if h.cash < 0 or h.savings < 0 or h.units < 0 or not 0 <= h.position < cities]
        return problems

    def money_in_play(self, state: HitchikerState) -> int:
        on_board = state.deal.stake if state.deal is not None else 0
        players = sum(h.cash + h.savings for h in state.seats)
        return players + state.bank + on_board + casino.table_money(state.casino)

    def turn_order(self, state: HitchikerState) -> list[int]:
        """The opening roll's winner, then left round the table in seat order. A player who joined mid-game
        sits last in seat order, so plays after the highest-numbered seat before them and before seat 0:
        their position is that place in the round (docs/rules, "Joining a running game")."""
        return clockwise_from(state.first, state.players)

    def result(self, state: HitchikerState) -> Result | None:
        if state.phase != "over":
            return None
        scores = [turn.score(state, seat) for seat in range(state.players)]
        winners = list(state.winners)
        others = sorted((s for s in range(state.players) if s not in winners), key=lambda s: -scores[s])
        return Result(
            winners=winners, ranking=winners + others, scores=scores, reason=state.end_reason,
            turn_cap_hit=state.end_reason == "turn_cap",
            details={"savings": [h.savings for h in state.seats], "cash": [h.cash for h in state.seats],
                     "units": [h.units for h in state.seats]},
        )
