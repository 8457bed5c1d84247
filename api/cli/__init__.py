"""The ``rulehouse`` command line: one module per group of commands, put together here.

- ``records``: ``rulesets``, ``replay``, ``analyse``;
- ``simulate``: ``simulate``, ``train-values``;
- ``processes``: ``serve``, ``worker``, ``health``;
- ``apps``, ``competition`` (``tourney``, ``ratings``, ``player``), ``experiments``: the commands of those rooms;
- ``support``: what they share (Redis's URL, HTTP calls to a running service, waiting on a run).

Each command imports what only it needs inside its own function (the worker, the embedded Redis,
matplotlib, numpy, the analysis): ``rulehouse --help`` and the light commands start without them. Redis's
client and RQ are not among them: the runs' store and the wait for Redis that every group shares load them.
"""

from __future__ import annotations

import argparse
import sys

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from api.cli import apps, competition, experiments, processes, records, simulate
from api.cli.support import Unreachable

#: What ``rulehouse --help`` says above and below the commands (the module docstring is for readers of the code).
DESCRIPTION = """Rulehouse: rules-as-a-service for money board games.
Referees games over HTTP, plays bot seats, runs bulk simulations and checks game records."""
EPILOG = """examples:
  rulehouse serve              the API on http://127.0.0.1:8000 and its workers
                               (an embedded Redis when REDIS_URL is unset)
  rulehouse rulesets           the games this service referees
  rulehouse simulate whipcash --games 500 --players 4 --bots heuristic,random
  rulehouse replay game.json   check a record of GET /v1/games/{id}/record
  rulehouse tourney create cash-n-guns --format swiss --table-size 4 --entrants ann,bob,...
  rulehouse ratings cash-n-guns  an app's leaderboard (--url, --key or $RULEHOUSE_API_KEY)
  rulehouse experiment monopoly-cars2 --sweep starting_money=10,13,16 --games 2000
                               compare house rules on the same seeds (on the workers)

`rulehouse COMMAND --help` describes each command. Docs: README.md and docs/ in the project."""


class CommandHelpFormatter(argparse.RawDescriptionHelpFormatter):
    """argparse measures the command names one indent short of where it prints them, so a name as
    long as ``experiment`` would push its help to the next line: measure them where they print."""

    def add_argument(self, action: argparse.Action) -> None:
        super().add_argument(action)
        if action.help is not argparse.SUPPRESS and hasattr(action, "_get_subactions"):
            longest = max((len(self._format_action_invocation(sub)) for sub in action._get_subactions()), default=0)
            self._action_max_length = max(self._action_max_length,
                                          longest + self._current_indent + self._indent_increment)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rulehouse", description=DESCRIPTION, epilog=EPILOG,
                                     formatter_class=CommandHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    records.add_rulesets_parser(sub)
    simulate.add_simulate_parser(sub)
    simulate.add_train_values_parser(sub)
    processes.add_serve_parser(sub)
    processes.add_worker_parser(sub)
    records.add_replay_parser(sub)
    records.add_analyse_parser(sub)
    processes.add_health_parser(sub)
    apps.add_parser(sub).set_defaults(func=apps.cmd_apps)
    competition.add_parsers(sub)
    experiments.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except Unreachable as error:
        print(f"rulehouse: {error}", file=sys.stderr)
    except (RedisConnectionError, RedisTimeoutError) as error:
        print(f"rulehouse: cannot reach Redis: {error}", file=sys.stderr)
    return 1
