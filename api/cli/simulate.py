"""``rulehouse simulate`` (in this process, or queued on the workers through Redis or over HTTP) and
``rulehouse train-values``."""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
from pathlib import Path

from api.cli.support import (
    HttpSimulations,
    RedisRuns,
    RequestRefused,
    parse_options,
    plot_unavailable,
    refusal_message,
    resolve_redis_url,
    show_result,
    wait_until_ended,
)
from api.simulations.table import format_table
from engine.core.errors import InvalidOptions
from engine.core.registry import UnknownRuleset, get_ruleset
from engine.experiments.drama import drama_measures, play_drama_chunk
from engine.simulate import simulate, summarize

#: The simulations' lifecycle, loaded only by ``--queue`` (with Redis).
LIFECYCLE = "api.simulations.lifecycle"


def _draw_progress(progress: dict, elapsed: float) -> None:
    done, total = progress["games_done"], progress["games"]
    width = 30
    filled = width * done // total
    bar = "#" * filled + "-" * (width - filled)
    sys.stderr.write(f"\r[{bar}] {done}/{total} games  {elapsed:.1f} s")
    sys.stderr.flush()


def run_queued(body: dict, simulations: RedisRuns | HttpSimulations, show_progress: bool) -> dict:
    """Submit to the workers and wait; the finished statistics. Ctrl+C cancels the simulation."""
    sim_id = simulations.submit(body)
    began = time.monotonic()
    draw = (lambda state: _draw_progress(state["progress"], time.monotonic() - began)) if show_progress else None
    state = wait_until_ended(simulations, sim_id, "simulation", draw, poll_seconds=0.2)
    if state["status"] != "finished":
        raise SystemExit(f"simulation {sim_id} {state['status']}: {state.get('error') or ''}".rstrip(": "))
    return state["result"]


def cmd_simulate(args: argparse.Namespace) -> int:
    try:
        ruleset = get_ruleset(args.ruleset)
    except UnknownRuleset as unknown:
        print(f"rulehouse: {unknown.message}", file=sys.stderr)
        return 2
    if plot_unavailable(args):
        return 1
    players = args.players or ruleset.min_players
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    options = parse_options(args.options)
    try:
        if args.queue or args.url:
            body = {"ruleset": ruleset.id, "players": players, "bots": bots or ["random"], "options": options,
                    "games": args.games, "seed": args.seed, "chunk_size": args.chunk_size,
                    **({"drama": True} if args.drama else {})}
            simulations = (HttpSimulations(args.url) if args.url
                           else RedisRuns(resolve_redis_url(args.redis_url), LIFECYCLE, warn_idle=True))
            stats = run_queued(body, simulations, show_progress=sys.stdout.isatty())
        elif args.drama:
            stats = simulate_drama(ruleset.id, args.games, players, bots, options, args.seed)
        else:
            stats = simulate(ruleset.id, args.games, players, bots, options, args.seed)
    except (InvalidOptions, RequestRefused) as error:
        print(refusal_message(error), file=sys.stderr)
        return 2
    show_result(args, stats, format_table, "api.simulations.plot.plot_stats")
    return 0


def simulate_drama(ruleset_id: str, games: int, players: int, bots: list[str], options: dict, seed: int) -> dict:
    """``simulate`` with the drama of every game (``rulehouse simulate --drama``), in this process."""
    tally = play_drama_chunk(ruleset_id, players, bots, options, seed, 0, games)
    drama = drama_measures(get_ruleset(ruleset_id), tally.drama, players)
    return {**summarize(ruleset_id, seed, tally), "drama": drama}


def cmd_train_values(args: argparse.Namespace) -> int:
    try:
        ruleset = get_ruleset(args.ruleset)
    except UnknownRuleset as unknown:
        print(f"rulehouse: {unknown.message}", file=sys.stderr)
        return 2
    if importlib.util.find_spec("numpy") is None:
        print("rulehouse: train-values needs numpy: pip install 'rulehouse[train]'", file=sys.stderr)
        return 1
    # only once numpy is known to be there (the train extra): they import it
    from engine.values.model import model_path
    from engine.values.train import ModelRefused, train

    try:
        data = train(ruleset.id, args.games, args.seed, args.bot)
    except ModelRefused as refused:
        print(f"rulehouse: the model does not beat both baselines, not written: {refused}", file=sys.stderr)
        return 1
    except InvalidOptions as error:
        print(f"error: {error.message}", file=sys.stderr)
        return 2
    out = Path(args.out) if args.out else model_path(ruleset)
    out.write_text(json.dumps(data, indent=1) + "\n")
    print_value_scores(data)
    print(f"model written to {out}")
    return 0


def print_value_scores(data: dict) -> None:
    trained = data["trained_on"]
    print(f"{data['ruleset']} rules version {data['rules_version']}: {trained['games']} games (seed {trained['seed']}, "
          f"{trained['bot']} bots), {trained['held_out_games']} held out ({trained['held_out_positions']} positions)")
    print(f"{'players':>8} {'positions':>9}  {'model ll':>8} {'brier':>6}  {'equal ll':>8} {'brier':>6}"
          f"  {'stand. ll':>9} {'brier':>6}")
    held_out = data["held_out"]
    for label, group in [("all", held_out["overall"]), *held_out["by_players"].items()]:
        figures = "  ".join(f"{group[name]['log_loss']:>8.4f} {group[name]['brier']:>6.4f}"
                            for name in ("model", "equal", "standings"))
        print(f"{label:>8} {group['positions']:>9}  {figures}")
    print("calibration (predicted -> observed, by decile): " + ", ".join(
        f"{row['predicted']:.2f}->{row['observed']:.2f}" for row in held_out["calibration"] if row["count"]))


def _bounded_games(text: str) -> int:
    games = int(text)
    if not 8 <= games <= 1_000_000:
        raise argparse.ArgumentTypeError("between 8 and 1000000 games")
    return games


def _http_url(text: str) -> str:
    if not text.startswith(("http://", "https://")) or len(text.split("://", 1)[1].strip("/")) == 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not an http:// or https:// URL")
    return text


def add_simulate_parser(sub) -> None:
    """``rulehouse simulate``."""
    sim = sub.add_parser("simulate", help="play many bot games and print statistics")
    sim.add_argument("ruleset")
    sim.add_argument("--games", type=int, default=1000)
    sim.add_argument("--players", type=int, help="default: the ruleset's minimum")
    sim.add_argument("--bots", default="random", help="bot per seat, comma-separated; the last repeats")
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--options", help="game options as a JSON object")
    sim.add_argument("--json", action="store_true", help="print one JSON object")
    sim.add_argument("--queue", action="store_true", help="run on the workers (`rulehouse worker`) through Redis")
    sim.add_argument("--chunk-size", type=int, help="with --queue: games per worker job (default: automatic)")
    sim.add_argument("--redis-url", help="with --queue: default $REDIS_URL, else the local `rulehouse serve`")
    sim.add_argument("--url", type=_http_url, metavar="http://HOST:PORT",
                     help="run on the workers of the service at this URL, over HTTP (implies --queue)")
    sim.add_argument("--plot", metavar="FILE.png", help="also draw win rates with 95%% CIs and game lengths")
    sim.add_argument("--drama", action="store_true", help="also read each game's drama from its win chances "
                     "(decided at, comebacks, kingmaking, skill index): several times the work")
    sim.set_defaults(func=cmd_simulate)


def add_train_values_parser(sub) -> None:
    """``rulehouse train-values``."""
    values = sub.add_parser("train-values", help="train a ruleset's value model (win chances) on simulated games")
    values.add_argument("ruleset")
    values.add_argument("--games", type=_bounded_games, default=4000, help="games to simulate (a quarter held out)")
    values.add_argument("--seed", type=int, default=0)
    values.add_argument("--bot", help="the bot of every seat (default: the ruleset's rollout bot)")
    values.add_argument("--out", help="write the model here (default: the game's data/values.json)")
    values.set_defaults(func=cmd_train_values)
