"""Does the value model help the search? Paired games of one search variant alone among heuristics.

    .venv/bin/python bench/value_search.py whipcash --games 100 --variant mcts-3 --variant value:64:15

Game ``g`` (seed derived from ``--seed`` and ``g``) is played twice: once with the variant in seat
``g mod players`` among heuristic seats, once with the heuristic in that seat too (the same seeds,
so the same deal and, until the moves differ, the same dice). The paired difference of the seat's
share of the win, with its 95% interval, says whether the variant beats the heuristic it searches
with; the CPU time of the variant's moves gives its cost per move.

A variant is a bot name (``mcts-3``) or ``value:WORLDS:HORIZON`` (rollouts cut after HORIZON
actions and scored by the value model) or ``standings:WORLDS:HORIZON`` (the same, scored by the
standings as the search does without a model).

A long measurement runs in chunks of seeds (``--first``, ``--games``), each appending its games to a
``--record`` file; ``--from-record FILE`` (repeatable) plays nothing and prints the figures of every game
the files hold for the ruleset, seed and variants named, each game once:

    .venv/bin/python bench/value_search.py whipcash --variant value:256:10:flat:c1 --from-record whipcash.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine.bots import GENERIC_BOTS
from engine.bots.search import SearchBot
from engine.core.registry import get_ruleset
from engine.core.rng import Rng, derive_seed
from engine.simulate import game_seed
from engine.values.model import result_shares

PLAYERS = 4


def variant_class(name: str) -> type[SearchBot] | None:
    """The search class a variant names (``None`` for a plain bot name), registered under ``name``:
    ``SCORING:WORLDS:HORIZON`` then optional ``flat`` (no tree of the seat's later moves) and ``cN``
    (a candidate must beat the rollout bot's move by N standard errors)."""
    if ":" not in name:
        return None
    scoring, worlds, horizon, *extra = name.split(":")
    attributes = {"world_count": int(worlds), "horizon": int(horizon), "use_values": scoring == "value"}
    for part in extra:
        if part == "flat":
            attributes["flat"] = True
        elif part.startswith("c"):
            attributes["confidence"] = float(part[1:])
        else:
            raise SystemExit(f"unknown variant part {part!r} in {name!r}")
    found = type(f"Variant_{name.replace(':', '_')}", (SearchBot,), attributes)
    # Every game offers the generic bots (``Ruleset.generic_bots`` is this very table): registered here, the
    # variant is a bot name of every ruleset for this run.
    GENERIC_BOTS[name] = found
    return found


#: A full rollout of an audit stops here (no game of these rulesets is nearly this long).
AUDIT_ACTIONS = 5_000


def advantage(ruleset, state, seat: int, action: dict, reference: dict, worlds: int, rng: Rng) -> float:
    """How much more of the win ``action`` brings ``seat`` than ``reference``, the rollout bot's move: both
    played in the same ``worlds`` (drawn from the seat's view) with the same dice, then everyone plays the
    rollout bot to the game's end. Summed over a game's moves unlike the rollout bot's, this estimates what
    the search's moves gained over the rollout bot's in that game (the performance-difference lemma), with
    far less noise than the game's result."""
    policy = ruleset.bot(ruleset.rollout_bot)
    total = 0.0
    for _ in range(worlds):
        world = ruleset.resample_hidden(state, seat, rng)
        seed = rng.next64()
        outcome = []
        for move in (action, reference):
            copy = ruleset.copy(world)
            ruleset.apply(copy, seat, move, check=False)
            moves_rng = Rng(seed)
            for _ in range(AUDIT_ACTIONS):
                pending = ruleset.pending(copy)
                if not pending:
                    break
                ruleset.apply(copy, pending[0].seat, policy.choose(copy, pending[0], moves_rng), check=False)
            result = ruleset.result(copy)
            outcome.append(result_shares(result, copy.players)[seat] if result else 1.0 / copy.players)
        total += outcome[0] - outcome[1]
    return total / worlds


def play(ruleset, bots: list[str], seed: int, timed_seat: int | None,
         deviations: dict[str, list[float]] | None = None, audit: int = 0) -> tuple[list[float], list[float]]:
    """One game: each seat's share of the win, and the CPU ms of each move of ``timed_seat``. With
    ``deviations``, per decision kind ``[moves, moves unlike the rollout bot's, their audited advantage]``
    of that seat (the advantage over ``audit`` worlds, see ``advantage``; 0 without an audit)."""
    state = ruleset.new_game(len(bots), None, seed)
    players = [ruleset.bot(name) for name in bots]
    rngs = [Rng(derive_seed(seed, 1, seat)) for seat in range(len(bots))]
    reference = ruleset.bot(ruleset.rollout_bot) if deviations is not None else None
    costs = []
    while decisions := ruleset.pending(state):
        decision = decisions[0]
        began = time.process_time()
        action = players[decision.seat].choose(state, decision, rngs[decision.seat])
        if decision.seat == timed_seat and (len(decision.options) > 1 or decision.ranges):
            costs.append((time.process_time() - began) * 1e3)
            if reference is not None:
                tally = deviations.setdefault(decision.kind, [0, 0, 0.0])
                tally[0] += 1
                usual = reference.choose(state, decision, Rng(0))
                if action != usual:
                    tally[1] += 1
                    if audit:
                        tally[2] += advantage(ruleset, state, decision.seat, action, usual, audit,
                                              Rng(derive_seed(seed, 2, len(costs))))
        ruleset.apply(state, decision.seat, action, check=False)
    return result_shares(ruleset.result(state), len(bots)), costs


def paired(shares: list[float], baseline: list[float]) -> tuple[float, float, float]:
    """The mean paired difference and its 95% interval."""
    differences = [a - b for a, b in zip(shares, baseline, strict=True)]
    centre = statistics.mean(differences)
    half = 1.959964 * statistics.stdev(differences) / math.sqrt(len(differences)) if len(differences) > 1 else 0.0
    return centre, centre - half, centre + half


def summary(name: str, shares: list[float], baseline: list[float], costs: list[float]) -> str:
    """A variant's line of the table: games, win rates, the paired difference, its 95% interval, the median
    CPU ms of its moves and how many moves were timed."""
    centre, low, high = paired(shares, baseline)
    return (f"{name:24} {len(shares):>5} {statistics.mean(shares):>6.3f} {statistics.mean(baseline):>6.3f} "
            f"{centre:>+12.3f} [{low:+.3f}, {high:+.3f}] {statistics.median(costs) if costs else 0:>8.1f} "
            f"{len(costs):>6}")


def recorded_games(paths: list[str], ruleset: str, seed: int, variant: str) -> list[dict]:
    """The games of ``variant`` the record files hold, by game index, each once: chunks of seeds may be
    recorded in several files or twice (a run stopped and restarted); two records of one game must agree."""
    games: dict[int, dict] = {}
    for path in paths:
        with open(path) as lines:
            for line in lines:
                game = json.loads(line)
                if (game["ruleset"], game["seed"], game["variant"]) != (ruleset, seed, variant):
                    continue
                known = games.setdefault(game["game"], game)
                if (known["share"], known["heuristic"]) != (game["share"], game["heuristic"]):
                    raise SystemExit(f"{path}: game {game['game']} of {variant} recorded with two results")
    return [games[index] for index in sorted(games)]


HEADER = (f"{'variant':24} {'games':>5} {'win':>6} {'heur.':>6} {'paired diff':>12} {'95% interval':>18} "
          f"{'ms/move':>8} {'moves':>6}")


def report_records(args: argparse.Namespace, ruleset_id: str) -> None:
    """Print the figures of the recorded games (``--from-record``), playing none."""
    print(f"{ruleset_id}: recorded games, seed {args.seed}, from {', '.join(args.from_record)}")
    print(HEADER + " ms mean")
    for name in args.variant:
        games = recorded_games(args.from_record, ruleset_id, args.seed, name)
        if not games:
            print(f"{name:24} no recorded game")
            continue
        costs = [ms for game in games for ms in game["ms"]]
        indices = [game["game"] for game in games]
        print(summary(name, [game["share"] for game in games], [game["heuristic"] for game in games], costs)
              + f" {statistics.mean(costs) if costs else 0:>7.1f}")
        missing = sorted(set(range(indices[0], indices[-1] + 1)) - set(indices))
        unlike = [game["unlike_rollout_bot"] for game in games if "unlike_rollout_bot" in game]
        print(f"  games {indices[0]}..{indices[-1]}" + (f", {len(missing)} missing in between" if missing else "")
              + f"; games whose result differs from the heuristic's: "
              f"{sum(game['share'] != game['heuristic'] for game in games)}"
              + (f"; moves unlike the rollout bot's: {sum(unlike)} in {len(unlike)} games" if unlike else ""))


def audited(gains: list[float]) -> str:
    centre = statistics.mean(gains)
    half = 1.959964 * statistics.stdev(gains) / math.sqrt(len(gains)) if len(gains) > 1 else 0.0
    return f"{centre:+.4f} [{centre - half:+.4f}, {centre + half:+.4f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("ruleset")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--first", type=int, default=0, help="the first game's index (to run in chunks of seeds)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--players", type=int, default=PLAYERS)
    parser.add_argument("--variant", action="append", required=True)
    parser.add_argument("--every", type=int, default=50, help="print the running figures every N games (stderr)")
    parser.add_argument("--record", help="append one JSON line per paired game to this file")
    parser.add_argument("--audit", type=int, default=0, metavar="WORLDS",
                        help="audit each move unlike the rollout bot's with full rollouts over WORLDS worlds")
    parser.add_argument("--cost-games", type=int, default=None,
                        help="play only the first N games of the variants after the first (a cost reference)")
    parser.add_argument("--from-record", action="append", metavar="FILE",
                        help="play nothing: print the figures of the games recorded in FILE (repeatable)")
    args = parser.parse_args()
    ruleset = get_ruleset(args.ruleset)
    if args.from_record:
        report_records(args, ruleset.id)
        return
    crowd = ruleset.rollout_bot
    indices = range(args.first, args.first + args.games)
    baseline = []
    for game in indices:
        seat = game % args.players
        shares, _ = play(ruleset, [crowd] * args.players, game_seed(args.seed, game), None)
        baseline.append(shares[seat])
    print(f"{ruleset.id}: games {args.first}..{args.first + args.games - 1} paired, {args.players} players, "
          f"seed {args.seed}; heuristic in the measured seat wins {statistics.mean(baseline):.3f}")
    print(HEADER + f" {'cpu s':>7}")
    record = open(args.record, "a") if args.record else None  # noqa: SIM115 (kept open for the whole run)
    for number, name in enumerate(args.variant):
        variant_class(name)
        began = time.process_time()
        shares, costs, gains = [], [], []
        deviations: dict[str, list[float]] = {}
        count = args.games if number == 0 or args.cost_games is None else min(args.games, args.cost_games)
        for game in indices[:count]:
            seat = game % args.players
            bots = [crowd] * args.players
            bots[seat] = name
            gained = sum(tally[2] for tally in deviations.values())
            changed = sum(tally[1] for tally in deviations.values())
            result, moves = play(ruleset, bots, game_seed(args.seed, game), seat, deviations, args.audit)
            gains.append(sum(tally[2] for tally in deviations.values()) - gained)
            changed = sum(tally[1] for tally in deviations.values()) - changed
            shares.append(result[seat])
            costs += moves
            if record:
                record.write(json.dumps({
                    "ruleset": ruleset.id, "seed": args.seed, "variant": name, "game": game, "seat": seat,
                    "share": result[seat], "heuristic": baseline[game - args.first], "audited_gain": gains[-1],
                    "unlike_rollout_bot": changed, "ms": moves}) + "\n")
                record.flush()
            if len(shares) % args.every == 0:
                centre, low, high = paired(shares, baseline[:len(shares)])
                print(f"  {name} after {len(shares)} games: {statistics.mean(shares):.3f} against "
                      f"{statistics.mean(baseline[:len(shares)]):.3f}, {centre:+.3f} [{low:+.3f}, {high:+.3f}], "
                      f"{statistics.median(costs) if costs else 0:.1f} ms/move"
                      + (f"; audited gain {audited(gains)}" if args.audit else ""), file=sys.stderr, flush=True)
        print(summary(name, shares, baseline[:len(shares)], costs) + f" {time.process_time() - began:>7.0f}",
              flush=True)
        print("  unlike the rollout bot's move, by decision kind: " + ", ".join(
            f"{kind} {changed}/{moves}" + (f" (audited {gain / len(shares):+.4f} a game)" if args.audit else "")
            for kind, (moves, changed, gain) in sorted(deviations.items())), flush=True)
        if args.audit:
            print(f"  audited gain a game ({args.audit} worlds a move): {audited(gains)}", flush=True)
    if record:
        record.close()


if __name__ == "__main__":
    main()
