"""Named players at games: what a game's creation indexes, when a seat has left, and what a finished
rated game changes in its players' ratings (docs/competition.md)."""

from __future__ import annotations

import json
import logging
import time
from collections import defaultdict

import redis

from api.apps.notify import hooks
from api.competition import due, player_lists, rated_players
from api.competition.competition_keys import (
    PENDING_KEY,
    board_key,
    closed_key,
    player_games_key,
    player_results_key,
    rated_game_key,
    ratings_key,
)
from api.play.game_record import ACTIVE, FINISHED, WAITING, GameRecord
from api.play.store import GameStore
from engine.competition import Rating, ranks_from_result, rate
from engine.core.registry import get_ruleset

log = logging.getLogger("rulehouse.competition")

#: A seat whose last this many decisions in a row were defaults played at its deadline has left.
LEFT_AFTER_TIMEOUTS = 3
#: The latest rated results kept per player (``GET /v1/players/{id}``).
RESULTS_KEPT = 20
#: A player's index (games, results) lives this long after its last write.
INDEX_TTL = 400 * 24 * 3600
#: A player's games index keeps its newest this many (a bot of a busy app sits at every game).
GAMES_INDEXED = 10_000
#: How long the mark that a game was rated is kept (longer than any game is).
RATED_MARK_TTL = 120 * 24 * 3600
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
    pipe = store.control.pipeline(transaction=False)
    for number, seat in enumerate(seats):
        player = seat_player(seat)
        if player is not None:
            _index(pipe, store, app_id, game_id, number, player, created)
    if rated:  # due-time index (api/competition/due.py): the sweep first looks at it a little later
        pipe.zadd(PENDING_KEY, {f"{app_id} {game_id}": created + RATING_RECHECK_SECONDS})
        # Its players count in rated_players while it is indexed, whatever let them go since the request's take.
        rated_players.hold_indexed(pipe, app_id, [player for seat in seats if (player := seat_player(seat))])
    pipe.execute()


def player_joined(store: GameStore, app_id: str, game_id: str, seat: int, player: str) -> None:
    """Index a game under a player who joined it (``POST /v1/games/{id}/join`` with ``player``)."""
    pipe = store.control.pipeline(transaction=False)
    _index(pipe, store, app_id, game_id, seat, player, time.time())
    pipe.execute()


def _index(pipe, store: GameStore, app_id: str, game_id: str, seat: int, player: str, created: float) -> None:
    pipe.zadd(player_games_key(app_id, player), {f"{game_id}:{seat}": created})
    player_lists.schedule(pipe, store, app_id, player, created)  # looked at again once the game may be gone
    pipe.zremrangebyrank(player_games_key(app_id, player), 0, -GAMES_INDEXED - 1)
    pipe.expire(player_games_key(app_id, player), INDEX_TTL)


def game_forgotten(store: GameStore, app_id: str, game_id: str, seats: list[dict]) -> None:
    """A deleted game leaves its players' indexes (a player whose last game it was leaves with it, and its place
    in rated_players, unless it has a rating) and the queue of games to rate; what it counted in ratings, if it
    was rated, stays."""
    players = {seat_player(seat): number for number, seat in enumerate(seats) if seat_player(seat) is not None}
    pipe = store.control.pipeline(transaction=False)
    for player, number in players.items():
        pipe.zrem(player_games_key(app_id, player), f"{game_id}:{number}")
    pipe.zrem(PENDING_KEY, f"{app_id} {game_id}")
    pipe.delete(rated_game_key(app_id, game_id))  # no game left to rate twice
    pipe.execute()
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
    member = f"{app_id} {game_id}"
    record = store.load(game_id)
    if record is None or not record.rated:
        store.control.zrem(PENDING_KEY, member)
        return "gone" if record is None else "unrated"
    if record.status != FINISHED:
        return "running"
    if store.control.exists(closed_key(game_id)):
        return "closed"
    ranks = final_ranks(store, record)
    if ranks is None:
        store.control.zrem(PENDING_KEY, member)
        log.warning("rated game %s of %s could not be read under today's rules: not rated", game_id, app_id)
        return "unrated"
    players = [seat_player(seat) for seat in record.seats]
    ratings, board, done = ratings_key(app_id, record.ruleset), board_key(app_id, record.ruleset), \
        rated_game_key(app_id, game_id)
    with store.control.pipeline(transaction=True) as pipe:
        while True:
            try:
                pipe.watch(ratings, done)
                if pipe.exists(done):
                    pipe.unwatch()
                    store.control.zrem(PENDING_KEY, member)
                    return "done"
                stored = [json.loads(value) if value else None for value in pipe.hmget(ratings, players)]
                before = [Rating(entry["mu"], entry["sigma"]) if entry else Rating() for entry in stored]
                after = rate(before, ranks)
                pipe.multi()
                now = time.time()
                for seat, player in enumerate(players):
                    games = (stored[seat] or {}).get("games", 0) + 1
                    pipe.hset(ratings, player, json.dumps({"mu": after[seat].mu, "sigma": after[seat].sigma,
                                                           "games": games}))
                    pipe.zadd(board, {player: after[seat].ordinal})
                    result = {"game": game_id, "ruleset": record.ruleset, "seat": seat, "place": ranks[seat],
                              "players": len(players), "tournament": record.tournament, "finished": now,
                              "before": before[seat].to_dict(), "after": after[seat].to_dict()}
                    pipe.lpush(player_results_key(app_id, player), json.dumps(result))
                    pipe.ltrim(player_results_key(app_id, player), 0, RESULTS_KEPT - 1)
                    pipe.expire(player_results_key(app_id, player), INDEX_TTL)
                pipe.set(done, "1", ex=RATED_MARK_TTL)
                pipe.zrem(PENDING_KEY, member)
                pipe.execute()
                break
            except redis.WatchError:
                continue  # another game of the ruleset was rated meanwhile: read the ratings again
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
    return due.drain(store.control, PENDING_KEY, lambda members: _rate_due(store, members), batch=SWEEP_BATCH,
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
