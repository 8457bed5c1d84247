"""The contract every game implements.

A game subclasses ``Ruleset`` and fills in ``setup``, ``pending``, ``play``, ``view``
and ``result`` and lists its bots; the base class adds option and action validation, the
legality check against the pending decisions and serialization.
The flow is the reducer of boardgame.io: state in, action in, events out.
"""

from __future__ import annotations

import copy
import functools
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, ClassVar

from marshmallow import Schema, ValidationError, fields, validate

from engine.core.bot import Bot
from engine.core.decisions import Decision
from engine.core.errors import IllegalAction, InvalidOptions
from engine.core.events import Event
from engine.core.labels import load_labels
from engine.core.result import Result
from engine.core.rng import Rng
from engine.core.serial import from_jsonable, to_jsonable

STATE_FORMAT = 1


#: The largest ``turn_cap`` a ruleset takes unless it declares a smaller one: ten times the
#: longest natural game measured (docs/records.md, "How long a game gets").
MAX_TURN_CAP = 10_000


def turn_cap_field(
    default: int | None = None,
    description: str = "End the game after this many turns (see the rules doc for the tie-break).",
    maximum: int = MAX_TURN_CAP,
) -> fields.Integer:
    """The ``turn_cap`` option. A ruleset whose games could go on for ever gives it a default,
    and then null is refused: every game it plays ends, so its record stays bounded."""
    return fields.Integer(
        load_default=default,
        allow_none=default is None,
        strict=True,
        validate=validate.Range(min=1, max=maximum),
        metadata={"description": description},
    )


class OptionsSchema(Schema):
    """Options every ruleset accepts; games subclass it for their house rules."""

    turn_cap = turn_cap_field()


def action_schema(action_type: str, **params: fields.Field) -> type[Schema]:
    """A marshmallow schema for ``{"type": action_type, **params}``."""
    attrs = {"type": fields.String(required=True, validate=validate.Equal(action_type))}
    attrs.update(params)
    name = "".join(part.capitalize() for part in action_type.split("_")) + "Action"
    return Schema.from_dict(attrs, name=name)


class Ruleset(ABC):
    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options_schema: ClassVar[type[Schema]] = OptionsSchema
    #: action type -> marshmallow schema of its body
    action_schemas: ClassVar[dict[str, type[Schema]]]
    #: the dataclass holding a game's state; must have ``rng``, ``turn`` and ``players``
    state_class: ClassVar[type]
    #: bot name -> Bot subclass: the game's own bots (its heuristic)
    bots: ClassVar[dict[str, type[Bot]]] = {}
    #: bot name -> Bot subclass: the bots that play any game through this contract which the game
    #: offers too (a game sets ``engine.bots.GENERIC_BOTS``: ``random`` and the searches). The game
    #: names them, not this module: the contract never imports the bots that play through it.
    generic_bots: ClassVar[dict[str, type[Bot]]] = {}
    #: True when no action body is a secret (no hidden or simultaneous choices), so a running
    #: game's record may show every seat's actions; False withholds other seats' action bodies
    actions_public: ClassVar[bool] = False
    #: The version of the rules as this code plays them. Bump it with every change that can
    #: change a game's outcome (a new reading, a fixed rule, new board data), and say what
    #: changed in the rules doc: a game, its events and simulation results carry the version
    #: they were played under, and the service refuses to go on with a game of another one.
    rules_version: ClassVar[int] = 1
    #: Every event type this ruleset's setup, play and seat changes can emit (clients put each in
    #: words; tests/engine/test_event_types.py holds the code and played games to this list)
    event_types: ClassVar[tuple[str, ...]] = ()
    #: Every ``Result.reason`` a game of this ruleset can end with
    end_reasons: ClassVar[tuple[str, ...]] = ()

    # -- what a game implements ------------------------------------------------

    @abstractmethod
    def setup(self, players: int, options: dict, rng: Rng) -> Any:
        """A new state; ``options`` are already validated and defaulted."""

    @abstractmethod
    def pending(self, state) -> list[Decision]:
        """Every decision waiting now; empty once the game is over."""

    @abstractmethod
    def play(self, state, seat: int, action: dict) -> list[Event]:
        """Apply an action already known legal; mutate the state; return the events."""

    @abstractmethod
    def view(self, state, seat: int | None) -> dict:
        """What ``seat`` (``None``: a spectator) may see. Never the RNG or hidden cards."""

    @abstractmethod
    def result(self, state) -> Result | None:
        """``None`` while the game goes on."""

    @abstractmethod
    def turn_order(self, state) -> list[int]:
        """Every seat at the table in turn-order position: the first mover, then the second, ...

        The order of play as the rulebook decides it at the table (a roll-off, the oldest player...),
        which is not seat order in general: the lab's first mover's edge (docs/experiments.md) reads
        position 0 of the final state. A seat keeps its position once eliminated; each ruleset's rules
        doc says what "first" means where turns are not taken one by one, and where a player who
        joins mid-game sits."""

    def setup_events(self, state) -> list[Event]:
        """What ``setup`` resolved by itself (e.g. spins deciding who goes first), as events.

        ``setup`` returns only the state, so a game that draws or spins during setup keeps
        what happened in the state and tells it here; the service logs these before any action.
        """
        return []

    #: True when ``seat_changed`` seats a new player in a running game (a ``seat_joined`` change
    #: naming the next seat number); the service then offers a per-game invite
    joins_mid_game: ClassVar[bool] = False

    def seat_changed(self, state, change: dict) -> list[Event]:
        """A seat change the service logged (``change``: with ``seat``, ``kind`` such as
        ``seat_joined`` or ``seat_to_bot``, ``name``, ``bot``). Who plays a seat is no concern of
        the rules, so the default does nothing; a game that takes players mid-game (Hitchiker)
        adds the joining player here (raising ``IllegalAction`` with a reason when it cannot),
        and replaying a game's log calls it at the same point.
        """
        return []

    def result_from_format(self, result: dict, format_version: int) -> dict:
        """``result`` as a record of the older record format ``format_version`` wrote it, restated in
        today's shape, so that such a record still replays: a ruleset whose result changed shape (not
        outcome: that is a new ``rules_version``) converts it back here. The default has no change.
        ``result`` comes from outside: leave what does not look as expected as it is."""
        return result

    def resample_hidden(self, state, seat: int | None, rng: Rng):
        """Another state ``seat`` cannot tell apart from ``state`` (used to test views).

        The default re-seeds the RNG, the one secret every game has; games with hidden
        cards or choices also reshuffle what ``seat`` cannot see.
        """
        other = self.copy(state)
        other.rng = Rng(rng.next64())
        return other

    def resample_chance(self, state, rng: Rng):
        """A copy of ``state`` whose chance alone is dealt anew: what no player chose nor holds (used by
        the game analysis, ``engine.analysis``, to average over a move's dice and cards).

        The default re-seeds the RNG; a game that keeps undrawn cards in order (a face-down pile)
        reshuffles them too. Cards in a player's hand and secret choices stay as they are.
        """
        other = self.copy(state)
        other.rng = Rng(rng.next64())
        return other

    # -- the contract, built on the above --------------------------------------

    @functools.cached_property
    def _schemas(self) -> dict[str, Schema]:
        # Building a marshmallow schema costs far more than loading with one: build each once.
        return {kind: schema() for kind, schema in self.action_schemas.items()}

    @functools.cached_property
    def _default_options(self) -> dict:
        return self.options_schema().load({})

    @functools.cached_property
    def _default_options_immutable(self) -> bool:
        return all(isinstance(value, (type(None), bool, int, float, str)) for value in self._default_options.values())

    def load_options(self, options: dict | None) -> dict:
        if not options:
            # Bulk simulations create a game every few hundred microseconds and mostly pass no options;
            # defaults that are all numbers, strings or None need no deep copy.
            defaults = self._default_options
            return dict(defaults) if self._default_options_immutable else copy.deepcopy(defaults)
        try:
            return self.options_schema().load(options)
        except ValidationError as error:
            raise InvalidOptions("invalid game options", fields=error.messages) from None

    def new_game(self, players: int, options: dict | None = None, seed: int = 0):
        if not self.min_players <= players <= self.max_players:
            raise InvalidOptions(
                f"{self.title} takes {self.min_players} to {self.max_players} players, not {players}",
                fields={"players": [f"must be between {self.min_players} and {self.max_players}"]},
            )
        return self.setup(players, self.load_options(options), Rng(seed))

    def parse_action(self, action: Any) -> dict:
        """Validate an action body against its schema; ``invalid_action`` if it fits none."""
        if not isinstance(action, dict):
            raise IllegalAction("invalid_action", "an action is a JSON object with a 'type'")
        action_type = action.get("type")
        schema = self._schemas.get(action_type) if isinstance(action_type, str) else None
        if schema is None:
            raise IllegalAction(
                "invalid_action",
                f"unknown action type {action_type!r}",
                fields={"type": [f"must be one of {sorted(self.action_schemas)}"]},
            )
        try:
            return schema.load(action)
        except ValidationError as error:
            raise IllegalAction("invalid_action", "the action does not fit its schema", fields=error.messages) from None

    def check(self, state, seat: int, action: dict, pending: list[Decision] | None = None) -> Decision:
        """The decision ``action`` answers, or ``IllegalAction`` saying why there is none
        (``pending``: the state's decisions, when the caller has them already)."""
        if self.result(state) is not None:
            raise IllegalAction("game_over", "the game is over")
        mine = [d for d in (self.pending(state) if pending is None else pending) if d.seat == seat]
        if not mine:
            raise IllegalAction("not_your_turn", f"seat {seat} has nothing to decide now")
        for decision in mine:
            if decision.allows(action):
                return decision
        offered = sorted({o["type"] for d in mine for o in d.options})
        if action["type"] not in offered:
            raise IllegalAction(
                "action_not_allowed",
                f"{action['type']!r} is not a choice now; seat {seat} may: {', '.join(offered)}",
            )
        raise IllegalAction("option_not_allowed", f"that {action['type']!r} is not among the legal options now")

    def apply(self, state, seat: int, action: dict, *, check: bool = True) -> list[Event]:
        """Validate (unless the caller picked from the offered options) and play."""
        if check:
            action = self.parse_action(action)
            self.check(state, seat, action)
        return self.play(state, seat, action)

    def turns(self, state) -> int:
        return state.turn

    # -- a seat whose time ran out ----------------------------------------------

    def timeout_action(self, state, decision: Decision, rng: Rng) -> dict:
        """What ``decision``'s seat plays when its time ran out (the service's deadlines).

        A non-secret decision: its published ``default``, which the game computed from the state
        when it built the decision (never eliminating the seat, handing a rival the game or throwing
        away something of value when another option does not). A secret one: a draw over what the
        seat really holds (``draw_secret_default``). ``rng`` is the caller's private generator,
        never the game's, so what was drawn cannot be told from the game's seed either.
        """
        if decision.secret:
            return self.draw_secret_default(state, decision, rng)
        return dict(decision.default_action())

    def draw_secret_default(self, state, decision: Decision, rng: Rng) -> dict:
        """A timed-out secret choice: one of the offered options, each equally likely. A game whose
        options stand for cards of a hand overrides it to draw a card of the hand (each card equally
        likely, so two Bang! and one Click fire two times in three)."""
        return dict(rng.choice(decision.options))

    def state_problems(self, state) -> list[str]:
        """What is wrong with ``state`` by the game's own invariants (no negative counts, one owner per
        property...), as sentences; empty for a sound state. The random-play and bot suites check it
        after every action, beside ``money_in_play``."""
        return []

    def caches(self) -> dict[str, Callable[[], tuple[int, int]]]:
        """The per-process caches the rules keep (e.g. of the custom boards games bring): name -> its
        ``sizes``, (entries, bound). The service reports them as metrics of ``<id>.<name>``; none by default."""
        return {}

    def money_in_play(self, state) -> int | None:
        """A money total that no rule may change (players + bank ledger), or ``None``.

        The shared invariant suite checks it after every action.
        """
        return None

    def to_dict(self, state) -> dict:
        return {"format": STATE_FORMAT, "ruleset": self.id, "state": to_jsonable(state)}

    def from_dict(self, data: dict):
        if data.get("format") != STATE_FORMAT or data.get("ruleset") != self.id:
            raise ValueError(f"not a {self.id} state of format {STATE_FORMAT}")
        return from_jsonable(self.state_class, data["state"])

    def copy(self, state):
        return copy.deepcopy(state)

    def bot(self, name: str) -> Bot:
        available = self._bot_classes
        if name not in available:
            raise InvalidOptions(f"unknown bot {name!r}; {self.id} has {sorted(available)}")
        return available[name](self)

    def bot_names(self) -> list[str]:
        return sorted(self.bot_classes())

    def bot_classes(self) -> dict[str, type[Bot]]:
        """Bot name -> class: what a bot is (``searches``, ``cost_per_move``) without making one."""
        return dict(self._bot_classes)

    @functools.cached_property
    def _bot_classes(self) -> dict[str, type[Bot]]:
        # Simulations make every seat's bot anew each game: the merged table is built once.
        return {**self.generic_bots, **self.bots}

    #: The bot a search plays every seat with in its rollouts ("random" is the fastest; a
    #: game whose random games say little of good play may name its heuristic): an evaluation hint.
    rollout_bot: ClassVar[str] = "random"
    #: A search's rollout stops after this many actions (at most 400) and scores the game by
    #: ``standings``: short enough that one decision's effect shows above the noise of the rest.
    search_horizon: ClassVar[int] = 200
    #: With a value model (``engine.values``): a search's rollout stops after this many actions instead
    #: and is scored by the model's chances, so the same budget buys more worlds. ``None``: the search
    #: keeps ``search_horizon`` and ``standings`` (the model did not help in this game's ladder).
    value_horizon: ClassVar[int | None] = None
    #: With ``value_horizon``: a search samples this many times its level's worlds, since a cut-off rollout
    #: costs a fraction of a long one (``value_worlds * (value_horizon + 1)`` stays within the 400 actions a
    #: rollout may cost, so a level's ``cost_per_move`` still bounds its work).
    value_worlds: ClassVar[int] = 1
    #: With ``value_horizon``: the seat plays ``rollout_bot`` after its candidate move too, with no tree of
    #: its later moves (flat Monte Carlo: a one-step improvement of the rollout bot). In a rollout of a few
    #: actions a tree's first visits are the seat's untried, mostly poor, later moves: noise on every candidate.
    value_flat: ClassVar[bool] = False
    #: With ``value_horizon``: the standard errors of the paired difference a candidate must beat the rollout
    #: bot's move by (``None``: the search's own rule, two). A model-scored move of many worlds may trust
    #: a smaller lead: the ladder of paired games says whether it wins more (docs/bots.md).
    value_confidence: ClassVar[float | None] = None
    #: The game analysis's method parameters for this ruleset (``engine.analysis.method.Method``: play-outs,
    #: their horizon, chance samples, candidates...), overriding its defaults: data, tuned per ruleset by
    #: measuring against play-outs (docs/analysis.md, "The estimator").
    analysis_method: ClassVar[Mapping[str, int | float]] = MappingProxyType({})

    def standings(self, state) -> list[float] | None:
        """How well each seat stands in an unfinished game, higher is better (e.g. its money): the
        evaluation hint a search scores a cut-off rollout by. ``None``: no hint, a cut-off rollout
        counts as even for everyone."""
        return None

    def eliminated_seats(self, state) -> int:
        """How many seats are out of the game so far (bankrupt, dead...): the experiments note the turn
        of each elimination. A game without eliminations keeps the default, 0."""
        return 0

    def default_data(self) -> dict:
        """The published data a game starts from (board, decks, charts...), keyed by the option that
        overrides it and in that option's format: passing it back as options changes nothing."""
        return {}

    def labels(self) -> dict:
        """The words a person reads for this ruleset's codes (events, end reasons, decisions, actions,
        cards, bots): sentence templates from ``data/labels.json`` beside the ruleset (engine/core/labels.py)."""
        return copy.deepcopy(self._labels)

    @functools.cached_property
    def _labels(self) -> dict:
        return load_labels(self)

    def metadata(self) -> dict:
        return {
            "id": self.id,
            "title": self.title,
            "rules_version": self.rules_version,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "bots": self.bot_names(),
            "action_types": sorted(self.action_schemas),
            "rules_doc": f"docs/rules/{self.id}.md",
        }
