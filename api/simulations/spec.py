"""What a simulation request may ask for, and the limits that keep it reasonable."""

from __future__ import annotations

import math
import secrets

from marshmallow import Schema, ValidationError, fields, validate

from engine.core.errors import InvalidOptions
from engine.core.registry import UnknownRuleset, get_ruleset
from engine.core.ruleset import Ruleset
from engine.core.strict import StrictBoolean
from engine.experiments.drama import DRAMA_WORK_FACTOR
from engine.simulate import seat_bots
from engine.values.model import has_model

MAX_GAMES = 1_000_000
MAX_CHUNK_SIZE = 100_000
MAX_CHUNKS = 10_000
#: With no ``chunk_size``, a simulation is cut into about this many chunks (enough to
#: share among the workers and to show progress)...
TARGET_CHUNKS = 32
#: ...of at least this many games, so the queue's cost per job (5-10 ms of worker CPU)
#: stays small beside the games (a 4-player monopoly-cars2 game takes about 0.6 ms)...
MIN_AUTO_CHUNK = 250
#: ...and at most this many, so a big simulation still spreads over many workers.
MAX_AUTO_CHUNK = 5000
MAX_SEED = 2**63 - 1


class SimulationSpecSchema(Schema):
    ruleset = fields.String(required=True, metadata={"description": "A ruleset id, e.g. `monopoly-cars2`."})
    players = fields.Integer(
        strict=True,
        load_default=None,
        allow_none=True,
        validate=validate.Range(min=1, max=64),
        metadata={"description": "Number of seats; default: the ruleset's minimum."},
    )
    bots = fields.List(
        fields.String(),
        load_default=lambda: ["random"],
        validate=validate.Length(min=1, max=64),
        metadata={"description": "One bot name per seat; a shorter list repeats its last name."},
    )
    options = fields.Dict(
        keys=fields.String(),
        load_default=dict,
        metadata={"description": "Game options (house rules, turn cap), as for a single game."},
    )
    games = fields.Integer(
        strict=True,
        required=True,
        validate=validate.Range(min=1, max=MAX_GAMES),
        metadata={"description": f"Number of games to play, 1 to {MAX_GAMES}."},
    )
    seed = fields.Integer(
        strict=True,
        load_default=None,
        allow_none=True,
        validate=validate.Range(min=0, max=MAX_SEED),
        metadata={"description": "Game i depends only on (seed, i); default: a random seed, reported back."},
    )
    chunk_size = fields.Integer(
        strict=True,
        load_default=None,
        allow_none=True,
        validate=validate.Range(min=1, max=MAX_CHUNK_SIZE),
        metadata={"description": "Games per worker job; default: about 1/32 of the games, 250 to 5000."},
    )
    drama = StrictBoolean(
        load_default=False,
        metadata={"description": "Also read every game's drama from its win chances (decided at, comebacks, "
                                 "kingmaking, a skill index: docs/experiments.md); its work counts "
                                 f"{DRAMA_WORK_FACTOR} times against `simulation_work_per_day`."},
    )


def default_chunk_size(games: int) -> int:
    return min(games, max(MIN_AUTO_CHUNK, min(MAX_AUTO_CHUNK, math.ceil(games / TARGET_CHUNKS))))


def load_request(schema: Schema, body: dict, what: str) -> dict:
    """``body`` loaded by ``schema``; ``InvalidOptions`` ("invalid <what> request") with the fields' messages if not."""
    try:
        return schema.load(body)
    except ValidationError as error:
        raise InvalidOptions(f"invalid {what} request", fields=error.messages) from None


def ruleset_and_players(spec: dict) -> tuple[Ruleset, int]:
    """The ruleset a loaded spec names and its number of seats (default: the ruleset's minimum);
    ``InvalidOptions`` naming ``ruleset`` or ``players`` if either is off, or ``drama`` for a ruleset
    without a value model."""
    try:
        ruleset = get_ruleset(spec["ruleset"])
    except UnknownRuleset as unknown:
        raise InvalidOptions(unknown.message, fields={"ruleset": [unknown.message]}) from None
    players = spec["players"] or ruleset.min_players
    if not ruleset.min_players <= players <= ruleset.max_players:
        raise InvalidOptions(
            f"{ruleset.title} takes {ruleset.min_players} to {ruleset.max_players} players, not {players}",
            fields={"players": [f"must be between {ruleset.min_players} and {ruleset.max_players}"]},
        )
    if spec.get("drama") and not has_model(ruleset):
        raise InvalidOptions(f"{ruleset.id} has no value model: its drama cannot be read",
                             fields={"drama": [f"{ruleset.id} has no win chances (a value model) to read them from"]})
    return ruleset, players


def check_game_options(ruleset: Ruleset, players: int, options: dict) -> None:
    """``InvalidOptions`` naming ``options`` if a game of ``ruleset`` cannot be set up with them."""
    try:
        # A game's setup checks what the options schema cannot (a custom board against the players,
        # a deck against the board): set one up, as POST /v1/games does, so both accept the same options.
        ruleset.new_game(players, options, 0)
    except InvalidOptions as error:
        raise InvalidOptions(error.message, fields={"options": error.fields}) from None


def base_configuration(ruleset: Ruleset, players: int, spec: dict) -> dict:
    """The checked spec's ruleset id, seats, one bot per seat (``seat_bots``) and options."""
    return {"ruleset": ruleset.id, "players": players, "bots": seat_bots(spec["bots"], players),
            "options": spec["options"]}


def chosen_seed(spec: dict) -> int:
    """The spec's seed, or a random one (reported back) when it gives none."""
    return spec["seed"] if spec["seed"] is not None else secrets.randbelow(MAX_SEED + 1)


def normalize_spec(body: dict) -> dict:
    """A complete, checked spec (every default filled in); ``InvalidOptions`` with field messages if not."""
    spec = load_request(SimulationSpecSchema(), body, "simulation")
    ruleset, players = ruleset_and_players(spec)
    if len(spec["bots"]) > players:
        raise InvalidOptions(
            f"{len(spec['bots'])} bots for {players} players", fields={"bots": [f"at most {players} names"]}
        )
    unknown = sorted(set(spec["bots"]) - set(ruleset.bot_names()))
    if unknown:
        raise InvalidOptions(
            f"unknown bot {unknown[0]!r} for {ruleset.id}",
            fields={"bots": [f"each must be one of {ruleset.bot_names()}"]},
        )
    check_game_options(ruleset, players, spec["options"])
    games = spec["games"]
    chunk_size = min(spec["chunk_size"] or default_chunk_size(games), games)
    chunks = math.ceil(games / chunk_size)
    if chunks > MAX_CHUNKS:
        raise InvalidOptions(
            f"{games} games in chunks of {chunk_size} make {chunks} jobs, more than {MAX_CHUNKS}",
            fields={"chunk_size": [f"must be at least {math.ceil(games / MAX_CHUNKS)} for {games} games"]},
        )
    return {
        **base_configuration(ruleset, players, spec),
        "games": games,
        "seed": chosen_seed(spec),
        "chunk_size": chunk_size,
        "chunks": chunks,
        "drama": spec["drama"],
    }


def chunk_bounds(spec: dict, index: int) -> tuple[int, int]:
    """(first game index, number of games) of chunk ``index``."""
    start = index * spec["chunk_size"]
    return start, min(spec["chunk_size"], spec["games"] - start)


def chunks_left(spec: dict, done: int) -> int:
    """What a queued or running simulation still weighs in its app's ``queued_chunks`` (api.apps.quotas)."""
    return max(0, spec["chunks"] - done)
