"""Seat changes of a stored game: join, leave, start, hand a seat to a bot, and the lobby.

A seat is ``{"name": str | None, "bot": str | None, "player": str | None}`` (``player``: the app's id of
who sits there, docs/competition.md); an open seat has none. A game with
open seats is ``waiting``: it has no state yet, and its setup runs when it starts (when the
last seat is filled, or early by the creator). Invites are stored like tokens, by digest:
``i:<sha256>`` names a seat number, or ``game`` for the per-game invite of a ruleset that
seats players mid-game (``Ruleset.joins_mid_game``; the join goes through ``Ruleset.seat_changed``).

Each change is one optimistic transaction on the game's hash (``WATCH``, read, ``MULTI``):
a move or another seat change in between makes it start over, so two people racing for the
last seat get one seat between them. Each change is a new version of the game and appends
a plain event (``seat_joined``, ``seat_left``, ``seat_removed``, ``seat_to_bot``,
``table_started``) to the event log, so records and streams see it like any move. The service's own
``abort`` (a cancelled tournament's games) is written the same way (``game_aborted``).
"""

from __future__ import annotations

import dataclasses
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from api.play.after import after_join, after_version
from api.play.errors import GameNotFound, KeptChanging, NotAllowed, SeatConflict, SeatNotFound, UnknownBot, UnknownToken
from api.play.game_keys import token_digest
from api.play.game_record import ABORTED, ACTIVE, FINISHED, OVER, WAITING, GameRecord
from api.play.moves import load_state
from api.play.preconditions import next_marks
from api.play.store import ChangedMeanwhile, GameStore
from engine.core.errors import IllegalAction, InvalidOptions
from engine.core.registry import get_ruleset

#: A change that keeps losing its race gives up after this many attempts (each loss is someone else's change).
MAX_ATTEMPTS = 50
GAME_INVITE = "game"
#: the event that ends an aborted game (``Table.abort``)
GAME_ABORTED = "game_aborted"


def is_open(seat: dict) -> bool:
    return seat["name"] is None and not seat.get("bot")


def new_secret() -> str:
    return secrets.token_urlsafe(24)


def conflict(reason: str, detail: str, version: int | None = None) -> SeatConflict:
    return SeatConflict(reason, detail, version)


@dataclass(slots=True)
class Change:
    """What one seat change writes: hash fields to set and to delete, events, and the new state."""

    seats: list[dict]
    events: list[dict]
    state: object | None = None  # the game's state after the change (a started or joined game)
    status: str | None = None
    set_fields: dict[str, str] = field(default_factory=dict)
    del_fields: list[str] = field(default_factory=list)
    answer: dict = field(default_factory=dict)
    #: the number of players the game is set up with (changes only when a waiting game starts)
    players: int | None = None


class Table:
    """Seat changes on one store."""

    def __init__(self, store: GameStore) -> None:
        self.store = store

    # -- the changes ----------------------------------------------------------------

    def join(self, game_id: str, invite: str | None, name: str, player: str | None = None) -> tuple[dict, GameRecord]:
        """Seat ``name`` with ``invite`` (or, in a listed waiting game, without one): ``{"seat", "token"}``."""
        field_name = None if invite is None else f"i:{token_digest(invite)}"

        def change(record: GameRecord, invited: str | None) -> Change:
            if invite is not None and invited is None:
                raise NotAllowed("this invite is not one of this game's")
            if invite is None and not record.listed:
                raise NotAllowed("joining this game needs an invite (only a listed game takes anyone)")
            if invite is None and record.status != WAITING:
                raise conflict("table_full", "the game has started: its seats are all taken", record.version)
            token = new_secret()
            if record.status == WAITING:
                seat = self._open_seat(record, invited)
                seats = [dict(entry) for entry in record.seats]
                seats[seat] = {"name": name, "bot": None, "player": player}
                events = [joined_event(seat, name, player)]
                result = Change(seats, events, set_fields={f"t:{token_digest(token)}": str(seat)},
                                answer={"seat": seat, "token": token})
                if not any(is_open(entry) for entry in seats):
                    self._start(record, result, fill=None)
                return result
            if record.status in OVER:
                raise conflict("game_over", f"the game is {record.status}", record.version)
            if record.rated:
                raise conflict("no_mid_game_join", "a rated game takes no players once it has started",
                               record.version)
            return self._join_running(record, name, token, invited == GAME_INVITE, player)

        answer, written = self._change(game_id, change, extra_field=field_name)
        if player is not None:
            after_join(self.store, written, answer["seat"], player)
        return answer, written

    def leave(self, game_id: str, seat: int, token: str) -> GameRecord:
        """Reopen ``seat`` of a waiting game (its own token)."""

        def change(record: GameRecord, role: str | None) -> Change:
            self._own_seat(record, seat, role, creator_too=False)
            if record.status != WAITING:
                raise conflict("game_started", "the game has started: hand the seat to a bot instead",
                               record.version)
            seats = [dict(entry) for entry in record.seats]
            seats[seat] = {"name": None, "bot": None}
            return Change(seats, [{"type": "seat_left", "seat": seat, "name": record.seats[seat]["name"]}],
                          del_fields=[f"t:{token_digest(token)}"])

        return self._change(game_id, change, extra_field=f"t:{token_digest(token)}")[1]

    def to_bot(self, game_id: str, seat: int, token: str, bot: str) -> GameRecord:
        """Hand ``seat`` of a running game to ``bot`` (the seat's own token, or the creator's)."""

        def change(record: GameRecord, role: str | None) -> Change:
            self._own_seat(record, seat, role, creator_too=True)
            if record.status != ACTIVE:
                reason = "game_over" if record.status in OVER else "not_started"
                raise conflict(reason, "only a running game hands seats to bots (before the start, the "
                               "creator's start fills open seats with bots)", record.version)
            self._check_bot(record.ruleset, bot)
            if record.seats[seat].get("bot"):
                raise conflict("seat_is_bot", f"seat {seat} is played by a bot already", record.version)
            seats = [dict(entry) for entry in record.seats]
            # The seat keeps its player: a named player handed to a bot has left (docs/competition.md).
            seats[seat] = {**seats[seat], "bot": bot}
            # The seat's token stops acting: the bot plays the seat from now on.
            revoked = [name for name, value in self._tokens(record.id) if value == str(seat)]
            return Change(seats, [{"type": "seat_to_bot", "seat": seat, "name": seats[seat]["name"], "bot": bot}],
                          del_fields=revoked)

        return self._change(game_id, change, extra_field=f"t:{token_digest(token)}")[1]

    def start(self, game_id: str, token: str, fill: str, bot: str | None) -> GameRecord:
        """Start a waiting game early (creator token): open seats get ``bot`` or are removed."""

        def change(record: GameRecord, role: str | None) -> Change:
            if role != "creator":
                raise NotAllowed("only the creator token starts a game")
            if record.status != WAITING:
                raise conflict("already_started", "the game has started already", record.version)
            if fill == "bot":
                self._check_bot(record.ruleset, bot)
            result = Change([dict(entry) for entry in record.seats], [])
            self._start(record, result, fill=(fill, bot))
            return result

        return self._change(game_id, change, extra_field=f"t:{token_digest(token)}")[1]

    def abort(self, game_id: str, reason: str) -> GameRecord | None:
        """End a game that has not finished as ``aborted`` (the service's own act: a cancelled tournament's
        table): no result, no more moves, unrated, kept as long as a finished game with its log. None when
        the game is gone or over already."""

        def change(record: GameRecord, _role: str | None) -> Change:
            if record.status in OVER:
                raise conflict("game_over", f"the game is {record.status}", record.version)
            return Change([dict(seat) for seat in record.seats], [{"type": GAME_ABORTED, "reason": reason}],
                          status=ABORTED, del_fields=["rated"])

        try:
            return self._change(game_id, change, extra_field=None)[1]
        except (GameNotFound, SeatConflict):
            return None

    # -- the lobby ------------------------------------------------------------------

    def list_in_lobby(self, game_id: str, ruleset: str, created: float) -> None:
        self.store.lobby.add(game_id, ruleset, created)  # the lobby is global: the control Redis

    def lobby(self, ruleset: str | None, limit: int, cursor: str | None) -> tuple[list[GameRecord], str | None]:
        """Listed waiting games, oldest first, after ``cursor`` ("<created>:<id>")."""
        low, after_id = "-inf", ""
        if cursor:
            low, _, after_id = cursor.partition(":")
        found: list[GameRecord] = []
        gone: list[tuple[str, str]] = []
        offset, more = 0, False
        while not more:
            batch = self.store.lobby.page(ruleset, low, offset, limit + 1)
            if not batch:
                break
            offset += len(batch)
            for game_id, score in batch:
                if cursor and repr(score) == low and game_id <= after_id:
                    continue  # on the previous page
                record = self.store.load(game_id)
                if record is None or record.status != WAITING or not record.listed:
                    gone.append((game_id, record.ruleset if record else ruleset))
                    continue
                if len(found) == limit:
                    more = True
                    break
                found.append(record)
        for game_id, game_ruleset in gone:  # expired or started meanwhile: tidy the lobby
            self.store.lobby.remove(game_id, game_ruleset)
        return found, (f"{found[-1].created!r}:{found[-1].id}" if more else None)

    # -- inside a change --------------------------------------------------------------

    def _change(self, game_id: str, change: Callable[[GameRecord, str | None], Change], *,
                extra_field: str | None) -> tuple[dict, GameRecord]:
        """Run ``change`` on the game under WATCH and write what it returns as the next version."""
        for _ in range(MAX_ATTEMPTS):
            try:
                with self.store.watching(game_id) as pipe:
                    record, extra = self.store.load_watched(pipe, game_id, extra_field)
                    if record is None:
                        raise GameNotFound(game_id)
                    result = change(record, extra)
                    written, pending = self._write(pipe, record, result)
                    pipe.execute()
            except ChangedMeanwhile:
                continue
            self.store.wake(game_id, written.version)
            if record.listed and written.status != WAITING:
                # Off the lobby once started: a global key, so outside the game's own transaction.
                self.store.lobby.remove(record.id, record.ruleset)
            after_version(self.store, written, pending, result=self._result(written, result))
            return result.answer, written
        raise KeptChanging("the game kept changing; try again")

    def _result(self, written: GameRecord, change: Change) -> dict | None:
        """The result of a game a seat change finished (a start whose setup ended it), else None."""
        if written.status != FINISHED or change.state is None:
            return None
        result = get_ruleset(written.ruleset).result(change.state)
        return None if result is None else result.to_dict()

    def _write(self, pipe, record: GameRecord, change: Change) -> tuple[GameRecord, list]:
        version = record.version + 1
        now = time.time()
        status = change.status or record.status
        ruleset = get_ruleset(record.ruleset)
        state_json = record.state if change.state is None else json.dumps(ruleset.to_dict(change.state))
        if change.state is not None:
            pending = ruleset.pending(change.state) if status == ACTIVE else []
        elif status == ACTIVE:
            pending = ruleset.pending(load_state(ruleset, record))
        else:
            pending = []
        marks = next_marks(pending, record.marks, version)
        players = record.players if change.players is None else change.players
        self.store.write_change(pipe, record, status=status, state=state_json, seats=change.seats, players=players,
                                marks=marks, events=change.events, set_fields=change.set_fields,
                                del_fields=change.del_fields, now=now)
        # Everything the change did not touch (the owning app, the rules version...) stays as read.
        written = dataclasses.replace(record, version=version, status=status, state=state_json, seats=change.seats,
                                      players=players, updated=now, marks=marks, token_role=None)
        change.answer.setdefault("version", version)
        return written, pending

    def _start(self, record: GameRecord, change: Change, fill: tuple[str, str | None] | None) -> None:
        """Fill or remove the open seats of ``change.seats`` and set the game up (its version-0 setup)."""
        ruleset = get_ruleset(record.ruleset)
        seats = change.seats
        if fill is not None and fill[0] == "remove":
            kept = [number for number, seat in enumerate(seats) if not is_open(seat)]
            if len(kept) < ruleset.min_players:
                raise conflict("too_few_players", f"{ruleset.title} needs at least {ruleset.min_players} players; "
                               f"{len(kept)} seats are taken", record.version)
            renumber = {old: new for new, old in enumerate(kept)}
            for number, seat in enumerate(seats):
                if is_open(seat):
                    change.events.append({"type": "seat_removed", "seat": number})
            change.seats = seats = [seats[old] for old in kept]
            self._renumber(record.id, renumber, change)
        elif fill is not None:
            for number, seat in enumerate(seats):
                if is_open(seat):
                    seat.update(name=f"{fill[1]} bot", bot=fill[1], player=f"bot:{fill[1]}")
                    change.events.append({"type": "seat_to_bot", "seat": number, "name": seat["name"],
                                          "bot": fill[1]})
        try:
            state = ruleset.new_game(len(seats), record.options or {}, record.seed)
        except InvalidOptions as error:  # checked at creation, so only a changed player count gets here
            raise conflict("too_few_players", error.message, record.version) from None
        change.state, change.players = state, len(seats)
        change.status = ACTIVE if ruleset.result(state) is None else FINISHED
        change.events.append({"type": "table_started", "players": len(seats), "seats": public_seats(seats)})
        change.events.extend(event.to_dict() for event in ruleset.setup_events(state))

    def _renumber(self, game_id: str, renumber: dict[int, int], change: Change) -> None:
        """Point the tokens and seat invites at the seats' new numbers (removed seats' invites go)."""
        for name, value in self._tokens(game_id, prefixes=("t:", "i:")):
            if not value.isdigit():
                continue
            if int(value) in renumber:
                change.set_fields[name] = str(renumber[int(value)])
            else:
                change.del_fields.append(name)

    def _join_running(self, record: GameRecord, name: str, token: str, per_game_invite: bool,
                      player: str | None) -> Change:
        ruleset = get_ruleset(record.ruleset)
        if not ruleset.joins_mid_game:
            raise conflict("no_mid_game_join", f"{ruleset.title} takes no players once it has started",
                           record.version)
        if not per_game_invite:
            raise conflict("game_started", "the game has started: only the per-game invite seats a new player",
                           record.version)
        if len(record.seats) >= ruleset.max_players:
            raise conflict("table_full", f"{ruleset.title} seats at most {ruleset.max_players} players",
                           record.version)
        state = load_state(ruleset, record)
        seat = len(record.seats)
        joined = joined_event(seat, name, player)
        try:
            # The event is the log entry a replay hands to the same hook (its kind is the event's type).
            events = ruleset.seat_changed(state, {"seat": seat, "kind": joined["type"], "name": name, "bot": None})
        except IllegalAction as error:
            raise conflict(error.reason, error.message, record.version) from None
        seats = [*record.seats, {"name": name, "bot": None, "player": player}]
        return Change(seats, [joined, *(event.to_dict() for event in events)], state=state,
                      set_fields={f"t:{token_digest(token)}": str(seat)}, answer={"seat": seat, "token": token})

    def _open_seat(self, record: GameRecord, invited: str | None) -> int:
        if invited is None or invited == GAME_INVITE:
            seat = next((n for n, entry in enumerate(record.seats) if is_open(entry)), None)
            if seat is None:
                raise conflict("table_full", "every seat is taken", record.version)
            return seat
        seat = int(invited)
        if not is_open(record.seats[seat]):
            raise conflict("seat_taken", f"seat {seat} is taken", record.version)
        return seat

    def _own_seat(self, record: GameRecord, seat: int, role: str | None, *, creator_too: bool) -> None:
        if role is None:
            raise UnknownToken("this token does not belong to this game")
        if not 0 <= seat < len(record.seats):
            raise SeatNotFound(seat)
        if role != str(seat) and not (creator_too and role == "creator"):
            who = "this seat's token or the creator's" if creator_too else "this seat's own token"
            raise NotAllowed(f"only {who} may do that")

    def _check_bot(self, ruleset_id: str, bot: str | None) -> None:
        bots = get_ruleset(ruleset_id).bot_names()
        if bot not in bots:
            raise UnknownBot(bot, bots)

    def _tokens(self, game_id: str, prefixes: tuple[str, ...] = ("t:",)) -> list[tuple[str, str]]:
        """(field, role) of the game's token (and invite) fields."""
        return self.store.access_fields(game_id, prefixes)


def joined_event(seat: int, name: str, player: str | None) -> dict:
    """The ``seat_joined`` event; it names the joining player's id when the app gave one."""
    return {"type": "seat_joined", "seat": seat, "name": name, **({"player": player} if player else {})}


def public_seats(seats: list[dict]) -> list[dict]:
    """Seats as anyone may see them: number, name, bot, player id, and whether the seat is open."""
    return [{"seat": number, "name": seat["name"], "bot": seat.get("bot"), "player": seat.get("player"),
             "open": is_open(seat)}
            for number, seat in enumerate(seats)]


def game_invites(seats: list[dict], joins_mid_game: bool) -> tuple[list[dict], str | None, dict[str, str]]:
    """New invites for a game's open seats and, where the ruleset seats players mid-game, one per game:
    (the creator's ``invites`` list, the per-game ``invite``, digest -> role to store)."""
    invites = [{"seat": number, "invite": new_secret()} for number, seat in enumerate(seats) if is_open(seat)]
    per_game = new_secret() if joins_mid_game else None
    digests = {token_digest(entry["invite"]): str(entry["seat"]) for entry in invites}
    if per_game is not None:
        digests[token_digest(per_game)] = GAME_INVITE
    return invites, per_game, digests

