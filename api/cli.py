"""The ``rulehouse`` command line."""

from __future__ import annotations

import argparse
import json
import sys

from engine.core.errors import InvalidOptions
from engine.core.registry import all_rulesets, get_ruleset
from engine.simulate import simulate


def _parse_options(text: str | None) -> dict:
    if not text:
        return {}
    try:
        options = json.loads(text)
    except json.JSONDecodeError as error:
        raise SystemExit(f"--options is not JSON: {error}") from None
    if not isinstance(options, dict):
        raise SystemExit("--options must be a JSON object")
    return options


def cmd_rulesets(args: argparse.Namespace) -> int:
    for ruleset in all_rulesets().values():
        print(f"{ruleset.id:16} {ruleset.title} ({ruleset.min_players}-{ruleset.max_players} players)")
    return 0


def print_table(stats: dict) -> None:
    print(f"{stats['ruleset']}: {stats['games']} games, {stats['players']} players, seed {stats['seed']}")
    print(f"{'seat':>4}  {'bot':12} {'wins':>7} {'rate':>7}  95% CI")
    for seat, (bot, wins) in enumerate(zip(stats["bots"], stats["wins"], strict=True)):
        low, high = stats["win_rate_ci95"][seat]
        print(f"{seat:>4}  {bot:12} {wins:>7} {stats['win_rates'][seat]:>7.3f}  [{low:.3f}, {high:.3f}]")
    turns = stats["turns"]
    print(f"draws {stats['draws']}, turn-cap hits {stats['turn_cap_hits']}")
    print(f"turns: mean {turns['mean']}, median {turns['median']}, p90 {turns['p90']}, max {turns['max']}")
    print(f"{stats['games_per_s']} games/s")


def cmd_simulate(args: argparse.Namespace) -> int:
    try:
        ruleset = get_ruleset(args.ruleset)
    except KeyError:
        print(f"unknown ruleset {args.ruleset!r}; try `rulehouse rulesets`", file=sys.stderr)
        return 2
    players = args.players or ruleset.min_players
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    try:
        stats = simulate(ruleset.id, args.games, players, bots, _parse_options(args.options), args.seed)
    except InvalidOptions as error:
        print(f"error: {error.message} {error.fields or ''}".rstrip(), file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(stats))
    else:
        print_table(stats)
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    print("The HTTP service is not built yet; rulesets available:")
    return cmd_rulesets(args)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rulehouse", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    sub.add_parser("rulesets", help="list the rulesets").set_defaults(func=cmd_rulesets)

    sim = sub.add_parser("simulate", help="play many bot games and print statistics")
    sim.add_argument("ruleset")
    sim.add_argument("--games", type=int, default=1000)
    sim.add_argument("--players", type=int, help="default: the ruleset's minimum")
    sim.add_argument("--bots", default="random", help="bot per seat, comma-separated; the last repeats")
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--options", help="game options as a JSON object")
    sim.add_argument("--json", action="store_true", help="print one JSON object")
    sim.set_defaults(func=cmd_simulate)

    sub.add_parser("serve", help="run the service").set_defaults(func=cmd_serve)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
