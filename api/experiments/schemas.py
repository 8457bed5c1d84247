"""The documented shapes of ``/v1/experiments`` (requests are checked by ``spec.ExperimentSpecSchema``)."""

from __future__ import annotations

from marshmallow import Schema, fields

from api.experiments.spec import ExperimentSpecSchema
from api.simulations.schemas import (
    STATUSES,
    BotStatsSchema,
    DramaSchema,
    Interval,
    MeanSchema,
    PositionsSchema,
    RateSchema,
    TurnsSchema,
)
from engine.experiments.report import STOP_REASONS


class ExperimentRequestSchema(ExperimentSpecSchema):
    """An experiment to run on the simulation workers: a base configuration and its variants (named,
    a sweep, or lineups), played on the same seeds; a fixed `games` or a `stop` by precision."""


class ExperimentTurnsSchema(TurnsSchema):
    mean_ci95 = fields.List(fields.Float(), required=True, metadata={"description": "95% normal interval."})


class ExperimentBotStatsSchema(BotStatsSchema):
    skill_share = fields.Float(required=True, metadata={"description": "Win rate minus a seat's fair share "
                                                        "(1/players): how much the bot's skill shows."})
    skill_share_ci95 = Interval


class EdgeSchema(Schema):
    value = fields.Float(required=True, metadata={"description": "A win rate minus a fair 1/players."})
    ci95 = Interval


class DifferenceSchema(Schema):
    difference = fields.Float(required=True, metadata={"description": "This variant minus the base, from the "
                                                       "games of the same seeds."})
    ci95 = fields.List(fields.Float(), required=True, metadata={"description": "95% paired interval."})
    p_value = fields.Float(required=True)
    p_holm = fields.Float(metadata={"description": "Holm-adjusted over the variants compared."})
    significant = fields.Boolean(metadata={"description": "p_holm < 0.05."})
    pairs = fields.Integer(required=True)
    correlation = fields.Float(allow_none=True, required=True,
                               metadata={"description": "How alike the paired games are (Pearson)."})
    unpaired_half_width = fields.Float(allow_none=True, required=True, metadata={
        "description": "The 95% half-width the same number of games would give on different seeds."})
    relative = fields.Float(allow_none=True, metadata={"description": "Game length: the difference over the "
                                                       "base's mean."})


class DramaDifferencesSchema(Schema):
    kingmaker = fields.Nested(DifferenceSchema, required=True, metadata={
        "description": "Games with a kingmaker position, this variant minus the base (not Holm-adjusted)."})
    comeback = fields.Nested(DifferenceSchema, required=True, metadata={"description": "Games won by a comeback."})
    decided_before_half = fields.Nested(DifferenceSchema, required=True,
                                        metadata={"description": "Games decided before halfway."})


class DifferencesSchema(Schema):
    win_rates = fields.List(fields.Nested(DifferenceSchema), required=True, metadata={"description": "Per seat."})
    position_win_rates = fields.List(fields.Nested(DifferenceSchema), required=True, metadata={
        "description": "Per turn-order position ([0] the first mover): each game's first mover against the "
                       "base's game's first mover."})
    turns_mean = fields.Nested(DifferenceSchema, required=True)
    drama = fields.Nested(DramaDifferencesSchema, metadata={"description": "With `drama`: the paired drama "
                                                            "indicators."})


class PrecisionSchema(Schema):
    games = fields.Integer(required=True)
    win_rate_radius = fields.List(fields.Float(), metadata={"description": "Per seat, the confidence sequence's "
                                                            "half-width."})
    position_win_rate_radius = fields.List(fields.Float(allow_none=True), metadata={
        "description": "Per turn-order position, the same (null before a game counted positions)."})
    win_rate_met = fields.Boolean(metadata={"description": "Every seat's and every position's radius is within."})
    difference_sequence = fields.List(fields.List(fields.Float()), metadata={
        "description": "Per seat, the confidence sequence of the difference from the base."})
    verdicts = fields.List(fields.String(allow_none=True), metadata={
        "description": "Per seat: `different`, `equivalent` (within ±difference_within) or null (not yet)."})
    position_difference_sequence = fields.List(fields.List(fields.Float(), allow_none=True), metadata={
        "description": "Per turn-order position, the same (null before a pair counted positions)."})
    position_verdicts = fields.List(fields.String(allow_none=True), metadata={"description": "Per position."})
    difference_met = fields.Boolean(metadata={"description": "Every seat and every position has its verdict."})


class VariantResultSchema(Schema):
    name = fields.String(required=True)
    options = fields.Dict(required=True)
    bots = fields.List(fields.String(), required=True)
    point = fields.Dict(required=True, metadata={"description": "The swept options' values ({} if not a sweep point)."})
    games = fields.Integer(required=True)
    stopped = fields.String(allow_none=True, required=True, metadata={"enum": list(STOP_REASONS), "description": (
        "Why it stopped: `games` (the fixed size), `win_rate_precision`, `difference_decided`, `precision` (both), "
        "`budget` (max_games without an answer), `variants_done` (the base, once no variant needs its pairs)."
    )})
    win_rates = fields.List(fields.Float(), required=True)
    win_rate_ci95 = fields.List(Interval, required=True)
    positions = fields.Nested(PositionsSchema, required=True)  # wins by turn-order position, beside seats'
    first_mover_edge = fields.Nested(EdgeSchema, required=True, metadata={"description": (
        "The first mover's win rate (`positions`) minus a fair 1/players: the first player's edge, the "
        "measure `summary` balances.")})
    first_seat_edge = fields.Nested(EdgeSchema, required=True, metadata={"description": (
        "Seat 0's win rate minus a fair 1/players. Seat 0 is the first mover only in games that seat it "
        "first (Cash 'n Guns' starting Godfather); where the table rolls for it, see `first_mover_edge`.")})
    bot_stats = fields.Dict(keys=fields.String(), values=fields.Nested(ExperimentBotStatsSchema), required=True,
                            metadata={"description": "Per bot; `skill_share` is its win rate minus a seat's fair "
                                                     "share."})
    draws = fields.Nested(RateSchema, required=True)
    turn_cap_hits = fields.Nested(RateSchema, required=True)
    turns = fields.Nested(ExperimentTurnsSchema, required=True)
    margin = fields.Nested(MeanSchema, required=True, metadata={"description": "Closeness: the winner's score minus "
                                                                "the runner-up's."})
    lead_changes = fields.Nested(MeanSchema, required=True, metadata={
        "description": "How often the leader by `Ruleset.standings` changed, turn by turn."})
    halfway_leader_wins = fields.Nested(RateSchema, required=True,
                                        metadata={"description": "How often the leader at the halfway turn wins."})
    halfway_last_wins = fields.Nested(RateSchema, required=True,
                                      metadata={"description": "How often the last seat at the halfway turn wins."})
    end_reasons = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    eliminations = fields.Dict(required=True, metadata={"description": (
        "Games with a seat eliminated (`count`, `games`, `rate`, `ci95`), `seats_per_game`, and `first_at`: the turn "
        "of a game's first elimination as a share of its length (`mean`, `ci95`), by `Ruleset.eliminated_seats`.")})
    mean_scores = fields.List(fields.Float(), required=True)
    cpu_seconds = fields.Float(required=True)
    difference = fields.Nested(DifferencesSchema, allow_none=True, required=True,
                               metadata={"description": "Against the base (null for the base)."})
    precision = fields.Nested(PrecisionSchema, metadata={"description": "A precision experiment's standing."})
    drama = fields.Nested(DramaSchema, metadata={"description": "With `drama`: the game's drama from its win "
                                                 "chances (docs/experiments.md)."})


class ExperimentResultSchema(Schema):
    variants = fields.List(fields.Nested(VariantResultSchema), required=True, metadata={"description": "Base first."})
    summary = fields.String(allow_none=True, required=True, metadata={
        "description": "The variant that best balances the first mover (`first_mover_edge`), against the "
                       "base, in a sentence; with `drama`, then the base's drama and the variant that moves "
                       "kingmaking most."})
    multiple_comparisons = fields.String(required=True, metadata={"description": "How p_holm is adjusted."})
    rules_version = fields.Integer(required=True, metadata={
        "description": "The ruleset's rules version the games were played under."})


class VariantProgressSchema(Schema):
    name = fields.String(required=True)
    games = fields.Integer(required=True)
    stopped = fields.String(allow_none=True, required=True)


class ExperimentProgressSchema(Schema):
    round = fields.Integer(required=True, metadata={"description": "Rounds decided so far."})
    games_done = fields.Integer(required=True, metadata={"description": "Games of every variant played so far."})
    games_budget = fields.Integer(required=True, metadata={"description": "The most games it may play."})
    chunks_done = fields.Integer(required=True)
    chunks_queued = fields.Integer(required=True)
    variants = fields.List(fields.Nested(VariantProgressSchema), required=True)
    workers = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True, metadata={
        "description": "Worker process (host:pid) -> chunks it recorded: how the study spread over the workers."})


class ExperimentSchema(Schema):
    id = fields.String(required=True)
    status = fields.String(required=True, metadata={"enum": STATUSES})
    ruleset = fields.String(required=True)
    players = fields.Integer(required=True)
    bots = fields.List(fields.String(), required=True)
    options = fields.Dict(required=True)
    sweep = fields.Dict(required=True)
    games = fields.Integer(allow_none=True, required=True)
    stop = fields.Dict(allow_none=True, required=True)
    seed = fields.Integer(required=True)
    chunk_size = fields.Integer(required=True)
    drama = fields.Boolean(required=True, metadata={"description": "Whether the drama measures were asked for."})
    progress = fields.Nested(ExperimentProgressSchema, required=True)
    created_at = fields.String(required=True)
    started_at = fields.String(allow_none=True, required=True)
    finished_at = fields.String(allow_none=True, required=True)
    elapsed = fields.Float(required=True)
    cpu_seconds = fields.Float(allow_none=True, required=True)
    result = fields.Nested(ExperimentResultSchema, required=True, metadata={
        "description": "The measures so far (final once `finished`)."})
    error = fields.String(allow_none=True, required=True)
