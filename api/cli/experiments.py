"""``rulehouse experiment``: variants of a game compared on the same seeds by the workers, as a
table (and ``--plot``): through Redis (``--redis-url``, ``REDIS_URL``, a local ``rulehouse serve``)
or a service's HTTP API (``--url``)."""

from __future__ import annotations

import argparse
import json
import sys

from api.cli import support
from api.cli.support import HttpSimulations, RequestRefused, parse_options, refusal_message
from api.simulations.table import positions_of
from engine.core.errors import InvalidOptions

DESCRIPTION = """Compare a base configuration with variants (house rules, a sweep of one or two options,
bot lineups) on the same seeds, on the workers: through Redis (--redis-url, $REDIS_URL, or a
local `rulehouse serve`) or a service's HTTP API (--url). Prints one row per variant; Ctrl+C
cancels the experiment. docs/experiments.md explains the measures and the statistics."""


def add_parser(sub) -> argparse.ArgumentParser:
    run = sub.add_parser("experiment", help="compare house rules, a sweep or bot lineups on the same seeds",
                         description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EPILOG)
    run.add_argument("ruleset")
    run.add_argument("--players", type=int, help="default: the ruleset's minimum")
    run.add_argument("--bots", default="random", help="the base's bot per seat, comma-separated; the last repeats")
    run.add_argument("--options", help="the base's game options as a JSON object")
    run.add_argument("--sweep", action="append", default=[], metavar="OPTION=V1,V2,...",
                     help="a swept option and its values (JSON each, e.g. starting_money=10,13,16); twice for a grid")
    run.add_argument("--variant", action="append", default=[], metavar="NAME=JSON",
                     help="a named variant: options laid over the base's, e.g. 'rich={\"starting_money\": 30}'")
    run.add_argument("--lineup", action="append", default=[], metavar="NAME=BOT,BOT",
                     help="a variant with another lineup, e.g. 'strong first=heuristic,random'")
    run.add_argument("--games", type=int, help="games per variant (a fixed size)")
    run.add_argument("--win-rate-within", type=float, help="stop a variant once every seat's win rate is this sure")
    run.add_argument("--difference-within", type=float,
                     help="stop a variant once its difference from the base is significant or within this")
    run.add_argument("--max-games", type=int, help="with a precision: the budget of games per variant")
    run.add_argument("--min-games", type=int, help="with a precision: games per variant of the first round")
    run.add_argument("--seed", type=int, default=0)
    run.add_argument("--drama", action="store_true",
                     help="also read each game's drama from its win chances (decided at, comebacks, kingmaking, "
                          "skill index): several times the work of a plain experiment")
    run.add_argument("--chunk-size", type=int, help="seeds per worker job (default: automatic)")
    run.add_argument("--redis-url", help="default $REDIS_URL, else the local `rulehouse serve`")
    run.add_argument("--url", metavar="http://HOST:PORT", help="run on the service at this URL, over HTTP")
    run.add_argument("--json", action="store_true", help="print the finished experiment as one JSON object")
    run.add_argument("--plot", metavar="FILE.png", help="also draw the measures per variant with their intervals")
    run.set_defaults(func=cmd_experiment)
    return run


EPILOG = """examples:
  rulehouse experiment monopoly-cars2 --players 2 --bots heuristic --sweep starting_money=6,10,13,18,24 --games 4000
  rulehouse experiment monopoly-cars2 --players 3 --bots heuristic --sweep starting_money=13,24 --games 2000 --drama
  rulehouse experiment whipcash --lineup 'heuristic first=heuristic,random' --difference-within 0.02 --max-games 9000"""


def _value(text: str):
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def build_body(args: argparse.Namespace) -> dict:
    """The request of ``POST /v1/experiments`` the arguments describe."""
    sweep = {}
    for item in args.sweep:
        name, _, values = item.partition("=")
        if not values:
            raise SystemExit(f"--sweep {item!r}: give OPTION=V1,V2,...")
        try:  # JSON values, which may be lists themselves: spinner_faces=[1,2,3],[4,5,6]
            sweep[name] = json.loads(f"[{values}]")
        except json.JSONDecodeError:  # bare words: deck=short,long
            sweep[name] = [_value(v) for v in values.split(",")]
    variants = []
    for item in args.variant:
        name, _, options = item.partition("=")
        variants.append({"name": name, "options": parse_options(options)})
    for item in args.lineup:
        name, _, bots = item.partition("=")
        variants.append({"name": name, "bots": [b.strip() for b in bots.split(",") if b.strip()]})
    body = {"ruleset": args.ruleset, "players": args.players, "bots": [b.strip() for b in args.bots.split(",")],
            "options": parse_options(args.options), "sweep": sweep, "variants": variants, "seed": args.seed,
            "chunk_size": args.chunk_size, **({"drama": True} if args.drama else {})}
    if args.win_rate_within or args.difference_within:
        body["stop"] = {"win_rate_within": args.win_rate_within, "difference_within": args.difference_within,
                        "max_games": args.max_games or 20_000, "min_games": args.min_games}
    else:
        body["games"] = args.games or 1000
    return body


class HttpExperiments:
    def __init__(self, base_url: str) -> None:
        self.http = HttpSimulations(base_url)

    def submit(self, body: dict) -> str:
        return self.http._request("POST", "/v1/experiments", body)["id"]

    def status(self, exp_id: str) -> dict:
        return self.http._request("GET", f"/v1/experiments/{exp_id}")

    def cancel(self, exp_id: str) -> None:
        self.http._request("DELETE", f"/v1/experiments/{exp_id}")


def wait(experiments, exp_id: str, show_progress: bool) -> dict:
    """Poll until the experiment ends; Ctrl+C cancels it."""
    return support.wait_until_ended(experiments, exp_id, "experiment", _draw_progress if show_progress else None,
                            poll_seconds=0.3)


def _draw_progress(state: dict) -> None:
    progress = state["progress"]
    sys.stderr.write(f"\rround {progress['round']}: {progress['games_done']} games of at most "
                     f"{progress['games_budget']}   ")
    sys.stderr.flush()


def _interval(rate: float, interval: list[float]) -> str:
    return f"{rate:.3f} [{interval[0]:.3f}, {interval[1]:.3f}]"


def _versus(difference: dict) -> str:
    """A paired difference from the base with its interval and Holm-adjusted p."""
    low, high = difference["ci95"]
    return f"{difference['difference']:+.3f} [{low:+.3f}, {high:+.3f}] {difference.get('p_holm', 1):.2g}"


def format_table(state: dict) -> str:
    """One row per variant: the first mover's win rate and its difference from the base (the measure the
    summary balances), seat 0's win rate beside it, game length, lead changes, the halfway leader."""
    rows = [f"{state['ruleset']}: {state['players']} players, seed {state['seed']}, {state['status']}",
            f"{'variant':24} {'games':>7} {'stopped':18} {'first mover wins':>22} {'vs base (Holm p)':>30} "
            f"{'seat 0 wins':>22} {'mean turns':>11} {'vs base':>8} {'lead chg':>8} {'halfway ldr wins':>16}"]
    for variant in state["result"]["variants"]:
        positions = positions_of(variant, state["players"])
        first_mover = _interval(positions["win_rates"][0], positions["win_rate_ci95"][0])
        seat0 = _interval(variant["win_rates"][0], variant["win_rate_ci95"][0])
        diff = variant["difference"]
        if diff:
            versus = _versus(diff["position_win_rates"][0])
            relative = diff["turns_mean"]["relative"]
            longer = f"{relative * 100:+.0f}%" if relative is not None else "-"
        else:
            versus, longer = "-", "-"
        rows.append(f"{variant['name'][:24]:24} {variant['games']:>7} {variant['stopped'] or '-':18} "
                    f"{first_mover:>22} {versus:>30} {seat0:>22} {variant['turns']['mean']:>11.1f} {longer:>8} "
                    f"{variant['lead_changes']['mean']:>8.2f} {variant['halfway_leader_wins']['rate']:>16.3f}")
    if any(variant.get("drama") for variant in state["result"]["variants"]):
        rows += drama_rows(state["result"]["variants"])
    if state["result"]["summary"]:
        rows.append(state["result"]["summary"])
    return "\n".join(rows)


def drama_rows(variants: list[dict]) -> list[str]:
    """The drama measures, one row per variant: when the game is decided, comebacks, lead changes on the
    win chances, kingmaking and the skill index (docs/experiments.md)."""
    rows = [f"{'drama':24} {'decided at':>10} {'before half':>22} {'comebacks':>22} {'lowest':>7} "
            f"{'chance ldr chg':>14} {'kingmaker games':>22} {'spread':>7} {'changes winner':>22} {'skill index':>22}"]
    for variant in variants:
        drama = variant.get("drama")
        if not drama:
            continue
        kingmaking, skill = drama["kingmaking"], drama["skill_index"]
        rows.append(
            f"{variant['name'][:24]:24} {drama['decided_at']['mean']:>10.3f} "
            f"{_interval(drama['decided_before_half']['rate'], drama['decided_before_half']['ci95']):>22} "
            f"{_interval(drama['comebacks']['rate'], drama['comebacks']['ci95']):>22} "
            f"{drama['lowest_winner_chance']['mean']:>7.3f} {drama['chance_lead_changes']['mean']:>14.2f} "
            f"{_interval(kingmaking['games']['rate'], kingmaking['games']['ci95']):>22} "
            f"{kingmaking['spread']['mean']:>7.3f} "
            f"{_interval(kingmaking['changes_winner']['rate'], kingmaking['changes_winner']['ci95']):>22} "
            f"{skill['value']:>+6.2f} [{skill['ci95'][0]:+.2f}, {skill['ci95'][1]:+.2f}]")
    return rows


def cmd_experiment(args: argparse.Namespace) -> int:
    if support.plot_unavailable(args):
        return 1
    body = build_body(args)
    if args.url:
        experiments = HttpExperiments(args.url)
    else:
        experiments = support.RedisRuns(support.resolve_redis_url(args.redis_url), "api.experiments.lifecycle")
    try:
        exp_id = experiments.submit(body)
    except (InvalidOptions, RequestRefused) as error:
        print(refusal_message(error), file=sys.stderr)
        return 2
    # At once, on stderr (stdout keeps the table or the JSON): the experiment runs on while this waits.
    print(f"experiment {exp_id}: {support.page_address(args.url, f'/experiments/{exp_id}')}", file=sys.stderr)
    state = wait(experiments, exp_id, show_progress=sys.stderr.isatty())
    support.show_result(args, state, format_table, "api.experiments.plot.plot_experiment")
    return 0 if state["status"] == "finished" else 1
