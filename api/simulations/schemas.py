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
