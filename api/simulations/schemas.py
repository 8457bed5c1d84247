"""The documented shapes of ``/v1/simulations`` (requests are checked by ``spec.SimulationSpecSchema``)."""

from __future__ import annotations

from marshmallow import Schema, fields

from api.simulations.spec import SimulationSpecSchema

STATUSES = ["queued", "running", "finished", "failed", "cancelled"]


class SimulationRequestSchema(SimulationSpecSchema):
    """A simulation to run on the workers."""


class ProgressSchema(Schema):
    games_done = fields.Integer(required=True, metadata={"description": "Games played and counted so far."})
    games = fields.Integer(required=True, metadata={"description": "Games asked."})
    chunks_done = fields.Integer(required=True)
    chunks = fields.Integer(required=True, metadata={"description": "Worker jobs the games are cut into."})


Interval = fields.List(fields.Float(), metadata={"description": "95% Wilson score interval [low, high]."})


class BotStatsSchema(Schema):
    seats = fields.Integer(required=True, metadata={"description": "Seats this bot played in each game."})
    games = fields.Integer(required=True, metadata={"description": "Seat-games played (seats x games)."})
    wins = fields.Integer(required=True)
    win_rate = fields.Float(required=True)
    win_rate_ci95 = Interval


class PositionsSchema(Schema):
    """Wins by turn-order position: [0] the first mover (who moves first as the rulebook decides at the
    table, e.g. by a roll-off: not seat 0 in general), [1] the second... (`docs/rules/<ruleset>.md`)."""

    games = fields.Integer(required=True, metadata={"description": (
        "Games counted by turn-order position: all of them, but for games tallied by a worker of a release "
        "before turn order was counted (they count in the seat figures only).")})
    wins = fields.List(fields.Integer(), required=True, metadata={"description": "Outright wins per position."})
    win_rates = fields.List(fields.Float(), required=True, metadata={"description": "Per position, over `games`."})
    win_rate_ci95 = fields.List(Interval, required=True, metadata={"description": "Per position."})
    first_movers = fields.List(fields.Integer(), required=True, metadata={
        "description": "Per seat: the games in which it moved first."})


class TurnsSchema(Schema):
    mean = fields.Float(required=True)
    median = fields.Integer(required=True)
    p90 = fields.Integer(required=True)
    max = fields.Integer(required=True)
    histogram = fields.Dict(
        keys=fields.String(), values=fields.Integer(), required=True,
        metadata={"description": "Game length in turns -> number of games."},
    )


class RateSchema(Schema):
    count = fields.Integer(required=True)
    games = fields.Integer(required=True, metadata={"description": "Games it is counted over."})
    rate = fields.Float(required=True)
    ci95 = Interval


class MeanSchema(Schema):
    mean = fields.Float(required=True)
    ci95 = fields.List(fields.Float(), required=True, metadata={"description": "95% normal interval."})
    games = fields.Integer(metadata={"description": "Games it is the mean over."})


class DramaThresholdsSchema(Schema):
    decided_at = fields.Float(required=True, metadata={"description": "The winner's chance that decides a game "
                                                       "once it stays at or above it."})
    comeback_below = fields.Float(required=True)
    kingmaker_below = fields.Float(required=True, metadata={"description": "A deciding seat's own chance below "
                                                            "which its options are scored."})
    kingmaker_spread = fields.Float(required=True, metadata={"description": "The spread of the best-placed rival's "
                                                             "chance that makes a kingmaker position."})
    calibration = fields.String(required=True, metadata={"enum": ["isotonic", "none"], "description": (
        "How the model's chances were recalibrated before the thresholds were read (isotonic: fit on held-out "
        "games; none: no fit for this model).")})


class KingmakingSchema(Schema):
    low_chance_decisions = fields.Integer(required=True, metadata={
        "description": "Decisions of a seat below `kingmaker_below` with two options or more."})
    per_game = fields.Float(required=True)
    spread = fields.Nested(MeanSchema, required=True, metadata={
        "description": "At those decisions, the spread across the options of the best-placed rival's chance."})
    positions = fields.Integer(required=True, metadata={"description": "Kingmaker positions: a spread of "
                                                        "`kingmaker_spread` or more."})
    games = fields.Nested(RateSchema, required=True, metadata={"description": "Games with a kingmaker position."})
    changes_winner = fields.Nested(RateSchema, required=True, metadata={
        "description": "Of the kingmaker positions replayed (the first two of a game), how often the alternative "
                       "option, replayed with the same randomness, gives another winner."})


class SkillIndexSchema(Schema):
    value = fields.Float(required=True, metadata={"description": "(p - 1/n) / (1 - 1/n) of the strong seat's win "
                                                  "rate p: 0 skill does not show (a coin flip), 1 the stronger "
                                                  "always wins."})
    ci95 = Interval
    games = fields.Integer(required=True, metadata={"description": "The skill ladder's games (one in four)."})
    strong = fields.String(required=True)
    weak = fields.String(required=True)


class DramaSchema(Schema):
    games = fields.Integer(required=True)
    thresholds = fields.Nested(DramaThresholdsSchema, required=True)
    decided_at = fields.Nested(MeanSchema, required=True, metadata={
        "description": "The share of the game's turns played before the action after which the winner's chance "
                       "stays above `decided_at` (0: decided by the first action)."})
    decided_before_half = fields.Nested(RateSchema, required=True)
    comebacks = fields.Nested(RateSchema, required=True, metadata={
        "description": "Games whose winner's chance was below `comeback_below` at some version."})
    lowest_winner_chance = fields.Nested(MeanSchema, required=True)
    chance_lead_changes = fields.Nested(MeanSchema, required=True, metadata={
        "description": "How often the seat with the highest win chance changed, turn by turn."})
    kingmaking = fields.Nested(KingmakingSchema, required=True)
    skill_index = fields.Nested(SkillIndexSchema, required=True)
    model_calls = fields.Integer(required=True, metadata={"description": "Value-model calls the measures made."})
    model_calls_per_game = fields.Float(required=True)
    cpu_seconds = fields.Float(required=True)


class StatisticsSchema(Schema):
    """The statistics of `rulehouse simulate --json` (same keys)."""

    ruleset = fields.String(required=True)
    rules_version = fields.Integer(required=True, metadata={
        "description": "The ruleset's rules version these games were played under (see `GET /v1/rulesets/{id}`)."})
    games = fields.Integer(required=True)
    players = fields.Integer(required=True)
    bots = fields.List(fields.String(), required=True)
    seed = fields.Integer(required=True)
    wins = fields.List(fields.Integer(), required=True, metadata={"description": "Outright wins per seat."})
    win_rates = fields.List(fields.Float(), required=True)
    win_rate_ci95 = fields.List(Interval, required=True, metadata={"description": "Per seat."})
    positions = fields.Nested(PositionsSchema, required=True)  # wins by turn-order position, beside seats'
    bot_stats = fields.Dict(keys=fields.String(), values=fields.Nested(BotStatsSchema), required=True,
                            metadata={"description": "Per bot name, over every seat it played."})
    draws = fields.Integer(required=True, metadata={"description": "Games with a shared win."})
    turn_cap_hits = fields.Integer(required=True)
    turns = fields.Nested(TurnsSchema, required=True)
    mean_scores = fields.List(fields.Float(), required=True, metadata={"description": "Per seat."})
    score_histogram = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True, metadata={
        "description": "Final score -> number of seat-games, over every seat; a score of three digits or more "
                       "is rounded down to two significant digits (1234 counts as 1200)."})
    seconds = fields.Float(required=True, metadata={"description": "Wall time from the first chunk's start "
                                                    "to the last chunk's end."})
    games_per_s = fields.Float(allow_none=True, required=True)
    drama = fields.Nested(DramaSchema, metadata={"description": "With `drama`: the game's drama from its win "
                                                 "chances (docs/experiments.md)."})


class SimulationSchema(Schema):
    id = fields.String(required=True)
    status = fields.String(required=True, metadata={"enum": STATUSES})
    ruleset = fields.String(required=True)
    players = fields.Integer(required=True)
    bots = fields.List(fields.String(), required=True, metadata={"description": "One bot per seat."})
    options = fields.Dict(required=True)
    games = fields.Integer(required=True)
    seed = fields.Integer(required=True)
    chunk_size = fields.Integer(required=True)
    chunks = fields.Integer(required=True)
    drama = fields.Boolean(required=True, metadata={"description": "Whether the drama measures were asked for."})
    progress = fields.Nested(ProgressSchema, required=True)
    created_at = fields.String(required=True, metadata={"description": "ISO 8601, UTC."})
    started_at = fields.String(allow_none=True, required=True, metadata={"description": "First chunk's start."})
    finished_at = fields.String(allow_none=True, required=True,
                                metadata={"description": "When it finished, failed or was cancelled."})
    elapsed = fields.Float(required=True, metadata={"description": "Seconds since creation (until it ended)."})
    cpu_seconds = fields.Float(allow_none=True, required=True,
                               metadata={"description": "Time the workers spent playing, summed over chunks."})
    result = fields.Nested(StatisticsSchema, allow_none=True, required=True,
                           metadata={"description": "The statistics, once finished; else null."})
    error = fields.String(allow_none=True, required=True, metadata={"description": "Why it failed."})
