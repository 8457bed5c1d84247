"""Which search variant's moves gain over the heuristic's, decision by decision, on the same positions.

    .venv/bin/python bench/search_decisions.py whipcash --games 20 --variant value:256:10:flat --variant mcts-3

The positions are the decisions of one seat (``game mod players``) with a choice, met in ``--games``
all-heuristic games (seed from ``--seed`` and the game). Every variant (named as in
``bench/value_search.py``) chooses a move in each of them with the same bot seed; a move unlike the
heuristic's is audited by ``value_search.advantage``: both moves played in the same ``--audit`` worlds,
then the heuristic for everyone to the game's end. A variant's audited gain a game is the sum of its
moves' advantages over a game's decisions: what its moves would add to the seat's share of the win, one
at a time, in the heuristic's games (the performance-difference lemma taken on the heuristic's
positions, an approximation of the search's own). The same positions, worlds and dice for every
variant, so the variants compare with little noise, and far faster than by playing games.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from value_search import PLAYERS, advantage, variant_class

from engine.bots.search import action_key
from engine.core.registry import get_ruleset
from engine.core.rng import Rng, derive_seed
from engine.simulate import game_seed


def positions(ruleset, games: int, first: int, seed: int, players: int) -> list[tuple[int, object, object]]:
    """(game, state, decision) of the measured seat's choices in all-heuristic games."""
    bot = ruleset.bot(ruleset.rollout_bot)
    found = []
    for game in range(first, first + games):
        game_rng_seed = game_seed(seed, game)
        state = ruleset.new_game(players, None, game_rng_seed)
        rngs = [Rng(derive_seed(game_rng_seed, 1, seat)) for seat in range(players)]
        while decisions := ruleset.pending(state):
            decision = decisions[0]
            if decision.seat == game % players and (len(decision.options) > 1 or decision.ranges):
                found.append((game, ruleset.copy(state), decision))
            ruleset.apply(state, decision.seat, bot.choose(state, decision, rngs[decision.seat]), check=False)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("ruleset")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--players", type=int, default=PLAYERS)
    parser.add_argument("--audit", type=int, default=200, metavar="WORLDS",
                        help="worlds an audit of a move plays (0: no audits, only the moves and their cost)")
    parser.add_argument("--variant", action="append", required=True)
    args = parser.parse_args()
    ruleset = get_ruleset(args.ruleset)
    found = positions(ruleset, args.games, args.first, args.seed, args.players)
    heuristic = ruleset.bot(ruleset.rollout_bot)
    usual = [heuristic.choose(state, decision, Rng(0)) for _, state, decision in found]
    print(f"{ruleset.id}: {len(found)} decisions of the measured seat in games {args.first}.."
          f"{args.first + args.games - 1} (seed {args.seed}, {args.players} players); audits over {args.audit} "
          f"worlds", flush=True)
    for name in args.variant:
        variant_class(name)
    bots = [ruleset.bot(name) for name in args.variant]
    per_game = [dict.fromkeys(range(args.first, args.first + args.games), 0.0) for _ in bots]
    kinds: list[dict[str, list[float]]] = [{} for _ in bots]
    costs: list[list[float]] = [[] for _ in bots]
    audited: dict[tuple[int, tuple], float] = {}
    # Position by position, every variant in turn: a change of the machine's load weighs on all alike.
    for index, ((game, state, decision), reference) in enumerate(zip(found, usual, strict=True)):
        for number, bot in enumerate(bots):
            began = time.process_time()
            action = bot.choose(ruleset.copy(state), decision, Rng(derive_seed(game, 3, index)))
            costs[number].append((time.process_time() - began) * 1e3)
            tally = kinds[number].setdefault(decision.kind, [0, 0, 0.0])
            tally[0] += 1
            if action == reference:
                continue
            tally[1] += 1
            if not args.audit:
                continue
            key = (index, action_key(action))
            if key not in audited:
                # The same worlds and dice for every variant's move at this position.
                audited[key] = advantage(ruleset, state, decision.seat, action, reference, args.audit,
                                         Rng(derive_seed(args.seed, 4, index)))
            tally[2] += audited[key]
            per_game[number][game] += audited[key]
        if index + 1 == len(found) or found[index + 1][0] != game:
            done = game - args.first + 1
            print(f"  after {done} games: " + "; ".join(
                f"{name} {sum(list(per_game[number].values())[:done]) / done:+.4f} a game "
                f"({sum(tally[1] for tally in kinds[number].values())} moved otherwise)"
                for number, name in enumerate(args.variant)), file=sys.stderr, flush=True)
    for number, name in enumerate(args.variant):
        gains = list(per_game[number].values())
        centre = statistics.mean(gains)
        half = 1.959964 * statistics.stdev(gains) / math.sqrt(len(gains)) if len(gains) > 1 else 0.0
        print(f"{name:28} audited gain a game {centre:+.4f} [{centre - half:+.4f}, {centre + half:+.4f}]; "
              f"{statistics.median(costs[number]):.1f} ms/move (mean {statistics.mean(costs[number]):.1f}); "
              "moved otherwise: " + ", ".join(
                  f"{kind} {changed}/{moves} ({gain:+.3f})"
                  for kind, (moves, changed, gain) in sorted(kinds[number].items())), flush=True)


if __name__ == "__main__":
    main()
