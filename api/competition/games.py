"""Named players at games: what a game's creation indexes, when a seat has left, and what a finished
rated game changes in its players' ratings (docs/competition.md)."""

from __future__ import annotations

import json
import logging
import time
from collections import defaultdict

from api.apps.notify import hooks
from api.competition import player_lists
from api.competition.player_store import player_store
from api.competition.tournament_store import tournament_store
from api.play.game_record import ACTIVE, FINISHED, WAITING, GameRecord
from api.play.store import GameStore
from engine.competition import Rating, ranks_from_result, rate
from engine.core.registry import get_ruleset

log = logging.getLogger("rulehouse.competition")

#: A seat whose last this many decisions in a row were defaults played at its deadline has left.
LEFT_AFTER_TIMEOUTS = 3
#: The sweep looks at a rated game waiting for its rating again this long after its last look (the move
#: that finishes a game rates it at once: the sweep is for a finish whose process died before rating it).
RATING_RECHECK_SECONDS = 20
#: Pending games claimed at a time, and at most so many batches in one sweep (the rest come next).
SWEEP_BATCH, SWEEP_BATCHES = 200, 20
TIMED_OUT = "timed_out"
#: Seconds per decision of a rated game created without ``decision_timeout`` (and of a tournament's
#: games): a losing player who stops moving cannot keep a rated game unrated until it expires.
RATED_DECISION_TIMEOUT = 120


def seat_player(seat: dict) -> str | None:
    """The player id of a stored seat: the app's, else ``bot:<bot>`` for a bot seat, else None."""
    return seat.get("player") or (f"bot:{seat['bot']}" if seat.get("bot") else None)


def rated_game_problems(data: dict) -> dict:
    """What keeps a ``POST /v1/games`` body from being a rated game, by field (empty: nothing)."""
    problems: dict = {}
    if data.get("fork") is not None:
        problems["rated"] = ["a fork is never rated"]
    if data.get("decision_timeout") is None:
        problems["decision_timeout"] = [f"a rated game has a decision deadline: send seconds, or leave it out for "
                                        f"{RATED_DECISION_TIMEOUT}"]
    if data.get("hints"):
        problems["hints"] = ["a rated game is played without hints"]
    if data.get("win_chances", "seats") != "seats":
        problems["win_chances"] = ["a rated game is played without live win chances"]
    seats: dict = {}
    seen: dict[str, int] = {}
    for number, seat in enumerate(data.get("seats") or []):
        if seat["open"]:
            seats[str(number)] = {"open": ["a rated game has no open seats"]}
            continue
        player = seat["player"] or (f"bot:{seat['bot']}" if seat["bot"] else None)
        if player is None:
            seats[str(number)] = {"player": ["a rated game names every seat's player (or seats a bot)"]}
        elif player in seen:
            seats[str(number)] = {"player": [f"{player} sits at seat {seen[player]} already; a second seat of "
                                             "the same bot needs its own bot:<bot>#<tag>"]}
        else:
            seen[player] = number
    if seats:
        problems["seats"] = seats
    return problems


def game_created(store: GameStore, app_id: str, game_id: str, seats: list[dict], rated: bool,
                 created: float | None = None) -> None:
    """Index a new game under each of its named players (and queue its rating when it is rated)."""
    created = time.time() if created is None else created
    seated = [(number, player) for number, seat in enumerate(seats) if (player := seat_player(seat)) is not None]
    # rated: due-time index (api/competition/due.py), the sweep first looks at it a little later
    player_store(store).index_game(app_id, game_id, seated, created, look_again=player_lists.recheck_after(store),
                                   rating_due=created + RATING_RECHECK_SECONDS if rated else None)


def player_joined(store: GameStore, app_id: str, game_id: str, seat: int, player: str) -> None:
    """Index a game under a player who joined it (``POST /v1/games/{id}/join`` with ``player``)."""
    player_store(store).index_game(app_id, game_id, [(seat, player)], time.time(),
                                   look_again=player_lists.recheck_after(store))


def game_forgotten(store: GameStore, app_id: str, game_id: str, seats: list[dict]) -> None:
    """A deleted game leaves its players' indexes (a player whose last game it was leaves with it, and its place
    in rated_players, unless it has a rating) and the queue of games to rate; what it counted in ratings, if it
    was rated, stays."""
    players = {seat_player(seat): number for number, seat in enumerate(seats) if seat_player(seat) is not None}
    player_store(store).forget_game(app_id, game_id, players)
    for player in players:
        player_lists.forget_if_empty(store, app_id, player)


def seats_left(store: GameStore, record: GameRecord) -> set[int]:
    """The seats that left the game (docs/competition.md, "Leaving"): handed to a bot while it ran (a
    named player's seat now played by a bot), or whose last ``LEFT_AFTER_TIMEOUTS`` decisions in a row
    were defaults played at the deadline."""
    left = {number for number, seat in enumerate(record.seats)
            if seat.get("bot") and seat.get("player") and not seat["player"].startswith("bot:")}
    actor: dict[int, int] = {}
    defaulted: set[int] = set()
    for kind, version, data in store.log(record.id):
        if kind == "a":
            actor[version] = data["seat"]  # the action's entry comes before its events
        elif data.get("type") == TIMED_OUT and actor.get(version) == data.get("seat"):
            defaulted.add(version)
    streak: dict[int, int] = defaultdict(int)
    for version in sorted(actor):
        seat = actor[version]
        streak[seat] = streak[seat] + 1 if version in defaulted else 0
    return left | {seat for seat, count in streak.items() if count >= LEFT_AFTER_TIMEOUTS}


def final_ranks(store: GameStore, record: GameRecord) -> list[int] | None:
    """The places of a finished game's seats (leavers last), or None when it cannot be read (its rules
    version changed since)."""
    ruleset = get_ruleset(record.ruleset)
    if record.rules_version != ruleset.rules_version:
        return None
    result = ruleset.result(ruleset.from_dict(json.loads(record.state)))
    if result is None:
        return None
    return ranks_from_result(result.to_dict(), seats_left(store, record))


def rate_game(store: GameStore, app_id: str, game_id: str) -> str:
    """Rate a finished rated game once; says what happened: ``rated``, ``done`` (counted before),
    ``running``, ``closed``, ``gone`` or ``unrated``. The ratings, the leaderboard, the players' results
    and the mark that the game counted change in one transaction. A table of a duplicate round that has
    not ended (``closed``) waits: its place would tell the round's other tables of their deals, so
    ratings, the leaderboard, results and ``rating.updated`` show it only once the round ends (the round's
    end rates it)."""
    players_store = player_store(store)
    record = store.load(game_id)
    if record is None or not record.rated:
        players_store.leave_pending(app_id, game_id)
        return "gone" if record is None else "unrated"
    if record.status != FINISHED:
        return "running"
    if tournament_store(store).closed_by(game_id) is not None:
        return "closed"
    ranks = final_ranks(store, record)
    if ranks is None:
        players_store.leave_pending(app_id, game_id)
        log.warning("rated game %s of %s could not be read under today's rules: not rated", game_id, app_id)
        return "unrated"
    players = [seat_player(seat) for seat in record.seats]
    before: list[Rating] = []
    after: list[Rating] = []

    def rated(stored: list[dict | None]) -> list[tuple[dict, float, dict]]:
        before[:] = [Rating(entry["mu"], entry["sigma"]) if entry else Rating() for entry in stored]
        after[:] = rate(before, ranks)
        now = time.time()
        return [({"mu": after[seat].mu, "sigma": after[seat].sigma, "games": (stored[seat] or {}).get("games", 0) + 1},
                 after[seat].ordinal,
                 {"game": game_id, "ruleset": record.ruleset, "seat": seat, "place": ranks[seat],
                  "players": len(players), "tournament": record.tournament, "finished": now,
                  "before": before[seat].to_dict(), "after": after[seat].to_dict()})
                for seat in range(len(players))]

    if not players_store.rate(app_id, game_id, record.ruleset, players, rated):
        return "done"
    _tell_rated(app_id, game_id, record.ruleset, players, ranks, before, after)
    return "rated"


def _tell_rated(app_id: str, game_id: str, ruleset: str, players: list, ranks: list[int], before: list[Rating],
                after: list[Rating]) -> None:
    try:
        hooks().emit(app_id, "rating.updated", {"game": game_id, "ruleset": ruleset, "players": [
            {"player": player, "seat": seat, "place": ranks[seat], "before": before[seat].to_dict(),
             "after": after[seat].to_dict()} for seat, player in enumerate(players)]})
    except Exception:  # a webhook must never undo a rating that is stored
        log.exception("rating.updated webhook for game %s failed", game_id)


def sweep(store: GameStore) -> int:
    """Rate the rated games that finished without their last move rating them (a process died between
    the two); the number rated. Every pending game is looked at when it is due (``api.competition.due``:
    again ``RATING_RECHECK_SECONDS`` after each look), however many other apps' games wait."""
    return player_store(store).drain_pending(lambda members: _rate_due(store, members), batch=SWEEP_BATCH,
                                             recheck=RATING_RECHECK_SECONDS, max_batches=SWEEP_BATCHES)


def _rate_due(store: GameStore, members: list[str]) -> int:
    """Rate those of ``members`` (``<app> <game>``) that are no longer running; one status read for all."""
    pairs = [member.partition(" ")[::2] for member in members]
    statuses = store.statuses([game_id for _, game_id in pairs])
    rated = 0
    for (app_id, game_id), status in zip(pairs, statuses, strict=True):
        if status in (ACTIVE, WAITING):
            continue  # still playing: claimed, it comes round again later
        try:
            rated += rate_game(store, app_id, game_id) == "rated"
        except Exception:
            log.exception("rating game %s failed", game_id)
    return rated
