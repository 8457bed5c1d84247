"""What an experiment request may ask for, and the bounds that keep it reasonable."""

from __future__ import annotations

import math

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from api.simulations.spec import (
    MAX_AUTO_CHUNK,
    MAX_CHUNK_SIZE,
    MAX_CHUNKS,
    MAX_SEED,
    MIN_AUTO_CHUNK,
    TARGET_CHUNKS,
    base_configuration,
    check_game_options,
    chosen_seed,
    load_request,
    ruleset_and_players,
)
from engine.core.errors import InvalidOptions
from engine.core.strict import StrictBoolean
from engine.experiments.design import MAX_SWEEP_PARAMETERS, MAX_VARIANTS, design
from engine.experiments.drama import DRAMA_WORK_FACTOR
from engine.simulate import seat_bots

#: Games each variant may play (a fixed ``games``, or a precision experiment's ``max_games``).
MAX_GAMES_PER_VARIANT = 200_000
#: Games of all variants together, the base included.
MAX_TOTAL_GAMES = 2_000_000
#: A precision experiment's first round plays at least this many games per variant by default.
DEFAULT_MIN_GAMES = 1000
#: Experiments of one app queued or running at once.
MAX_EXPERIMENTS_IN_FLIGHT = 4
MAX_NAME_LENGTH = 64


class VariantSchema(Schema):
    name = fields.String(required=True, validate=validate.Length(min=1, max=MAX_NAME_LENGTH),
                         metadata={"description": "How the results name it; `base` is the base's."})
    options = fields.Dict(keys=fields.String(), load_default=dict,
                          metadata={"description": "Options laid over the base's options."})
    bots = fields.List(fields.String(), load_default=None, validate=validate.Length(min=1, max=64),
                       metadata={"description": "This variant's lineup (a shorter list repeats its last name); "
                                                "default: the base's. Compare lineups to see which bot wins."})


class StopSchema(Schema):
    win_rate_within = fields.Float(
        load_default=None, allow_none=True, validate=validate.Range(min=0.001, max=0.5),
        metadata={"description": "Stop a variant once every seat's win rate is known within this (e.g. 0.01), "
                                 "by a 95% confidence sequence."})
    difference_within = fields.Float(
        load_default=None, allow_none=True, validate=validate.Range(min=0.001, max=0.5),
        metadata={"description": "Stop a variant once each seat's win-rate difference from the base is either "
                                 "significant or shown to lie within this (e.g. 0.02), by a 95% confidence "
                                 "sequence (Bonferroni over the variants)."})
    max_games = fields.Integer(
        strict=True, required=True, validate=validate.Range(min=1, max=MAX_GAMES_PER_VARIANT),
        metadata={"description": f"The budget: games per variant at most (1 to {MAX_GAMES_PER_VARIANT}); the "
                                 "whole budget is counted against the app's quotas when the experiment is admitted."})
    min_games = fields.Integer(
        strict=True, load_default=None, allow_none=True, validate=validate.Range(min=1, max=MAX_GAMES_PER_VARIANT),
        metadata={"description": f"Games per variant of the first round (default {DEFAULT_MIN_GAMES}, or "
                                 "`max_games` if fewer; more than `max_games` is 422); each later round plays about "
                                 "a tenth of the games so far."})

    @validates_schema
    def a_question(self, data: dict, **_: object) -> None:
        if not data.get("win_rate_within") and not data.get("difference_within"):
            raise ValidationError("give win_rate_within, difference_within or both", "win_rate_within")

    @validates_schema
    def a_first_round_within_the_budget(self, data: dict, **_: object) -> None:
        # An explicit first round past the budget contradicts it: say so rather than play fewer.
        if data.get("min_games") is not None and data.get("max_games") is not None and \
                data["min_games"] > data["max_games"]:
            raise ValidationError(f"at most max_games ({data['max_games']})", "min_games")


class ExperimentSpecSchema(Schema):
    ruleset = fields.String(required=True, metadata={"description": "A ruleset id, e.g. `monopoly-cars2`."})
    players = fields.Integer(strict=True, load_default=None, allow_none=True, validate=validate.Range(min=1, max=64),
                             metadata={"description": "Number of seats; default: the ruleset's minimum."})
    bots = fields.List(fields.String(), load_default=lambda: ["random"], validate=validate.Length(min=1, max=64),
                       metadata={"description": "The base's lineup: one bot per seat; a shorter list repeats its "
                                                "last name."})
    options = fields.Dict(keys=fields.String(), load_default=dict,
                          metadata={"description": "The base configuration's game options."})
    variants = fields.List(
        fields.Nested(VariantSchema), load_default=list, validate=validate.Length(max=MAX_VARIANTS),
        metadata={"description": f"Named variants to compare with the base (at most {MAX_VARIANTS})."})
    sweep = fields.Dict(
        keys=fields.String(), values=fields.List(fields.Raw()),
        load_default=dict, validate=validate.Length(max=MAX_SWEEP_PARAMETERS),
        metadata={"description": f"Option -> values, e.g. `{{\"starting_money\": [10, 13, 16, 20]}}`: one variant "
                                 f"per value, or per pair of values for two options (at most "
                                 f"{MAX_SWEEP_PARAMETERS} options, {MAX_VARIANTS} points)."})
    games = fields.Integer(
        strict=True, load_default=None, allow_none=True, validate=validate.Range(min=1, max=MAX_GAMES_PER_VARIANT),
        metadata={"description": f"Games per variant (1 to {MAX_GAMES_PER_VARIANT}); or give `stop`."})
    stop = fields.Nested(StopSchema, load_default=None, allow_none=True,
                         metadata={"description": "Stop each variant by precision instead of a fixed `games`."})
    seed = fields.Integer(strict=True, load_default=None, allow_none=True, validate=validate.Range(min=0, max=MAX_SEED),
                          metadata={"description": "Game i of every variant depends only on (seed, i): the variants "
                                                   "play the same seeds. Default: a random seed, reported back."})
    chunk_size = fields.Integer(
        strict=True, load_default=None, allow_none=True, validate=validate.Range(min=1, max=MAX_CHUNK_SIZE),
        metadata={"description": "Seeds per worker job (each job plays every variant of its seeds, so the pairs stay "
                                 "together); default: about 1/32 of the games, 250 to 5000 games a job."})
    drama = StrictBoolean(
        load_default=False,
        metadata={"description": "Also read every game's drama from its win chances at every version: decided at, "
                                 "comebacks, lead changes on the chances, kingmaking, and a skill index "
                                 "(docs/experiments.md). Costs several times a plain game: its work is counted "
                                 f"{DRAMA_WORK_FACTOR} times against `simulation_work_per_day`."})


def default_chunk_size(games: int, variants: int) -> int:
    """Seeds per job: about ``TARGET_CHUNKS`` jobs, each of ``MIN_AUTO_CHUNK`` to ``MAX_AUTO_CHUNK``
    games counting every variant's (a job plays all of them)."""
    low = math.ceil(MIN_AUTO_CHUNK / variants)
    high = max(1, MAX_AUTO_CHUNK // variants)
    return min(games, max(low, min(high, math.ceil(games / TARGET_CHUNKS))))


def normalize_spec(body: dict) -> dict:
    """A complete, checked spec; ``InvalidOptions`` naming the field if not."""
    spec = load_request(ExperimentSpecSchema(), body, "experiment")
    ruleset, players = ruleset_and_players(spec)
    for where, lineup in [("bots", spec["bots"])] + [
            (("variants", str(i), "bots"), v["bots"]) for i, v in enumerate(spec["variants"]) if v["bots"]]:
        if len(lineup) > players:
            raise InvalidOptions(f"{len(lineup)} bots for {players} players",
                                 fields=_nest(where, [f"at most {players} names"]))
        if set(lineup) - set(ruleset.bot_names()):
            raise InvalidOptions(f"unknown bot in {lineup} for {ruleset.id}",
                                 fields=_nest(where, [f"each must be one of {ruleset.bot_names()}"]))
    check_game_options(ruleset, players, spec["options"])
    variants = design(ruleset, players, spec["options"], seat_bots(spec["bots"], players), spec["variants"],
                      spec["sweep"])
    if (spec["games"] is None) == (spec["stop"] is None):
        raise InvalidOptions("give either games (a fixed size) or stop (by precision)",
                             fields={"games": ["give games, or stop, not both"]})
    stop = spec["stop"]
    if stop is not None:
        stop["min_games"] = min(stop["min_games"] or DEFAULT_MIN_GAMES, stop["max_games"])
    budget = spec["games"] or stop["max_games"]
    if budget * len(variants) > MAX_TOTAL_GAMES:
        field = "games" if stop is None else "stop"
        raise InvalidOptions(f"{len(variants)} variants of {budget} games make more than {MAX_TOTAL_GAMES} games",
                             fields={field: [f"at most {MAX_TOTAL_GAMES // len(variants)} games per variant for "
                                             f"{len(variants)} variants"]})
    first = spec["games"] or stop["min_games"]
    # Each chunk keeps one tally per variant: at most MAX_CHUNKS of them in all, as a simulation keeps.
    fewest_seeds = math.ceil(budget / (MAX_CHUNKS // len(variants)))
    chunk_size = min(spec["chunk_size"] or max(default_chunk_size(first, len(variants)), fewest_seeds), budget)
    if math.ceil(budget / chunk_size) * len(variants) > MAX_CHUNKS:
        raise InvalidOptions(f"{budget} games of {len(variants)} variants in chunks of {chunk_size} seeds make more "
                             f"than {MAX_CHUNKS} tallies", fields={"chunk_size": [f"must be at least {fewest_seeds}"]})
    return {
        **base_configuration(ruleset, players, spec),
        "sweep": spec["sweep"],
        "variants": [variant.to_dict() for variant in variants],
        "games": spec["games"],
        "stop": stop,
        "budget": budget,
        "seed": chosen_seed(spec),
        "chunk_size": chunk_size,
        "budget_chunks": math.ceil(budget / chunk_size),
        "drama": spec["drama"],
    }


def _nest(where, messages: list[str]) -> dict:
    path = (where,) if isinstance(where, str) else where
    nested: dict | list = messages
    for key in reversed(path):
        nested = {key: nested}
    return nested


def chunk_bounds(spec: dict, index: int) -> tuple[int, int]:
    """(first game index, number of games) of chunk ``index``: the same seeds for every variant."""
    start = index * spec["chunk_size"]
    return start, min(spec["chunk_size"], spec["budget"] - start)


def chunks_left(spec: dict, done: int) -> int:
    """What a queued or running experiment still weighs in its app's ``queued_chunks`` (api.apps.quotas): its
    chunks not yet played, once per variant."""
    return max(0, spec["budget_chunks"] - done) * len(spec["variants"])
