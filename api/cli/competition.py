"""``rulehouse tourney``, ``rulehouse ratings`` and ``rulehouse player``: an app's tournaments,
leaderboards and players on a running service, over HTTP (docs/competition.md)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from urllib.parse import quote

from api.cli.support import DEFAULT_URL, RequestRefused, http_json, page_address
from api.ground.config import setting


def add_parsers(sub) -> None:
    """The three commands, each with ``--url`` and ``--key`` (default ``$RULEHOUSE_API_KEY``)."""
    tournaments = sub.add_parser("tourney", help="create and follow tournaments on a running service")
    commands = tournaments.add_subparsers(dest="tournaments_command", required=True)
    create = commands.add_parser("create", help="a new tournament (POST /v1/tournaments)")
    create.add_argument("ruleset")
    create.add_argument("--format", required=True, choices=("round_robin", "swiss", "duplicate"))
    create.add_argument("--table-size", type=int, required=True)
    create.add_argument("--entrants", required=True, help="comma-separated player ids and bot:<bot>[#<tag>]")
    create.add_argument("--rounds", type=int)
    create.add_argument("--decision-timeout", type=int)
    create.add_argument("--options", help="the games' options as a JSON object")
    create.add_argument("--rated", action="store_true", help="rate every game")
    create.add_argument("--seed", type=int)
    show = commands.add_parser("show", help="a tournament's standings and rounds (GET /v1/tournaments/{id})")
    show.add_argument("tournament")
    commands.add_parser("list", help="the app's tournaments")
    ratings = sub.add_parser("ratings", help="the app's leaderboard of a ruleset (GET /v1/ratings/{ruleset})")
    ratings.add_argument("ruleset")
    ratings.add_argument("--limit", type=int, default=20)
    player = sub.add_parser("player", help="a player's ratings and recent results (GET /v1/players/{id})")
    player.add_argument("player")
    for parser in (create, show, commands.choices["list"], ratings, player):
        parser.add_argument("--url", default=DEFAULT_URL, help=f"the service (default {DEFAULT_URL})")
        parser.add_argument("--key", default=None, help="the app's key (default $RULEHOUSE_API_KEY)")
        parser.add_argument("--json", action="store_true", help="print the answer's JSON")
    tournaments.set_defaults(func=run_tournaments)
    ratings.set_defaults(func=run_ratings)
    player.set_defaults(func=run_player)


def _call(args: argparse.Namespace, method: str, path: str, body: dict | None = None) -> dict | None:
    try:
        return http_json(args.url, method, path, body, api_key=args.key or setting("API_KEY"))
    except RequestRefused as error:
        print(f"rulehouse: {error}", file=sys.stderr)
        return None


def _print_answer(args: argparse.Namespace, answer: dict | None, print_text: Callable[[dict], None]) -> int:
    """The exit status of a command given the service's ``answer`` (``None``: refused, already said),
    printed as its JSON with ``--json``, else by ``print_text``."""
    if answer is None:
        return 2
    if args.json:
        print(json.dumps(answer))
    else:
        print_text(answer)
    return 0


def run_tournaments(args: argparse.Namespace) -> int:
    if args.tournaments_command == "create":
        body = {"ruleset": args.ruleset, "format": args.format, "table_size": args.table_size,
                "entrants": [e.strip() for e in args.entrants.split(",") if e.strip()], "rated": args.rated}
        for name in ("rounds", "decision_timeout", "seed"):
            if getattr(args, name) is not None:
                body[name] = getattr(args, name)
        if args.options:
            body["options"] = json.loads(args.options)
        return _print_answer(args, _call(args, "POST", "/v1/tournaments", body),
                             lambda made: print_tournament(made, page=page_address(args.url, tournament_page(made))))
    if args.tournaments_command == "show":
        answer = _call(args, "GET", f"/v1/tournaments/{quote(args.tournament, safe='')}")
        return _print_answer(args, answer, print_tournament)
    return _print_answer(args, _call(args, "GET", "/v1/tournaments"), print_tournament_list)


def print_tournament_list(answer: dict) -> None:
    for entry in answer["tournaments"]:
        print(f"{entry['id']}  {entry['ruleset']:<15} {entry['format']:<11} {entry['status']:<9} "
              f"round {entry['round'] + 1}/{entry['rounds']}")


def tournament_page(tournament: dict) -> str:
    return f"/tournament/{quote(tournament['id'], safe='')}"


def print_tournament(tournament: dict, page: str | None = None) -> None:
    """Its standings and rounds; a new tournament's ``page`` (its web page's address) under its first line."""
    print(f"{tournament['id']}: {tournament['format']} of {tournament['ruleset']}, {tournament['status']}, "
          f"round {tournament['round'] + 1} of {tournament['rounds']}")
    if page:
        print(f"page: {page}")
    duplicate = tournament["format"] == "duplicate"
    print(f"{'place':>5}  {'entrant':<24} {'points':>7} {'wins':>5} {'opposition':>10}"
          + (f" {'matchpoints':>11}" if duplicate else ""))
    for s in tournament["standings"]:
        print(f"{s['place']:>5}  {s['entrant']:<24} {s['points']:>7.1f} {s['wins']:>5} {s['opposition']:>10.2f}"
              + (f" {s['matchpoints']:>11.1f}" if duplicate else ""))
    for played in tournament["played"]:
        state = "ended" if played["finished"] else "running"
        print(f"round {played['round'] + 1} ({state}):")
        for table in played["tables"]:
            places = table["ranks"] or ["-"] * len(table["entrants"])
            seats = ", ".join(f"{entrant} ({place})" for entrant, place in zip(table["entrants"], places, strict=True))
            print(f"  {table['game']}: {seats}")


def run_ratings(args: argparse.Namespace) -> int:
    answer = _call(args, "GET", f"/v1/ratings/{quote(args.ruleset, safe='')}?limit={args.limit}")
    return _print_answer(args, answer, print_ratings)


def print_ratings(answer: dict) -> None:
    print(f"{'place':>5}  {'player':<24} {'ordinal':>8} {'mu':>7} {'sigma':>6} {'games':>6}")
    for entry in answer["ratings"]:
        print(f"{entry['place']:>5}  {entry['player']:<24} {entry['ordinal']:>8.2f} {entry['mu']:>7.2f} "
              f"{entry['sigma']:>6.2f} {entry['games']:>6}")


def run_player(args: argparse.Namespace) -> int:
    return _print_answer(args, _call(args, "GET", f"/v1/players/{quote(args.player, safe='')}"), print_player)


def print_player(answer: dict) -> None:
    print(f"{answer['player']}: {answer['games_played']} game(s) kept")
    for rating in answer["ratings"]:
        print(f"  {rating['ruleset']:<15} ordinal {rating['ordinal']:.2f} (mu {rating['mu']:.2f}, sigma "
              f"{rating['sigma']:.2f}), {rating['games']} rated game(s), place {rating['place']}")
    for result in answer["recent"]:
        print(f"  {result['finished']}  {result['ruleset']:<15} place {result['place']} of {result['players']}  "
              f"game {result['game']}")
