"""How strong are the bots? Two modes, both printing win rates with 95% Wilson intervals.

One table: seat 0 plays ``--bot`` (default ``heuristic``), the others ``random``; the verdict
line says whether seat 0's interval lies wholly above every random seat's.

    .venv/bin/python bench/bots.py cash-n-guns --players 5 --games 2000

The ladder: every two bots head to head on each ruleset, seats rotated, fixed seeds (the
match design is in docs/bots.md); per ruleset a table of each bot's record and Elo rating,
and per pairing the verdict, wall time and games/s. ``--url`` (default) runs it on the
simulation workers of a running service, ``--local`` in a process pool of ``--jobs``; the
same seed gives the same numbers either way. ``--write-docs`` puts the tables into docs/bots.md.

    .venv/bin/python bench/bots.py --ladder --url http://127.0.0.1:8000 --games 400
    .venv/bin/python bench/bots.py --ladder --local --jobs 2 --ruleset hitchiker --bots random,heuristic
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import re
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(1, str(ROOT / "sdk"))

from rulehouse_sdk import Client, RulehouseError  # noqa: E402

from engine.core.registry import all_rulesets, get_ruleset  # noqa: E402
from engine.ladder import (  # noqa: E402
    Lineup,
    Outcome,
    games_per_lineup,
    lineups,
    pairing_summary,
    pairings,
    ruleset_ratings,
)
from engine.simulate import Tally, play_chunk, simulate  # noqa: E402

DOCS = ROOT / "docs" / "bots.md"
BEGIN_MARK = "<!-- ladder:begin -->"
END_MARK = "<!-- ladder:end -->"
LADDER_PLAYERS = 4
LADDER_GAMES = 400
SEARCH_LEVEL = re.compile(r"^mcts-(\d+)$")
#: What a runner's ``play`` gives: one outcome per lineup, and the rules version they were played under.
Played = tuple[list[Outcome], int]


class Runner(Protocol):
    #: where the games are played, said in the docs
    where: str

    def play(self, ruleset: str, players: int, seated: list[Lineup], games: int, seed: int) -> Played:
        """Games ``0 .. games - 1`` of seed ``seed`` for every lineup."""

    def close(self) -> None: ...


# -- one table: a bot in seat 0 against random seats -------------------------------------


def heuristic_beats_random(stats: dict) -> bool:
    """True when seat 0's 95% interval lies above every other seat's."""
    low = stats["win_rate_ci95"][0][0]
    return all(low > high for _, high in stats["win_rate_ci95"][1:])


def single_table(args: argparse.Namespace) -> None:
    stats = simulate(args.ruleset, args.games or 2000, args.players, [args.bot, "random"], None, args.seed)
    for seat, bot in enumerate(stats["bots"]):
        low, high = stats["win_rate_ci95"][seat]
        print(f"seat {seat} {bot:10} wins {stats['wins'][seat]:>5}  rate {stats['win_rates'][seat]:.3f}"
              f"  95% CI [{low:.3f}, {high:.3f}]")
    turns = stats["turns"]
    print(f"draws {stats['draws']}, turn-cap hits {stats['turn_cap_hits']}, "
          f"turns median {turns['median']} p90 {turns['p90']} max {turns['max']}, {stats['games_per_s']} games/s")
    verdict = "above" if heuristic_beats_random(stats) else "NOT above"
    print(f"verdict: {args.bot} seat 0 is {verdict} every random seat (non-overlapping 95% CIs)")


# -- the ladder: where the games are played -------------------------------------------------


def outcome_of(bots: Sequence[str], tally_or_result: Tally | dict) -> Outcome:
    if isinstance(tally_or_result, Tally):
        return Outcome(tuple(bots), tally_or_result.games, tuple(tally_or_result.wins), tally_or_result.draws)
    result = tally_or_result
    return Outcome(tuple(result["bots"]), result["games"], tuple(result["wins"]), result["draws"])


class LocalRunner:
    """Plays each lineup as ``engine.simulate.play_chunk`` pieces in a pool of ``jobs`` processes
    (in this process when ``jobs`` is 1); pieces merge into exactly one simulation's numbers."""

    where = "in-process"

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs
        self.pool = ProcessPoolExecutor(jobs) if jobs > 1 else None
        if self.pool is not None:
            self.where = f"a local pool of {jobs} processes"

    def play(self, ruleset: str, players: int, seated: list[Lineup], games: int, seed: int) -> Played:
        # Enough pieces to keep every process busy, each still a run of consecutive games.
        pieces = max(1, math.ceil(2 * self.jobs / len(seated)))
        size = math.ceil(games / pieces)
        tallies = []
        for lineup in seated:
            work = [(ruleset, players, list(lineup.bots), None, seed, start, min(size, games - start))
                    for start in range(0, games, size)]
            if self.pool is None:
                tallies.append([play_chunk(*piece) for piece in work])
            else:
                tallies.append([self.pool.submit(play_chunk, *piece) for piece in work])
        outcomes, version = [], 0
        for lineup, parts in zip(seated, tallies, strict=True):
            parts = [part if isinstance(part, Tally) else part.result() for part in parts]
            total = parts[0]
            for part in parts[1:]:
                total.merge(part)
            outcomes.append(outcome_of(lineup.bots, total))
            version = total.rules_version
        return outcomes, version

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)


class ServiceRunner:
    """Submits one simulation per lineup (``POST /v1/simulations``) and waits for them all."""

    def __init__(self, url: str, api_key: str | None = None, chunk_size: int | None = None,
                 poll_interval: float = 0.5) -> None:
        self.client = Client(url, api_key=api_key)
        self.chunk_size = chunk_size
        self.poll_interval = poll_interval
        self.where = f"the simulation workers of {url}"

    def play(self, ruleset: str, players: int, seated: list[Lineup], games: int, seed: int) -> Played:
        submitted: list[str] = []
        finished: set[str] = set()
        try:
            for lineup in seated:
                created = self.client.create_simulation(ruleset, games, players=players, bots=list(lineup.bots),
                                                        seed=seed, chunk_size=self.chunk_size)
                submitted.append(created["id"])
            results = []
            for sim_id in submitted:
                done = self.client.wait_for_simulation(sim_id, poll_interval=self.poll_interval)
                finished.add(sim_id)
                if done["status"] != "finished":
                    raise SystemExit(f"simulation {sim_id} ended {done['status']}")
                results.append(done["result"])
        except BaseException:
            self.cancel([sim_id for sim_id in submitted if sim_id not in finished])
            raise
        return [outcome_of(lineup.bots, result) for lineup, result in zip(seated, results, strict=True)], \
            results[0]["rules_version"]

    def cancel(self, sim_ids: list[str]) -> None:
        """Stop the simulations still running, as far as the service can be reached."""
        for sim_id in sim_ids:
            try:
                self.client.cancel_simulation(sim_id)
            except RulehouseError as error:
                print(f"could not cancel simulation {sim_id}: {error}", file=sys.stderr)

    def close(self) -> None:
        self.client.close()


# -- the ladder: what is played, and the figures ---------------------------------------------


def default_bots(ruleset: str) -> list[str]:
    """``random``, ``heuristic`` and the search levels the ruleset has, weakest level first."""
    names = get_ruleset(ruleset).bot_names()
    levels = sorted((name for name in names if SEARCH_LEVEL.match(name)),
                    key=lambda name: int(SEARCH_LEVEL.match(name).group(1)))
    return [name for name in ("random", "heuristic") if name in names] + levels


def run_ladder(runner: Runner, rulesets: Sequence[str], bots: Sequence[str] | None, games: int, seed: int,
               players: int = LADDER_PLAYERS, report: Callable[[str], None] | None = None,
               against: str | None = None, both_ways: bool = True) -> dict:
    """Every pairing of ``bots`` (default: ``default_bots``; only those against ``against`` if given) on
    each ruleset; the ladder as a dict."""
    per_lineup = games_per_lineup(games, players, both_ways)
    ladder = {"seed": seed, "players": players, "games_per_lineup": per_lineup, "both_ways": both_ways,
              "games_per_pairing": per_lineup * (2 if both_ways else 1) * players, "where": runner.where,
              "rulesets": []}
    for ruleset in rulesets:
        ruleset_bots = list(bots) if bots else default_bots(ruleset)
        every_outcome: list[Outcome] = []
        pairs = []
        version = 0
        for a, b in pairings(ruleset_bots, against):
            seated = lineups(a, b, players, both_ways)
            began = time.perf_counter()
            outcomes, version = runner.play(ruleset, players, seated, per_lineup, seed)
            seconds = time.perf_counter() - began
            every_outcome += outcomes
            summary = pairing_summary(a, b, outcomes)
            summary["seconds"] = round(seconds, 3)
            summary["games_per_s"] = round(summary["games"] / seconds, 1) if seconds > 0 else None
            summary["lineups"] = [
                {"bots": list(lineup.bots), "lone": lineup.lone, "seat": lineup.seat, "games": outcome.games,
                 "wins": list(outcome.wins), "draws": outcome.draws}
                for lineup, outcome in zip(seated, outcomes, strict=True)
            ]
            pairs.append(summary)
            if report is not None:
                report(f"{ruleset}: {a} vs {b}, {summary['games']} games in {seconds:.1f} s "
                       f"({summary['games_per_s']} games/s): {summary['verdict']}")
        ladder["rulesets"].append({"ruleset": ruleset, "rules_version": version, "bots": ruleset_ratings(
            ruleset_bots, every_outcome), "pairings": pairs})
    return ladder


def _ci(interval: Sequence[float]) -> str:
    return f"[{interval[0]:.3f}, {interval[1]:.3f}]"


def render(ladder: dict) -> str:
    """The ladder as Markdown: per ruleset its bots' table, then its pairings' table."""
    lines = []
    for entry in ladder["rulesets"]:
        lines += [f"### {entry['ruleset']} (rules version {entry['rules_version']})", "",
                  "| bot | seat-games | wins | win rate | 95% CI | Elo |", "|---|---:|---:|---:|---|---:|"]
        for bot in entry["bots"]:
            lines.append(f"| {bot['bot']} | {bot['seat_games']} | {bot['wins']} | {bot['win_rate']:.3f} "
                         f"| {_ci(bot['ci95'])} | {bot['elo']:+.0f} |")
        lines += ["", "| pairing | games | draws | A: win rate, 95% CI | B: win rate, 95% CI | verdict "
                      "| wall s | games/s |", "|---|---:|---:|---|---|---|---:|---:|"]
        for pair in entry["pairings"]:
            a, b = (pair["records"][bot] for bot in pair["bots"])
            lines.append(f"| {a['bot']} vs {b['bot']} | {pair['games']} | {pair['draws']} "
                         f"| {a['win_rate']:.3f} {_ci(a['ci95'])} | {b['win_rate']:.3f} {_ci(b['ci95'])} "
                         f"| {pair['verdict']} | {pair['seconds']:.1f} | {pair['games_per_s']} |")
        lines.append("")
    return "\n".join(lines)


def machine() -> str:
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            model = next(line.split(":", 1)[1].strip() for line in cpuinfo if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{os.cpu_count()} CPUs ({model}), Python {platform.python_version()}"


def ruleset_marks(ruleset: str) -> tuple[str, str]:
    return f"<!-- ladder:{ruleset}:begin -->", f"<!-- ladder:{ruleset}:end -->"


def docs_blocks(ladder: dict, command: str, date: str, load: tuple[float, float], seconds: float) -> dict[str, str]:
    """Per ruleset, its section of the ladder in docs/bots.md, saying how it was measured."""
    one_way = "" if ladder.get("both_ways", True) else "; only the second bot of a pairing alone among the first"
    measured = (
        f"Measured {date} with `{command}`: seed {ladder['seed']}, {ladder['players']} players, "
        f"{ladder['games_per_pairing']} games per pairing ({ladder['games_per_lineup']} per lineup{one_way}), "
        f"played on {ladder['where']}; {machine()}; load average {load[0]:.2f} at the start and "
        f"{load[1]:.2f} at the end; {seconds:.0f} s in all."
    )
    blocks = {}
    for entry in ladder["rulesets"]:
        begin, end = ruleset_marks(entry["ruleset"])
        blocks[entry["ruleset"]] = "\n".join([begin, render({"rulesets": [entry]}).rstrip(), "", measured, end])
    return blocks


def write_docs(blocks: dict[str, str], path: Path = DOCS) -> None:
    """Each ruleset's section replaces its earlier one (a new ruleset's goes last), so one ruleset's ladder
    can be measured again alone."""
    text = path.read_text()
    if BEGIN_MARK not in text or END_MARK not in text:
        raise SystemExit(f"{path} has no {BEGIN_MARK} ... {END_MARK} section to write the ladder into")
    for ruleset, block in blocks.items():
        begin, end = ruleset_marks(ruleset)
        if begin in text and end in text:
            before, rest = text.split(begin, 1)
            text = before + block + rest.split(end, 1)[1]
        else:
            before, after = text.split(END_MARK, 1)
            text = before + block + "\n\n" + END_MARK + after
    path.write_text(text)


def ladder_main(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    rulesets = args.ruleset or list(all_rulesets())
    bots = [name.strip() for name in args.bots.split(",") if name.strip()] if args.bots else None
    for ruleset in rulesets:
        if ruleset not in all_rulesets():
            parser.error(f"no ruleset {ruleset!r}; there are {', '.join(all_rulesets())}")
        chosen = bots or default_bots(ruleset)
        unknown = sorted(set(chosen) - set(get_ruleset(ruleset).bot_names()))
        if unknown:
            has = ", ".join(get_ruleset(ruleset).bot_names())
            parser.error(f"{ruleset} has no bot {', '.join(unknown)}; it has {has}")
        if len(set(chosen)) != len(chosen) or len(chosen) < 2:
            parser.error("--bots names at least two different bots")
        if args.against and args.against not in chosen:
            parser.error(f"--against {args.against} is not among the bots {', '.join(chosen)}")
    runner = LocalRunner(args.jobs) if args.local else ServiceRunner(args.url, args.api_key, args.chunk_size)
    load_before = os.getloadavg()[0]
    began = time.perf_counter()
    try:
        ladder = run_ladder(runner, rulesets, bots, args.games or LADDER_GAMES, args.seed, args.players,
                            report=lambda line: print(line, file=sys.stderr, flush=True),
                            against=args.against, both_ways=not args.lone_only)
    except RulehouseError as error:
        raise SystemExit(f"{runner.where}: {error}") from None
    finally:
        runner.close()
    seconds = time.perf_counter() - began
    if args.json:
        print(json.dumps(ladder, indent=2))
    else:
        print(render(ladder))
    if args.write_docs:
        command = shlex.join([".venv/bin/python", "bench/bots.py", *sys.argv[1:]])
        date = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
        write_docs(docs_blocks(ladder, command, date, (load_before, os.getloadavg()[0]), seconds))
        print(f"wrote the ladder into {DOCS.relative_to(ROOT)}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("ruleset", nargs="?", help="one table: the ruleset")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, help=f"one table: games (2000); ladder: games per pairing "
                                                  f"({LADDER_GAMES}), rounded up to a multiple of 2 x players")
    parser.add_argument("--bot", default="heuristic", help="one table: seat 0's bot")
    parser.add_argument("--seed", type=int, default=2026)
    ladder = parser.add_argument_group("ladder")
    ladder.add_argument("--ladder", action="store_true", help="every pairing of bots head to head")
    ladder.add_argument("--ruleset", dest="ruleset_list", action="append", metavar="RULESET",
                        help="a ruleset to ladder (repeatable; default every ruleset)")
    ladder.add_argument("--bots", help="comma-separated bots (default random, heuristic and the search levels)")
    ladder.add_argument("--against", metavar="BOT", help="only the pairings of this bot against each other one")
    ladder.add_argument("--lone-only", action="store_true",
                        help="each pairing (A, B) plays only B alone among A's (a costly B in one seat a game)")
    ladder.add_argument("--local", action="store_true", help="play in local processes, not on a service")
    ladder.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="--local: processes")
    ladder.add_argument("--url", default="http://127.0.0.1:8000", help="the service whose workers play")
    ladder.add_argument("--api-key", help="the app key the service asks for, if any")
    ladder.add_argument("--chunk-size", type=int, help="games per worker job (default: the service's)")
    ladder.add_argument("--json", action="store_true", help="print the ladder as JSON instead of tables")
    ladder.add_argument("--write-docs", action="store_true", help="write the tables into docs/bots.md")
    args = parser.parse_args(argv)
    if args.games is not None and args.games < 1:
        parser.error("--games must be at least 1")
    if args.ladder:
        if args.ruleset:
            parser.error("the ladder takes its rulesets from --ruleset")
        if args.jobs < 1:
            parser.error("--jobs must be at least 1")
        args.ruleset = args.ruleset_list
        ladder_main(args, parser)
    elif args.ruleset is None:
        parser.error("name a ruleset, or run the ladder with --ladder")
    else:
        single_table(args)


if __name__ == "__main__":
    main()
