"""The ``mcts`` bots: information-set Monte Carlo tree search over the ``Ruleset`` contract.

It is multiple-observer ISMCTS (Cowling, Powley and Whitehouse, 2012), one tree per seat:

- Fair: every iteration plays on a world drawn with ``Ruleset.resample_hidden`` from the
  searching seat's point of view, so the bot decides from what its seat may know. It never reads
  the state it is given for anything else.
- Each seat's tree is keyed by what that seat observes: its own actions in full, another seat's
  action in full unless the step told some event to seats other than this one (a face-down
  bullet, a secret aim), in which case only the events this seat may see. So a seat in the
  tree never picks a simultaneous choice knowing what the others chose in the same step.
- Chance (dice, spinners, decks) is the world's own RNG, re-seeded in every drawn world: the
  trees are open loop over chance.
- Rollouts play ``Ruleset.rollout_bot`` for every seat, cut after ``ROLLOUT_ACTIONS`` actions
  and scored by ``Ruleset.standings``.

Levels differ only by the number of iterations, so the same state, decision and bot seed give the
same move on any machine. The bot's randomness comes from the bot's own RNG, never the game's.
"""

from __future__ import annotations

import json
import math
from typing import ClassVar

from engine.core.decisions import Decision
from engine.core.rng import Rng
from engine.core.ruleset import Bot

#: Iterations (simulated games) per move, by level.
LEVEL_ITERATIONS = {1: 25, 2: 50, 3: 100, 4: 250, 5: 600}
DEFAULT_LEVEL = 3
#: A rollout stops after this many actions and is scored by the ruleset's standings.
ROLLOUT_ACTIONS = 200
#: UCB1's exploration constant for rewards in [0, 1].
EXPLORATION = 0.7


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


def candidate_actions(decision: Decision) -> list[dict]:
    """The actions a search weighs: the options offered, and for a ranged parameter also its midpoint."""
    candidates = [dict(option) for option in decision.options]
    for option in decision.options:
        bounds = decision.ranges.get(option["type"])
        if bounds:
            middle = dict(option)
            for name, (low, high) in bounds.items():
                middle[name] = (low + high) // 2
            if middle not in candidates:
                candidates.append(middle)
    return candidates


def _observation(observer: int, mover: int, action: dict, events: list) -> tuple:
    """What ``observer`` learns of ``mover`` playing ``action``, given the events of the step."""
    if observer == mover or all(event.visible(observer) for event in events):
        return (mover, action_key(action))
    seen = [[event.type, event.data] for event in events if event.visible(observer)]
    return (mover, json.dumps(seen, sort_keys=True, default=str))


class SearchBot(Bot):
    """Information-set MCTS with a fixed number of iterations (see ``LEVEL_ITERATIONS``)."""

    level: ClassVar[int] = DEFAULT_LEVEL
    searches = True

    @classmethod
    def iterations(cls) -> int:
        return LEVEL_ITERATIONS[cls.level]

    def act(self, view: dict | None, decision: Decision, rng: Rng) -> dict:
        raise TypeError("a search bot decides from the game (choose), drawing the worlds its seat cannot tell apart")

    def choose(self, state, decision: Decision, rng: Rng) -> dict:
        return self.analyse(state, decision, rng)["action"]

    def analyse(self, state, decision: Decision, rng: Rng) -> dict:
        """The search's move and every candidate's estimated value (its mean reward, a win share in 0..1)."""
        candidates = candidate_actions(decision)
        if len(candidates) == 1:
            return {"action": candidates[0], "iterations": 0,
                    "options": [{"action": candidates[0], "value": None, "visits": 0}]}
        search_rng = Rng(rng.next64())
        seat = decision.seat
        trees = [_Node() for _ in range(state.players)]
        for _ in range(self.iterations()):
            world = self.ruleset.resample_hidden(state, seat, search_rng)
            self._iterate(world, decision, candidates, trees, search_rng)
        root = trees[seat]
        scored = []
        for action in candidates:
            node = root.children.get(action_key(action))
            visits = node.visits if node else 0
            value = round(node.reward / visits, 4) if visits else None
            scored.append({"action": action, "value": value, "visits": visits})
        best = max(scored, key=lambda entry: (entry["visits"], entry["value"] or 0.0))
        return {"action": best["action"], "iterations": self.iterations(), "options": scored}

    def _iterate(self, world, root_decision: Decision, root_candidates: list[dict], trees: list[_Node],
                 rng: Rng) -> None:
        ruleset = self.ruleset
        nodes = list(trees)
        path: list[tuple[_Node, int]] = []
        decision, candidates = root_decision, root_candidates
        while True:
            mover = decision.seat
            here = nodes[mover]
            untried = []
            best, best_score = None, -1.0
            for action in candidates:
                node = here.children.get(action_key(action))
                if node is None or node.visits == 0:
                    untried.append(action)
                    continue
                node.available += 1
                score = node.reward / node.visits + EXPLORATION * math.sqrt(math.log(node.available) / node.visits)
                if score > best_score:
                    best, best_score = action, score
            expanding = bool(untried)
            action = rng.choice(untried) if expanding else best
            chosen = here.child(action_key(action))
            if expanding:
                chosen.available += 1
            path.append((chosen, mover))
            events = ruleset.apply(world, mover, action, check=False)
            for observer in range(len(nodes)):
                nodes[observer] = chosen if observer == mover else nodes[observer].child(
                    _observation(observer, mover, action, events))
            pending = ruleset.pending(world)
            if expanding or not pending:
                break
            decision = pending[0]
            candidates = candidate_actions(decision)
        rewards = self._rollout(world, rng) if pending else self._rewards(world)
        for node, mover in path:
            node.visits += 1
            node.reward += rewards[mover]

    def _rollout(self, world, rng: Rng) -> list[float]:
        ruleset = self.ruleset
        bot = ruleset.bot(ruleset.rollout_bot)
        for _ in range(ROLLOUT_ACTIONS):
            pending = ruleset.pending(world)
            if not pending:
                return self._rewards(world)
            decision = pending[0]
            ruleset.apply(world, decision.seat, bot.choose(world, decision, rng), check=False)
        return self._rewards(world)

    def _rewards(self, world) -> list[float]:
        """Each seat's reward in 0..1: a share of the win, or of the lead by the standings when cut off."""
        ruleset = self.ruleset
        result = ruleset.result(world)
        seats = world.players
        if result is not None:
            winners = result.winners or list(range(seats))
            return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(seats)]
        standings = ruleset.standings(world)
        if not standings:
            return [1.0 / seats] * seats
        best = max(standings)
        leaders = [seat for seat, value in enumerate(standings) if value == best]
        return [1.0 / len(leaders) if seat in leaders else 0.0 for seat in range(seats)]


def _level_bot(level: int) -> type[SearchBot]:
    return type(f"SearchBotLevel{level}", (SearchBot,), {
        "level": level,
        "cost_per_move": LEVEL_ITERATIONS[level] * ROLLOUT_ACTIONS,
        "__doc__": f"ISMCTS with {LEVEL_ITERATIONS[level]} iterations a move.",
    })


#: bot name -> class, offered by every ruleset: ``mcts-1`` .. ``mcts-5`` and ``mcts`` (the default level)
SEARCH_BOTS: dict[str, type[SearchBot]] = {f"mcts-{level}": _level_bot(level) for level in LEVEL_ITERATIONS}
SEARCH_BOTS["mcts"] = SEARCH_BOTS[f"mcts-{DEFAULT_LEVEL}"]
