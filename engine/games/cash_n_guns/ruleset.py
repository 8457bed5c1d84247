"""Cash 'n Guns, 2nd edition: the round from loot reveal to loot sharing.

A round: reveal a pile of loot; every living player secretly picks a bullet card
(simultaneous); everyone aims (simultaneous, hidden until all have aimed); the Godfather
may order one player to change target, who must; everyone secretly stands or lies down
(simultaneous); reveal and resolve all shots at once; then the players who stood unhurt
share the loot one pick at a time from the Godfather clockwise.
See docs/rules/cash-n-guns.md for every reading and the default of each decision.
"""

from __future__ import annotations

import functools
from types import MappingProxyType

from marshmallow import ValidationError, fields, validate, validates_schema

from engine.bots import GENERIC_BOTS
from engine.core.clone import cloner
from engine.core.decisions import Decision
from engine.core.events import Event
from engine.core.rng import Rng
from engine.core.ruleset import OptionsSchema, Ruleset, action_schema
from engine.core.strict import StrictBoolean
from engine.core.turn_order import clockwise_from
from engine.games.cash_n_guns import view as table_view
from engine.games.cash_n_guns.bots import HeuristicBot
from engine.games.cash_n_guns.cards import (
    BANG,
    CATALOG,
    CLICK,
    CLIP,
    DECK,
    FIRST_AID,
    PAINTING,
    deal_piles,
    deck_problems,
    face_value,
    loot_value,
    painting_chart_problems,
)
from engine.games.cash_n_guns.scoring import (
    ALL_DEAD,
    LAST_STANDING,
    ROUNDS_PLAYED,
    TURN_CAP,
    final_result,
)
from engine.games.cash_n_guns.state import (
    AIM,
    BULLETS,
    CLIP_PHASE,
    COURAGE,
    LOOT,
    NOBODY,
    OVER,
    PRIVILEGE,
    RETARGET,
    CashNGunsState,
    Gangster,
)

DEATH_WOUNDS = 3

BULLET_OPTIONS = {card: {"type": "choose_bullet", "card": card} for card in (CLICK, BANG)}
CLIP_DISCARD_OPTIONS = {card: {"type": "clip_discard", "card": card} for card in (CLICK, BANG)}
STAND = {"type": "courage", "stand": True}
LIE_DOWN = {"type": "courage", "stand": False}
AIM_AT_NOBODY = {"type": "aim", "target": None}
PASS_PRIVILEGE = {"type": "privilege", "target": None}
TAKE_TOKEN = {"type": "take_godfather_token"}
# Options are shared read-only dicts: pending() runs after every action, so it builds no new ones.
MAX_SEATS = 8
AIM_AT = [{"type": "aim", "target": seat} for seat in range(MAX_SEATS)]
ORDER = [{"type": "privilege", "target": seat} for seat in range(MAX_SEATS)]
RETARGET_TO = [{"type": "retarget", "target": seat} for seat in range(MAX_SEATS)]
TAKE_CARD = {card_id: {"type": "take_loot", "card": card_id} for card_id in CATALOG}


#: Cards in the loot deck (8 piles of 8), the most paintings a set can hold.
DECK_SIZE = DECK.piles * DECK.pile_size
#: The most a painting set or the diamond bonus may be worth (the published values top out at 500,000).
MAX_LOOT_VALUE = 10_000_000


class CashNGunsOptions(OptionsSchema):
    deck = fields.Dict(
        keys=fields.String(validate=validate.Length(max=64)),
        values=fields.Integer(strict=True, validate=validate.Range(min=0, max=DECK_SIZE)),
        load_default=None,
        allow_none=True,
        metadata={"description": "Loot card id -> count (64 cards in all); the default is the published deck."},
    )
    painting_set_values = fields.List(
        fields.Integer(strict=True, validate=validate.Range(min=0, max=MAX_LOOT_VALUE)),
        load_default=None,
        allow_none=True,
        validate=validate.Length(min=1, max=DECK_SIZE),
        metadata={"description": "Value of a set of 1, 2, 3... paintings."},
    )
    reveal_wasted_bullets = StrictBoolean(
        load_default=False,
        metadata={"description": "House rule: a standing player whose target lay down (or who aims at nobody) "
                                 "turns his bullet card face up too; by default it is discarded face down."})
    diamond_bonus = fields.Integer(
        strict=True,
        load_default=None,
        allow_none=True,
        validate=validate.Range(min=0, max=MAX_LOOT_VALUE),
        metadata={"description": "Bonus to the single player with the most diamond cards (default 60,000)."},
    )

    @validates_schema
    def check_deck(self, data: dict, **_kwargs) -> None:
        counts = data.get("deck") or DECK.counts
        problems = deck_problems(counts, CATALOG, DECK.piles * DECK.pile_size)
        if problems:
            raise ValidationError({"deck": problems})
        paintings = sum(n for card_id, n in counts.items() if CATALOG[card_id].kind == PAINTING)
        problems = painting_chart_problems(data.get("painting_set_values") or DECK.painting_set_values, paintings)
        if problems:
            raise ValidationError({"painting_set_values": problems})


def _next_clockwise(state: CashNGunsState, after: int, accept) -> int:
    """The first seat after ``after`` (clockwise, ending with ``after`` itself) that ``accept`` takes."""
    players = state.players
    for step in range(1, players + 1):
        seat = (after + step) % players
        if accept(state.gangsters[seat]):
            return seat
    return NOBODY


def _alive(gangster: Gangster) -> bool:
    return gangster.alive


def _shares_loot(gangster: Gangster) -> bool:
    return gangster.alive and gangster.stands and not gangster.hit


def _living(state: CashNGunsState) -> list[int]:
    return [seat for seat, g in enumerate(state.gangsters) if g.alive]


# The simultaneous decisions are pending for several seats after every action: each is built
# once (they depend on a few public facts only) and shared, never mutated.

@functools.cache
def _bullet_decision(seat: int, has_click: bool, has_bang: bool) -> Decision:
    options = []
    if has_click:
        options.append(BULLET_OPTIONS[CLICK])
    if has_bang:
        options.append(BULLET_OPTIONS[BANG])
    # Secret: a seat too slow to choose gets a card of its hand drawn at random (draw_secret_default).
    return Decision(seat, "choose_bullet", options, secret=True)


@functools.cache
def _aim_decision(seat: int, living: tuple[int, ...]) -> Decision:
    options = [AIM_AT[other] for other in living if other != seat]
    options.append(AIM_AT_NOBODY)
    # Too slow to aim: the player holds nobody up this round.
    return Decision(seat, "aim", options, default=AIM_AT_NOBODY)


@functools.cache
def _courage_decision(seat: int) -> Decision:
    return Decision(seat, "courage", [STAND, LIE_DOWN], secret=True)


class CashNGunsRuleset(Ruleset):
    id = "cash-n-guns"
    title = "Cash 'n Guns (2nd edition)"
    #: 2: the rules fixes of issue 11 (see "Rules versions" in the rules doc)
    rules_version = 2
    event_types = (
        "round_started", "bullet_card", "bullet_chosen", "aim_secret", "aimed", "aims_revealed",
        "privilege_passed", "privilege_used", "retargeted", "courage_secret", "courage_decided",
        "courage_revealed", "bullets_revealed", "shot", "wounded", "killed", "loot_taken", "healed",
        "clip_lost", "reloaded", "clip_discard_secret", "clip_discarded", "godfather_token_taken",
        "loot_lost", "round_ended", "game_over",
    )
    end_reasons = (LAST_STANDING, ALL_DEAD, ROUNDS_PLAYED, TURN_CAP)
    #: the search's evaluation hints (engine/bots/search.py): roll out with the heuristic;
    #: a whole game is under 200 actions: the search plays it out
    rollout_bot = "heuristic"
    search_horizon = 400
    #: the game analysis (docs/analysis.md, "The estimator"): the value model reads the loot gangsters hold,
    #: not the loot on the table, so a deal's luck is scored after the round it is shared in (30 actions);
    #: a choice's play-outs go to the end of the game (cheap: a game is under 200 actions), since the
    #: model at 20 actions ranked options against play-outs to the end (correlation 0.09 to 0.47)
    analysis_method = MappingProxyType({"chance_horizon": 30, "horizon": 400, "playouts": 64})
    min_players = 4
    max_players = MAX_SEATS
    options_schema = CashNGunsOptions
    state_class = CashNGunsState
    generic_bots = GENERIC_BOTS
    bots = {"heuristic": HeuristicBot}
    action_schemas = {
        "choose_bullet": action_schema("choose_bullet", card=fields.String(required=True,
                                                                           validate=validate.OneOf([CLICK, BANG]))),
        "aim": action_schema("aim", target=fields.Integer(required=True, allow_none=True, strict=True)),
        "privilege": action_schema("privilege", target=fields.Integer(required=True, allow_none=True, strict=True)),
        "retarget": action_schema("retarget", target=fields.Integer(required=True, strict=True)),
        "courage": action_schema("courage", stand=StrictBoolean(required=True)),
        "take_loot": action_schema("take_loot", card=fields.String(required=True)),
        "take_godfather_token": action_schema("take_godfather_token"),
        "clip_discard": action_schema("clip_discard", card=fields.String(required=True,
                                                                         validate=validate.OneOf([CLICK, BANG]))),
    }

    # -- setup -------------------------------------------------------------------

    def default_data(self) -> dict:
        return {"deck": dict(DECK.counts), "painting_set_values": list(DECK.painting_set_values),
                "diamond_bonus": DECK.diamond_bonus}

    def setup(self, players: int, options: dict, rng: Rng) -> CashNGunsState:
        counts = options.get("deck") or DECK.counts
        chart = options.get("painting_set_values") or DECK.painting_set_values
        bonus = options.get("diamond_bonus")
        state = CashNGunsState(
            players=players,
            rng=rng,
            gangsters=[Gangster(clicks=DECK.clicks, bangs=DECK.bangs) for _ in range(players)],
            piles=deal_piles(counts, DECK.piles, DECK.pile_size, rng.shuffle),
            rounds=DECK.piles,
            painting_set_values=list(chart),
            diamond_bonus=DECK.diamond_bonus if bonus is None else bonus,
            turn_cap=options.get("turn_cap"),
            reveal_wasted=options["reveal_wasted_bullets"],
        )
        # The oldest player starts as Godfather; seat 0 stands for them.
        self._start_round(state, [])
        return state

    # -- decisions ---------------------------------------------------------------

    def pending(self, state: CashNGunsState) -> list[Decision]:
        phase = state.phase
        gangsters = state.gangsters
        if phase == BULLETS:
            return [_bullet_decision(seat, g.clicks > 0, g.bangs > 0)
                    for seat, g in enumerate(gangsters) if g.alive and not g.chosen]
        if phase == AIM:
            living = tuple(_living(state))
            return [_aim_decision(seat, living) for seat in living if not gangsters[seat].aimed]
        if phase == COURAGE:
            return [_courage_decision(seat) for seat, g in enumerate(gangsters) if g.alive and not g.decided]
        if phase == PRIVILEGE:
            options = [PASS_PRIVILEGE] + [ORDER[s] for s in self._can_be_ordered(state)]
            return [Decision(state.godfather, "privilege", options, default=PASS_PRIVILEGE)]
        if phase == RETARGET:
            return [self._retarget_decision(state)]
        if phase == LOOT:
            return [self._loot_decision(state)]
        if phase == CLIP_PHASE:
            return [self._clip_decision(state)]
        return []

    @staticmethod
    def _clip_decision(state: CashNGunsState) -> Decision:
        """The card to toss after a clip's reload: offered even when the hand holds only Bang! cards,
        so the table never learns from the decision whether the taker holds a Click."""
        options = [CLIP_DISCARD_OPTIONS[BANG]]
        if state.gangsters[state.picker].clicks:
            options.insert(0, CLIP_DISCARD_OPTIONS[CLICK])
        return Decision(state.picker, "clip_discard", options, secret=True)

    @staticmethod
    def _can_be_ordered(state: CashNGunsState) -> list[int]:
        """Players the Godfather may order to change target: aiming at someone, with another target left."""
        if len(_living(state)) < 3:
            return []
        return [seat for seat, g in enumerate(state.gangsters)
                if g.alive and seat != state.godfather and g.target != NOBODY]

    @staticmethod
    def _retarget_decision(state: CashNGunsState) -> Decision:
        seat = state.forced
        old_target = state.gangsters[seat].target
        players = state.players
        clockwise = [(seat + step) % players for step in range(1, players)]
        targets = [s for s in clockwise if state.gangsters[s].alive and s != old_target]
        options = [RETARGET_TO[s] for s in targets]
        # The order must be obeyed even by a slow player: the next valid target clockwise.
        return Decision(seat, "retarget", options, default=options[0])

    @staticmethod
    def _loot_decision(state: CashNGunsState) -> Decision:
        options = []
        previous = None
        for card_id in state.lineup:  # the lineup is kept in catalog order, so duplicates are adjacent
            if card_id != previous:
                options.append(TAKE_CARD[card_id])
                previous = card_id
        if state.token_taker == NOBODY:
            options.append(TAKE_TOKEN)
        # Too slow to pick: the first card of the lineup (the most valuable bill if any).
        return Decision(state.picker, "take_loot", options, default=options[0])

    def draw_secret_default(self, state: CashNGunsState, decision: Decision, rng: Rng) -> dict:
        """A timed-out bullet or clip toss is a card drawn at random from those in hand (with 1 Click and
        6 Bang! a Bang! six times in seven); a timed-out courage is stand or lie down, even odds."""
        if decision.kind == "courage":
            return super().draw_secret_default(state, decision, rng)
        gangster = state.gangsters[decision.seat]
        card = CLICK if rng.randint(1, gangster.clicks + gangster.bangs) <= gangster.clicks else BANG
        return dict((BULLET_OPTIONS if decision.kind == "choose_bullet" else CLIP_DISCARD_OPTIONS)[card])

    # -- actions -----------------------------------------------------------------

    def play(self, state: CashNGunsState, seat: int, action: dict) -> list[Event]:
        events: list[Event] = []
        _HANDLERS[action["type"]](self, state, seat, action, events)
        return events

    def _choose_bullet(self, state: CashNGunsState, seat: int, action: dict, events: list[Event]) -> None:
        gangster = state.gangsters[seat]
        card = action["card"]
        if card == BANG:
            gangster.bangs -= 1
        else:
            gangster.clicks -= 1
        gangster.chosen = card
        events.append(Event("bullet_card", {"seat": seat, "card": card}, visible_to=(seat,)))
        events.append(Event("bullet_chosen", {"seat": seat}))
        if all(g.chosen for g in state.gangsters if g.alive):
            state.phase = AIM

    def _aim(self, state: CashNGunsState, seat: int, action: dict, events: list[Event]) -> None:
        gangster = state.gangsters[seat]
        target = action["target"]
        gangster.target = NOBODY if target is None else target
        gangster.aimed = True
        events.append(Event("aim_secret", {"seat": seat, "target": target}, visible_to=(seat,)))
        events.append(Event("aimed", {"seat": seat}))
        if all(g.aimed for g in state.gangsters if g.alive):
            targets = [g.target if g.alive and g.target != NOBODY else None for g in state.gangsters]
            events.append(Event("aims_revealed", {"targets": targets}))
            state.phase = PRIVILEGE if self._can_be_ordered(state) else COURAGE

    def _privilege(self, state: CashNGunsState, seat: int, action: dict, events: list[Event]) -> None:
        ordered = action["target"]
        if ordered is None:
            events.append(Event("privilege_passed", {"godfather": seat}))
            state.phase = COURAGE
        else:
            events.append(Event("privilege_used", {"godfather": seat, "seat": ordered}))
            state.forced = ordered
            state.phase = RETARGET

    def _retarget(self, state: CashNGunsState, seat: int, action: dict, events: list[Event]) -> None:
        gangster = state.gangsters[seat]
        events.append(Event("retargeted", {"seat": seat, "from": gangster.target, "to": action["target"]}))
        gangster.target = action["target"]
        state.forced = NOBODY
        state.phase = COURAGE

    def _courage(self, state: CashNGunsState, seat: int, action: dict, events: list[Event]) -> None:
        gangster = state.gangsters[seat]
        gangster.stands = action["stand"]
        gangster.decided = True
        events.append(Event("courage_secret", {"seat": seat, "stand": gangster.stands}, visible_to=(seat,)))
        events.append(Event("courage_decided", {"seat": seat}))
        if all(g.decided for g in state.gangsters if g.alive):
            self._resolve_shots(state, events)

    def _take_loot(self, state: CashNGunsState, seat: int, action: dict, events: list[Event]) -> None:
        card_id = action["card"]
        gangster = state.gangsters[seat]
        state.lineup.remove(card_id)
        gangster.loot.append(card_id)
        events.append(Event("loot_taken", {"seat": seat, "card": card_id}))
        kind = CATALOG[card_id].kind
        if kind == FIRST_AID:
            events.append(Event("healed", {"seat": seat, "wounds_healed": gangster.wounds}))
            gangster.wounds = 0
        elif kind == CLIP and self._reload(state, seat, card_id, events):
            return  # the clip's discard is the player's next decision
        self._next_pick(state, events)

    def _take_godfather_token(self, state: CashNGunsState, seat: int, action: dict, events: list[Event]) -> None:
        state.token_taker = seat
        events.append(Event("godfather_token_taken", {"seat": seat}))
        self._next_pick(state, events)

    def _clip_discard(self, state: CashNGunsState, seat: int, action: dict, events: list[Event]) -> None:
        self._discard_from_hand(state, seat, action["card"], events)
        state.phase = LOOT
        self._next_pick(state, events)

    # -- what the engine resolves itself --------------------------------------------

    def _start_round(self, state: CashNGunsState, events: list[Event]) -> None:
        for g in state.gangsters:
            g.chosen = g.revealed = ""
            g.aimed = g.decided = False
            g.target = NOBODY
            g.stands = True
            g.hit = 0
        state.token_taker = state.forced = state.picker = NOBODY
        state.lineup = state.piles.pop(0)
        state.phase = BULLETS
        events.append(Event("round_started", {"round": state.turn + 1, "godfather": state.godfather,
                                              "lineup": list(state.lineup)}))

    def _resolve_shots(self, state: CashNGunsState, events: list[Event]) -> None:
        """Reveal courage and bullets; every shot lands at once."""
        gangsters = state.gangsters
        living = _living(state)
        standing = [s for s in living if gangsters[s].stands]
        events.append(Event("courage_revealed", {"standing": standing,
                                                 "lying_down": [s for s in living if not gangsters[s].stands]}))
        wasted = []
        for seat in living:
            g = gangsters[seat]
            # "If I or my target have already laid down, the Bullet card will be discarded and have
            # no effect": thrown away face down, unrevealed (as is the card of a player aiming at nobody).
            fires = g.stands and g.target != NOBODY and gangsters[g.target].stands
            if fires or (g.stands and state.reveal_wasted):
                g.revealed = g.chosen
                if g.chosen == BANG:
                    g.shown_bangs += 1
                    state.discard_bangs += 1
                else:
                    g.shown_clicks += 1
                    state.discard_clicks += 1
            else:
                g.face_down.append(g.chosen)
                if g.stands:
                    wasted.append(seat)
            g.chosen = ""
        events.append(Event("bullets_revealed", {"cards": [g.revealed or None for g in gangsters],
                                                 "discarded_face_down": wasted}))
        for shooter in standing:
            g = gangsters[shooter]
            if g.revealed != BANG or g.target == NOBODY:
                continue
            target = gangsters[g.target]
            if target.stands:
                target.hit += 1
                events.append(Event("shot", {"shooter": shooter, "target": g.target, "wounded": True}))
            else:
                events.append(Event("shot", {"shooter": shooter, "target": g.target, "wounded": False}))
        for seat in living:
            g = gangsters[seat]
            if not g.hit:
                continue
            g.wounds += g.hit
            events.append(Event("wounded", {"seat": seat, "wounds": g.wounds, "new": g.hit}))
            if g.wounds >= DEATH_WOUNDS:
                g.alive = False
                g.died_in = state.turn + 1
                events.append(Event("killed", {"seat": seat}))
        survivors = sum(1 for g in gangsters if g.alive)
        if survivors <= 1:
            self._end_game(state, LAST_STANDING if survivors else ALL_DEAD, events)
            return
        first = state.godfather if _shares_loot(gangsters[state.godfather]) else NOBODY
        if first == NOBODY:
            first = _next_clockwise(state, state.godfather, _shares_loot)
        if first == NOBODY:
            events.append(Event("loot_lost", {"cards": list(state.lineup)}))
            state.lost_loot.extend(state.lineup)
            state.lineup = []
            self._end_round(state, events)
            return
        state.picker = first
        state.phase = LOOT

    def _reload(self, state: CashNGunsState, seat: int, clip: str, events: list[Event]) -> bool:
        """A clip: take a face-up Bang! from the discard, then toss a card of the hand (the next decision).

        True when the toss is pending; False when the clip is lost, which takes it out of the game.
        """
        gangster = state.gangsters[seat]
        why = "no_bang_in_discard" if not state.discard_bangs else (
            "no_card_to_discard" if not gangster.clicks + gangster.bangs else "")
        if why:
            # "If there aren't any Bang! cards in the discard pile, I lose the Clip."
            gangster.loot.remove(clip)
            state.lost_loot.append(clip)
            events.append(Event("clip_lost", {"seat": seat, "why": why}))
            return False
        state.discard_bangs -= 1
        gangster.bangs += 1
        gangster.reloaded += 1
        events.append(Event("reloaded", {"seat": seat}))
        state.phase = CLIP_PHASE
        return True

    @staticmethod
    def _discard_from_hand(state: CashNGunsState, seat: int, card: str, events: list[Event]) -> None:
        gangster = state.gangsters[seat]
        if card == BANG:
            gangster.bangs -= 1
        else:
            gangster.clicks -= 1
        gangster.face_down.append(card)
        events.append(Event("clip_discard_secret", {"seat": seat, "card": card}, visible_to=(seat,)))
        events.append(Event("clip_discarded", {"seat": seat}))

    def _next_pick(self, state: CashNGunsState, events: list[Event]) -> None:
        if not state.lineup:
            self._end_round(state, events)
            return
        state.picker = _next_clockwise(state, state.picker, _shares_loot)

    def _end_round(self, state: CashNGunsState, events: list[Event]) -> None:
        state.turn += 1
        events.append(Event("round_ended", {"round": state.turn}))
        if state.turn >= state.rounds:
            self._end_game(state, ROUNDS_PLAYED, events, count_round=False)
            return
        if state.turn_cap is not None and state.turn >= state.turn_cap:
            self._end_game(state, TURN_CAP, events, count_round=False)
            return
        if state.token_taker != NOBODY:
            state.godfather = state.token_taker
        elif not state.gangsters[state.godfather].alive:
            state.godfather = _next_clockwise(state, state.godfather, _alive)
        self._start_round(state, events)

    def _end_game(self, state: CashNGunsState, reason: str, events: list[Event], count_round: bool = True) -> None:
        if count_round:
            state.turn += 1  # the round of the final shoot-out counts as played
        state.ended = reason
        state.phase = OVER
        state.picker = state.forced = NOBODY
        result = final_result(state)
        events.append(Event("game_over", {"reason": reason, "winners": result.winners, "scores": result.scores}))

    # -- reading the state -------------------------------------------------------------

    def view(self, state: CashNGunsState, seat: int | None) -> dict:
        return table_view.view(state, seat)

    def resample_chance(self, state: CashNGunsState, rng: Rng) -> CashNGunsState:
        """The generator and the undealt loot piles; the gangsters' bullet cards and choices stay."""
        other = self.copy(state)
        table_view.redeal_piles(other, rng)
        return other

    def resample_hidden(self, state: CashNGunsState, seat: int | None, rng: Rng) -> CashNGunsState:
        other = self.copy(state)
        table_view.resample_hidden(other, seat, rng)
        return other

    def turn_order(self, state: CashNGunsState) -> list[int]:
        """The starting Godfather (seat 0, the oldest player) first, then clockwise: the order in which the
        first round's loot is shared. The other choices are simultaneous, so "first" is the Godfather's
        desk the game starts at (docs/rules, "Turn order")."""
        return clockwise_from(0, state.players)

    def result(self, state: CashNGunsState):
        return final_result(state) if state.ended else None

    copy = staticmethod(cloner(CashNGunsState))

    def standings(self, state: CashNGunsState) -> list[float]:
        """The search's hint: loot value so far; a dead gangster cannot win."""
        return [loot_value(g.loot, state.painting_set_values) if g.alive else -1.0 for g in state.gangsters]

    def eliminated_seats(self, state: CashNGunsState) -> int:
        """Gangsters dead of their wounds."""
        return sum(not g.alive for g in state.gangsters)

    def state_problems(self, state: CashNGunsState) -> list[str]:
        """Every bullet card is somewhere (hand, face down in front, face down discarded, shown) and no count
        is negative; the face-up discard holds the shown cards less the Bang! cards clips took back."""
        problems = []
        dealt = DECK.clicks + DECK.bangs
        for seat, g in enumerate(state.gangsters):
            if min(g.clicks, g.bangs, g.wounds, g.shown_clicks, g.shown_bangs, g.reloaded) < 0:
                problems.append(f"seat {seat} has a negative count: {g}")
            held = g.clicks + g.bangs + bool(g.chosen) + len(g.face_down) + g.shown_clicks + g.shown_bangs
            if held != dealt + g.reloaded:
                problems.append(f"seat {seat} has {held} bullet cards in all, not {dealt} + {g.reloaded} reloaded")
        if state.discard_clicks != sum(g.shown_clicks for g in state.gangsters):
            problems.append(f"{state.discard_clicks} Click cards face up in the discard, not the shown ones")
        face_up_bangs = sum(g.shown_bangs - g.reloaded for g in state.gangsters)
        if state.discard_bangs != face_up_bangs or face_up_bangs < 0:
            problems.append(f"{state.discard_bangs} Bang! cards face up in the discard, not {face_up_bangs}")
        return problems

    def money_in_play(self, state: CashNGunsState) -> int:
        """Face value of every loot card wherever it is: no rule creates or destroys loot."""
        total = face_value(state.lineup) + face_value(state.lost_loot)
        for pile in state.piles:
            total += face_value(pile)
        for g in state.gangsters:
            total += face_value(g.loot)
        return total


_HANDLERS = {
    "choose_bullet": CashNGunsRuleset._choose_bullet,
    "aim": CashNGunsRuleset._aim,
    "privilege": CashNGunsRuleset._privilege,
    "retarget": CashNGunsRuleset._retarget,
    "courage": CashNGunsRuleset._courage,
    "take_loot": CashNGunsRuleset._take_loot,
    "take_godfather_token": CashNGunsRuleset._take_godfather_token,
    "clip_discard": CashNGunsRuleset._clip_discard,
}
