"""The ``mcts`` bots: information-set Monte Carlo search over the ``Ruleset`` contract.

A move is searched over sampled worlds (determinized ISMCTS, after Cowling, Powley and Whitehouse,
2012), with the ruleset's own heuristic as the model of every other seat and as the rollout policy:

- Fair: every world is drawn with ``Ruleset.resample_hidden`` from the searching seat's point of
  view, so the bot decides from what its seat may know. It never reads the state it is given for
  anything else, and its randomness is its own RNG's, never the game's.
- Paired: in each world every candidate move is played once, with the same dice (common random
  numbers), so the difference between two candidates is the moves' and not the luck's.
- A tree of the seat's own later moves, keyed by what the seat observes: its own actions in full,
  another seat's action in full unless the step told an event to seats other than this one (a
  face-down bullet, a secret aim), then only the events this seat may see. Its later moves are
  picked by UCB1 until the tree grows a node. The other seats play ``Ruleset.rollout_bot`` from
  their own view of the world, so nobody picks a simultaneous choice knowing the others' choices
  of the same step. Chance is the world's RNG: the tree is open loop over dice and decks.
- Rollouts play ``Ruleset.rollout_bot`` for every seat, stop after ``Ruleset.search_horizon``
  actions and are scored by ``Ruleset.standings`` (a share of the lead), or by who won. A ruleset
  that sets ``Ruleset.value_horizon`` stops them after that many actions instead and scores them by
  its value model's chances (``engine.values``; a world is a full state, so the model reads it all).
- Conservative: the rollout bot's own move is kept unless another candidate is better by
  ``CONFIDENCE`` standard errors of the paired difference, so a small budget never plays worse
  than the heuristic it searches with by chasing noise.

Levels differ only by the number of worlds, so the same state, decision and bot seed give the
same move on any machine.
"""

from __future__ import annotations

import json
import math
from statistics import mean, stdev
from typing import ClassVar

from engine.core.bot import Bot
from engine.core.decisions import Decision
from engine.core.rng import Rng
from engine.values.model import load_model, result_shares

#: Sampled worlds per move, by level; each world plays every candidate move once.
LEVEL_WORLDS = {1: 16, 2: 32, 3: 64, 4: 128, 5: 256}
DEFAULT_LEVEL = 3
#: A move weighs at most this many candidates.
MAX_CANDIDATES = 16
#: The longest rollout any ruleset may ask for (``Ruleset.search_horizon``): what a move may cost.
MAX_ROLLOUT_ACTIONS = 400
#: UCB1's exploration constant for rewards in [0, 1].
EXPLORATION = 0.7
#: How many standard errors better than the rollout policy's own move a candidate must be to replace it.
CONFIDENCE = 2.0


class _Node:
    """A node of one seat's tree: reached by an observation, holding the rewards of the move into it."""

    __slots__ = ("available", "children", "reward", "visits")

    def __init__(self) -> None:
        self.children: dict = {}
        self.visits = 0
        self.reward = 0.0
        self.available = 0

    def child(self, key) -> _Node:
        node = self.children.get(key)
        if node is None:
            node = self.children[key] = _Node()
        return node


def action_key(action: dict) -> tuple:
    return tuple(sorted(action.items()))


def candidate_actions(decision: Decision, default: dict | None = None) -> list[dict]:
    """The moves a search weighs: the options offered, a ranged parameter's midpoint too, and ``default``
    (the rollout bot's own move); at most ``MAX_CANDIDATES`` of them, ``default`` always among them."""
    candidates = [dict(option) for option in decision.options]
    for option in decision.options:
        bounds = decision.ranges.get(option["type"])
        if bounds:
            middle = dict(option)
            for name, (low, high) in bounds.items():
                middle[name] = (low + high) // 2
            if middle not in candidates:
                candidates.append(middle)
    if default is not None and default not in candidates:
        candidates.append(default)
    if len(candidates) > MAX_CANDIDATES:
        kept = candidates[:MAX_CANDIDATES - 1]
        last = default if default is not None and default not in kept else candidates[MAX_CANDIDATES - 1]
        candidates = [*kept, last]
    return candidates


def _observation(observer: int, mover: int, action: dict, events: list) -> tuple:
    """What ``observer`` learns of another seat, ``mover``, playing ``action``, given the step's events."""
    if all(event.visible(observer) for event in events):
        return (mover, action_key(action))
    seen = [[event.type, event.data] for event in events if event.visible(observer)]
    return (mover, json.dumps(seen, sort_keys=True, default=str))


class SearchBot(Bot):
    """Information-set MCTS with a fixed number of sampled worlds a move (see ``LEVEL_WORLDS``)."""

    level: ClassVar[int] = DEFAULT_LEVEL
    searches = True
    #: Rollout length and scoring: ``None`` takes the ruleset's (``value_horizon`` and the value model
    #: where it sets one, else ``search_horizon`` and ``standings``); experiments (bench/value_search.py)
    #: set them to compare.
    horizon: ClassVar[int | None] = None
    use_values: ClassVar[bool | None] = None
    #: Worlds a move, when not the level's.
    world_count: ClassVar[int | None] = None
    #: ``True``: no tree, the seat plays the rollout bot after its candidate move too (flat Monte Carlo, a
    #: one-step improvement of the rollout bot); ``None`` takes the ruleset's ``value_flat`` with the model.
    flat: ClassVar[bool | None] = None
    #: Standard errors a candidate must beat the rollout bot's move by; ``None``: the ruleset's
    #: ``value_confidence`` with the model, else ``CONFIDENCE``.
    confidence: ClassVar[float | None] = None

    @classmethod
    def worlds(cls, ruleset=None) -> int:
        """Worlds a move samples: the level's, times ``ruleset.value_worlds`` when the ruleset's own value
        model scores its rollouts."""
        if cls.world_count:
            return cls.world_count
        return LEVEL_WORLDS[cls.level] * (ruleset.value_worlds if cls._values_on(ruleset) else 1)

    @classmethod
    def _values_on(cls, ruleset) -> bool:
        if ruleset is None:
            return False
        return cls.use_values if cls.use_values is not None else ruleset.value_horizon is not None

    @classmethod
    def rollout_horizon(cls, ruleset) -> int:
        """Actions a rollout plays after the candidate move, at most."""
        if cls.horizon is not None:
            return min(MAX_ROLLOUT_ACTIONS, cls.horizon)
        values = cls._values_on(ruleset) and ruleset.value_horizon is not None
        return min(MAX_ROLLOUT_ACTIONS, ruleset.value_horizon if values else ruleset.search_horizon)

    def __init__(self, ruleset) -> None:
        super().__init__(ruleset)
        use_values = self._values_on(ruleset)
        self._model = load_model(ruleset) if use_values else None
        self._horizon = self.rollout_horizon(ruleset)
        self._worlds = self.worlds(ruleset)
        # The ruleset's flat and confidence settings go with its value horizon: a search that model scores.
        ruleset_model = use_values and ruleset.value_horizon is not None
        self._flat = self.flat if self.flat is not None else ruleset_model and ruleset.value_flat
        if self.confidence is not None:
            self._confidence = self.confidence
        elif ruleset_model and ruleset.value_confidence is not None:
            self._confidence = ruleset.value_confidence
        else:
            self._confidence = CONFIDENCE

    def act(self, view: dict | None, decision: Decision, rng: Rng) -> dict:
        raise TypeError("a search bot decides from the game (choose), drawing the worlds its seat cannot tell apart")

    def choose(self, state, decision: Decision, rng: Rng) -> dict:
        return self.analyse(state, decision, rng)["action"]

    def analyse(self, state, decision: Decision, rng: Rng) -> dict:
        """The search's move and every candidate's estimated value (its mean reward: a share of the win,
        0..1) over the same sampled worlds."""
        ruleset = self.ruleset
        policy = ruleset.bot(ruleset.rollout_bot)
        search_rng = Rng(rng.next64())
        # The rollout policy's own move is the default: the search leaves it only for a clearly better one.
        default = policy.choose(state, decision, Rng(search_rng.next64())) if policy.needs_view else None
        candidates = candidate_actions(decision, default)
        if len(candidates) == 1:
            return {"action": candidates[0], "worlds": 0, "actions": 0,
                    "options": [{"action": candidates[0], "value": None, "samples": 0}]}
        seat = decision.seat
        subtrees = [_Node() for _ in candidates]
        rewards: list[list[float]] = [[] for _ in candidates]
        played = [0]  # engine actions applied in all the rollouts: the work the search did
        for _ in range(self._worlds):
            world = ruleset.resample_hidden(state, seat, search_rng)
            seed = search_rng.next64()
            # Every candidate plays on the same world with the same dice: their difference is the move's.
            for index, action in enumerate(candidates):
                copy = world if index == len(candidates) - 1 else ruleset.copy(world)
                rewards[index].append(self._play_out(copy, seat, action, subtrees[index], policy, Rng(seed),
                                                     played))
        best = self._pick(rewards, candidates.index(default) if default is not None else None, self._confidence)
        options = [{"action": action, "value": round(mean(samples), 4), "samples": len(samples)}
                   for action, samples in zip(candidates, rewards, strict=True)]
        return {"action": candidates[best], "worlds": self._worlds, "actions": played[0], "options": options}

    @staticmethod
    def _pick(rewards: list[list[float]], default: int | None, confidence: float = CONFIDENCE) -> int:
        """The best mean; with a default, only a candidate better by ``confidence`` standard errors of the
        paired difference replaces it."""
        best = max(range(len(rewards)), key=lambda index: (mean(rewards[index]), index == default))
        if default is None or best == default:
            return best
        differences = [a - b for a, b in zip(rewards[best], rewards[default], strict=True)]
        if len(differences) < 2:
            return default
        spread = stdev(differences) / math.sqrt(len(differences))
        return best if mean(differences) > confidence * spread else default

    def _play_out(self, world, seat: int, action: dict, node: _Node, policy: Bot, rng: Rng,
                  played: list[int]) -> float:
        """``seat`` plays ``action`` in ``world``, then its later moves down its tree (UCB1) until the tree
        grows a node, then everyone plays ``policy``; ``seat``'s reward. ``played[0]`` counts the actions."""
        ruleset = self.ruleset
        ruleset.apply(world, seat, action, check=False)
        played[0] += 1
        path = []
        growing = not self._flat
        for _ in range(self._horizon):
            pending = ruleset.pending(world)
            if not pending:
                break
            played[0] += 1
            decision = pending[0]
            if growing and decision.seat == seat:
                action, node, grew = self._select(node, candidate_actions(decision), rng)
                path.append(node)
                growing = not grew
                ruleset.apply(world, seat, action, check=False)
                continue
            action = policy.choose(world, decision, rng)
            events = ruleset.apply(world, decision.seat, action, check=False)
            if growing:
                node = node.child(_observation(seat, decision.seat, action, events))
        reward = self._rewards(world)[seat]
        for visited in path:
            visited.visits += 1
            visited.reward += reward
        return reward

    @staticmethod
    def _select(node: _Node, candidates: list[dict], rng: Rng) -> tuple[dict, _Node, bool]:
        """UCB1 over ``candidates`` (those legal in this world count as available); an untried one first."""
        untried = []
        best, best_score = None, -1.0
        for action in candidates:
            child = node.children.get(action_key(action))
            if child is None or child.visits == 0:
                untried.append(action)
                continue
            child.available += 1
            score = child.reward / child.visits + EXPLORATION * math.sqrt(math.log(child.available) / child.visits)
            if score > best_score:
                best, best_score = action, score
        if untried:
            action = rng.choice(untried)
            child = node.child(action_key(action))
            child.available += 1
            return action, child, True
        return best, node.children[action_key(best)], False

    def _rewards(self, world) -> list[float]:
        """Each seat's reward in 0..1: a share of the win, or of the lead by the standings when cut off."""
        ruleset = self.ruleset
        result = ruleset.result(world)
        seats = world.players
        if result is not None:
            return result_shares(result, seats)
        if self._model is not None:
            return self._model.predict(world)
        standings = ruleset.standings(world)
        lowest = min(standings) if standings else 0
        lead = [value - lowest for value in standings] if standings else []
        total = sum(lead)
        if total <= 0:
            return [1.0 / seats] * seats
        # Each seat's share of the lead over the last seat: smoother than "the leader takes all", so
        # a short rollout still tells a small gain from a small loss.
        return [value / total for value in lead]


def _level_bot(level: int) -> type[SearchBot]:
    return type(f"SearchBotLevel{level}", (SearchBot,), {
        "level": level,
        "label": f"Search bot, level {level}",
        "about": f"level {level} of {max(LEVEL_WORLDS)}: weighs each move over {LEVEL_WORLDS[level]} sampled deals of "
                 "what it cannot see (higher levels play better and take longer)",
        "cost_per_move": LEVEL_WORLDS[level] * MAX_CANDIDATES * MAX_ROLLOUT_ACTIONS,
        "__doc__": f"ISMCTS over {LEVEL_WORLDS[level]} sampled worlds a move.",
    })


#: bot name -> class, offered by every ruleset: ``mcts-1`` .. ``mcts-5`` and ``mcts`` (the default level)
SEARCH_BOTS: dict[str, type[SearchBot]] = {f"mcts-{level}": _level_bot(level) for level in LEVEL_WORLDS}
SEARCH_BOTS["mcts"] = SEARCH_BOTS[f"mcts-{DEFAULT_LEVEL}"]
