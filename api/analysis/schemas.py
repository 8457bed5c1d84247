"""The analysis resource's query and answer (docs/analysis.md, "Game analysis", says what each part means)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

#: The longest ``?wait=`` a request may hold its connection for an analysis, in seconds.
MAX_WAIT_SECONDS = 10

_CHANCE = "a win chance, 0 .. 1 (a multiple of 2**-20, so sums of them are exact)"


class AnalysisQuerySchema(Schema):
    wait = fields.Float(load_default=0.0, validate=validate.Range(min=0, max=MAX_WAIT_SECONDS), metadata={
        "description": f"Seconds (0 .. {MAX_WAIT_SECONDS}) to wait for the analysis before answering 202; "
                       "default 0: answer at once."})


class AnalysisOptionSchema(Schema):
    action = fields.Dict(required=True, metadata={"description": "A candidate action the seat was offered."})
    chance = fields.Float(required=True, metadata={
        "description": f"The mover's expected win chance after it, before its dice and cards: {_CHANCE}."})


class AnalysisMoveSchema(Schema):
    index = fields.Integer(required=True, metadata={"description": "The log entry (0-based) of the move."})
    version = fields.Integer(required=True, allow_none=True, metadata={"description": "The version it led to."})
    seat = fields.Integer(required=True)
    kind = fields.String(required=True, metadata={"description": "The decision's kind."})
    action = fields.Dict(required=True, metadata={"description": "The action played."})
    timed_out = fields.Boolean(required=True, metadata={"description": "The service played it: time ran out."})
    chance_before = fields.Float(required=True, metadata={"description": "The mover's win chance before it."})
    chosen = fields.Float(required=True, metadata={"description": "Q of the action played, for the mover."})
    chosen_chances = fields.List(fields.Float(), required=True, metadata={
        "description": "Q of the action played, for every seat (each seat's decision part is this minus its "
                       "chance before)."})
    best = fields.Float(required=True, metadata={"description": "The best candidate's Q, for the mover."})
    average = fields.Float(required=True, metadata={"description": "The mean of the candidates' Q, for the mover."})
    best_action = fields.Dict(required=True)
    cost = fields.Float(required=True, metadata={"description": "best - chosen: what the move cost the mover."})
    options = fields.List(fields.Nested(AnalysisOptionSchema), required=True, metadata={
        "description": "Every candidate weighed (at most 8; the action played among them)."})


class AnalysisBriefMoveSchema(Schema):
    index = fields.Integer(required=True)
    version = fields.Integer(required=True, allow_none=True)
    seat = fields.Integer(required=True)
    kind = fields.String(required=True)
    action = fields.Dict(required=True)
    chosen = fields.Float(required=True)
    best = fields.Float(required=True)
    best_action = fields.Dict(required=True)
    cost = fields.Float(required=True)


class KeyMomentSchema(Schema):
    index = fields.Integer(required=True, metadata={"description": "The log entry (0-based)."})
    version = fields.Integer(required=True, allow_none=True)
    seat = fields.Integer(required=True, allow_none=True, metadata={
        "description": "The seat that acted (null: a seat change)."})
    action = fields.Dict(required=True, allow_none=True)
    affected = fields.Integer(required=True, metadata={"description": "The seat whose chance moved most."})
    swing = fields.Float(required=True, metadata={"description": "Its change of win chance in that entry."})
    decision = fields.Float(required=True, metadata={"description": "The decision part of the swing."})
    chance = fields.Float(required=True, metadata={"description": "The chance part of the swing."})
    cause = fields.String(required=True, metadata={
        "description": "`decision` or `chance` (the larger part), or the kind of a seat change (`seat_joined`)."})
    events = fields.List(fields.Dict(), required=True, metadata={"description": "The entry's events (at most 12)."})
    more_events = fields.Integer(required=True, metadata={"description": "Events of the entry left out."})


class SeatSplitSchema(Schema):
    seat = fields.Integer(required=True)
    start = fields.Float(required=True, metadata={"description": "The seat's win chance at the start (or its join)."})
    result = fields.Float(required=True, metadata={"description": "Its share of the win (1, 1/k, or 0)."})
    change = fields.Float(required=True, metadata={"description": "result - start = skill + luck + others, exactly."})
    skill = fields.Float(required=True, metadata={"description": "The decision parts of its own moves."})
    luck = fields.Float(required=True, metadata={"description": "The chance parts of every action."})
    others = fields.Float(required=True, metadata={
        "description": "The decision parts of the other seats' moves (and players joining)."})
    decisions = fields.Integer(required=True, metadata={"description": "Its moves that offered a choice."})
    cost = fields.Float(required=True, metadata={"description": "The sum of its moves' costs."})
    choice_gain = fields.Float(required=True, metadata={
        "description": "The sum over its moves of chosen - average: how much better it chose than the mean of "
                       "its candidates (not part of the split; free of the model's drift)."})
    costliest_move = fields.Nested(AnalysisBriefMoveSchema, required=True, allow_none=True, metadata={
        "description": "Its move of the largest positive cost (null: none cost anything)."})


class AnalysisProgressSchema(Schema):
    entries_done = fields.Integer(required=True, metadata={"description": "Log entries analysed so far."})
    entries = fields.Integer(required=True, metadata={"description": "Log entries to analyse in all."})


class AnalysisSchema(Schema):
    game_id = fields.String(required=True)
    version = fields.Integer(required=True, metadata={"description": "The finished game's last version."})
    status = fields.String(required=True, validate=validate.OneOf(["ready", "pending"]), metadata={
        "description": "`ready` (200, with the analysis) or `pending` (202: the analysis workers are on it)."})
    progress = fields.Nested(AnalysisProgressSchema, allow_none=True, metadata={
        "description": "Only while `pending` (202): how far the analysis job is, written by the job at most once a "
                       "second or every twentieth of the log; null while it is queued (not started yet)."})
    format = fields.Integer(metadata={"description": "The analysis format's version (1)."})
    ruleset = fields.String()
    rules_version = fields.Integer()
    game = fields.String(allow_none=True)
    players = fields.Integer(metadata={"description": "Seats at the end (a Hitchiker game may have gained some)."})
    entries = fields.Integer(metadata={"description": "Log entries analysed."})
    result = fields.Dict(allow_none=True, metadata={"description": "The game's result, as in its record."})
    method = fields.Dict(metadata={
        "description": "How it was estimated: `samples` a candidate, `max_candidates`, `quantum`, the model."})
    chances = fields.List(fields.List(fields.Float()), metadata={
        "description": f"Every seat's win chance at every version (row 0: the setup; the last: the result): "
                       f"{_CHANCE}."})
    moves = fields.List(fields.Nested(AnalysisMoveSchema), metadata={
        "description": "Every decision that offered a choice, with its options' chances and its cost."})
    key_moments = fields.List(fields.Nested(KeyMomentSchema), metadata={
        "description": "The five entries that moved one seat's chance most, in game order."})
    costliest_move = fields.Nested(AnalysisBriefMoveSchema, allow_none=True, metadata={
        "description": "The game's move of the largest positive cost (null: none cost anything)."})
    split = fields.List(fields.Nested(SeatSplitSchema), metadata={"description": "The luck-skill split per seat."})
    work = fields.Integer(metadata={
        "description": "Engine actions the analysis cost (counted against the caller's app's search work)."})
    samples = fields.Integer(metadata={"description": "Options applied to a chance sample, in all."})
    most_samples_per_entry = fields.Integer()
