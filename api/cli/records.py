"""``rulehouse rulesets``, ``replay`` and ``analyse``: the games this service referees and the records it writes,
read without Redis."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine.core.registry import all_rulesets
from engine.records import RecordError, replay


def cmd_rulesets(args: argparse.Namespace) -> int:
    for ruleset in all_rulesets().values():
        print(f"{ruleset.id:16} {ruleset.title} ({ruleset.min_players}-{ruleset.max_players} players, "
              f"rules version {ruleset.rules_version})")
    return 0


#: What ``_read_record`` gives for a record it cannot read (a record may be JSON ``null``).
UNREADABLE = object()


def _read_record(where: str) -> object:
    """The JSON record in the file ``where`` (``-``: standard input), or ``UNREADABLE`` once it has
    said on stderr why it cannot be read."""
    try:
        text = sys.stdin.read() if where == "-" else Path(where).read_text()
        return json.loads(text)
    except (OSError, ValueError) as error:
        print(f"cannot read {where}: {error}", file=sys.stderr)
        return UNREADABLE


def _say_record_error(doing: str, error: RecordError) -> None:
    """Tell on stderr why a record cannot be ``doing`` (replayed, analysed), field by field."""
    print(f"cannot {doing}: {error.message} ({error.reason})", file=sys.stderr)
    for field, problem in error.fields.items():
        print(f"  {field}: {problem}", file=sys.stderr)


def cmd_replay(args: argparse.Namespace) -> int:
    """Check a record: 0 when it replays to its events and result and its seed commitment holds,
    1 when it diverges (saying where), 2 when it cannot be replayed at all."""
    data = _read_record(args.record)
    if data is UNREADABLE:
        return 2
    try:
        outcome = replay(data)
    except RecordError as error:
        _say_record_error("replay", error)
        return 2
    entries = len(outcome.entry_events)
    if args.json:
        print(json.dumps({"ok": outcome.ok, "entries": entries, "commitment_ok": outcome.commitment_ok,
                          "divergence": None if outcome.divergence is None else outcome.divergence.to_dict(),
                          "result": outcome.result}))
    divergence = outcome.divergence
    if divergence is not None:
        where = "the setup" if divergence.index < 0 else f"log entry {divergence.index}"
        if divergence.index >= 0 and divergence.version is not None:
            where += f" (version {divergence.version}, seat {divergence.seat}, action {json.dumps(divergence.action)})"
        print(f"diverged at {where}: {divergence.reason}: {divergence.message}", file=sys.stderr)
    if outcome.commitment_ok is False:
        print("the seed and salt do not match the seed commitment", file=sys.stderr)
    if not outcome.ok:
        return 1
    if not args.json:
        commitment = {True: "seed commitment checked", None: "no seed commitment to check"}[outcome.commitment_ok]
        result = outcome.result
        said = "game not over" if result is None else (
            f"winners {result['winners']} ({result['reason']}), scores {result['scores']}")
        print(f"ok: {data.get('ruleset')}, {entries} log entries replayed; {said}; {commitment}")
    return 0


def cmd_analyse(args: argparse.Namespace) -> int:
    """Analyse a finished game's record (docs/analysis.md, "Game analysis"): 0 with the analysis, 2
    when the record cannot be analysed (unreadable, malformed, diverging, unfinished), saying why."""
    # the analysis (its searches and win-chance model) only for this command
    from engine.analysis.game import analyse
    from engine.analysis.report import describe

    data = _read_record(args.record)
    if data is UNREADABLE:
        return 2
    try:
        analysis = analyse(data)
    except RecordError as error:
        _say_record_error("analyse", error)
        return 2
    print(json.dumps(analysis) if args.json else "\n".join(describe(analysis)))
    return 0


def add_rulesets_parser(sub) -> None:
    """``rulehouse rulesets``."""
    sub.add_parser("rulesets", help="list the rulesets").set_defaults(func=cmd_rulesets)


def add_replay_parser(sub) -> None:
    """``rulehouse replay``."""
    check = sub.add_parser("replay", help="check a game record (GET /v1/games/{id}/record): replay and commitment")
    check.add_argument("record", help="the record's JSON file, or - for standard input")
    check.add_argument("--json", action="store_true", help="print one JSON object")
    check.set_defaults(func=cmd_replay)


def add_analyse_parser(sub) -> None:
    """``rulehouse analyse``."""
    analysis = sub.add_parser("analyse", help="analyse a finished game's record: win chances, costly moves, "
                              "key moments, the luck-skill split")
    analysis.add_argument("record", help="the record's JSON file (GET /v1/games/{id}/record), or - for standard input")
    analysis.add_argument("--json", action="store_true", help="print the whole analysis as one JSON object")
    analysis.set_defaults(func=cmd_analyse)
