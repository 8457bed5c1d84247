"""How a game begins, as far as records care: its seed commitment, and forks of other games.

Every new game gets a random salt and publishes ``seed_commitment`` = SHA-256 of salt and
seed (``engine.records.seed_commitment``) in its creation answer, its first event and its
record; the record reveals seed and salt once the game is finished. A fork starts from
another game's position (``fork_game``): a finished game's exactly, a running game's (its
creator only) with everything hidden from a spectator re-dealt and the RNG re-seeded.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass

from api.play.errors import Invalid, NotAllowed
from api.play.game_record import OVER
from api.play.moves import load_state
from api.play.store import GameStore
from api.records.build import full_record
from engine.core.registry import get_ruleset
from engine.core.ruleset import Ruleset
from engine.records import RecordError, fork_position, replay, seed_commitment, state_digest

#: the largest seed a game takes (a signed 64-bit integer, as every SDK reads it)
MAX_SEED = 2**63 - 1


@dataclass(slots=True)
class NewGame:
    """A game about to be stored: its ruleset, first state, seed, seats and options, and the
    records room's hash fields (``provenance``: commitment, salt, seed source, fork origin, start)."""

    ruleset: Ruleset
    state: object
    seed: int
    seats: list[dict]
    options: dict
    provenance: dict[str, str]
    fork: dict | None = None

    @property
    def seed_commitment(self) -> str:
        return self.provenance["commitment"]


def sealed(seed: int, source: str, start: dict | None = None) -> dict[str, str]:
    """The provenance fields of a game with this seed: a fresh salt and the commitment to both
    (and to ``start``, the state a fork begins from)."""
    salt = secrets.token_hex(16)
    fields = {"salt": salt, "seed_source": source,
              "commitment": seed_commitment(seed, salt, None if start is None else state_digest(start))}
    if start is not None:
        fields["start"] = json.dumps(start)
    return fields


def fork_game(store: GameStore, body: dict, token: str | None,
              require_creator_app: Callable[[str | None], None]) -> NewGame:
    """The new game ``body["fork"]`` asks for (``{"game": id, "version": n}``); ``Invalid`` for a missing
    game or version, ``NotAllowed`` when the game runs and ``token`` is not its creator's, or what
    ``require_creator_app(the game's app)`` raises when it refuses the calling app."""
    origin = body["fork"]
    parent = store.load(origin["game"], token=token)
    if parent is None:
        raise _invalid({"fork": {"game": [f"no game {origin['game']!r} (or it expired)"]}})
    finished = parent.status in OVER  # an aborted game is over too: nobody plays it any more
    if not finished and parent.token_role != "creator":
        raise NotAllowed("only the creator of a running game may fork it (send its creator token); "
                         "anyone may fork a finished game")
    if not finished:
        require_creator_app(parent.app)
    version = parent.version if origin["version"] is None else origin["version"]
    if version > parent.version:
        raise _invalid({"fork": {"version": [f"the game is at version {parent.version}"]}})
    ruleset = get_ruleset(parent.ruleset)
    if body["ruleset"] is not None and body["ruleset"] != ruleset.id:
        raise _invalid({"ruleset": [f"the forked game plays {ruleset.id!r}"]})
    if version == parent.version:
        state = load_state(ruleset, parent)
    else:
        try:
            state = replay(full_record(store, parent), compare=False, until_version=version).state
        except RecordError as error:  # e.g. a game played by rules this service no longer has
            raise _invalid({"fork": {"game": [error.message]}}) from None
    seed = state.rng.seed if finished else secrets.randbits(63)
    start = fork_position(ruleset, state, finished=finished, seed=seed)
    seats = body["seats"] or [{"name": seat.get("name"), "bot": seat.get("bot")} for seat in parent.seats]
    if len(seats) != parent.players:
        raise _invalid({"seats": [f"a fork keeps the game's {parent.players} seats"]})
    fork = {"game": parent.id, "version": version, "hidden_redealt": not finished}
    provenance = sealed(seed, "fork" if finished else "service", ruleset.to_dict(start))
    provenance["fork"] = json.dumps(fork)
    options = json.loads(store.record_fields(parent.id).get("options", "{}"))
    return NewGame(ruleset, start, seed, seats, options, provenance, fork)


def _invalid(fields: dict) -> Invalid:
    return Invalid("the request does not fit its schema", fields=fields)
