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
        "description": f"The mover's mean win chance over the play-outs after it (the same worlds, dice and "
                       f"continuations for every candidate): {_CHANCE}."})


class AnalysisRemeasureSchema(Schema):
    cost = fields.Float(required=True, metadata={
        "description": "P(best) - P(chosen) on the fresh worlds, for the mover (negative: they disagree with the "
                       "pricing)."})
    cost_se = fields.Float(required=True, metadata={"description": "Its standard error, from the paired play-outs."})
    playouts = fields.Integer(required=True, metadata={"description": "Fresh worlds each of the two was played in."})
    p_value = fields.Float(required=True, metadata={
        "description": "The one-sided p-value of \"the best beats the one played\" on the fresh worlds alone."})
    priced_cost = fields.Float(required=True, metadata={
        "description": "best - chosen as priced among the candidates (before the re-measure)."})


class AnalysisMoveSchema(Schema):
    index = fields.Integer(required=True, metadata={"description": "The log entry (0-based) of the move."})
    version = fields.Integer(required=True, allow_none=True, metadata={"description": "The version it led to."})
    seat = fields.Integer(required=True)
    kind = fields.String(required=True, metadata={"description": "The decision's kind."})
    action = fields.Dict(required=True, metadata={"description": "The action played."})
    timed_out = fields.Boolean(required=True, metadata={"description": "The service played it: time ran out."})
    chance_before = fields.Float(required=True, metadata={"description": "The mover's win chance before it."})
    chosen = fields.Float(required=True, metadata={"description": "P of the action played, for the mover."})
    chosen_chances = fields.List(fields.Float(), required=True, metadata={
        "description": "P of the action played, for every seat."})
    average_chances = fields.List(fields.Float(), required=True, metadata={
        "description": "The mean of the candidates' P, for every seat."})
    choice_parts = fields.List(fields.Float(), required=True, metadata={
        "description": "Every seat's choice part of the move: P(chosen) - the candidates' mean P for it; the mover's "
                       "is its skill, the other seats' their `others`."})
    best = fields.Float(required=True, metadata={"description": "The best candidate's P, for the mover."})
    average = fields.Float(required=True, metadata={"description": "The mean of the candidates' P, for the mover."})
    best_action = fields.Dict(required=True)
    cost = fields.Float(required=True, metadata={
        "description": "What the move cost the mover, an estimate >= 0 (see `cost_se`, `costly`): best - chosen, "
                       "or for a re-measured move the re-measure's cost (`remeasure`; 0 where it came out "
                       "negative)."})
    cost_se = fields.Float(required=True, metadata={
        "description": "The cost's standard error, from the paired play-outs (the re-measure's, if any)."})
    cost_ci95 = fields.List(fields.Float(), required=True, validate=validate.Length(equal=2), metadata={
        "description": "The cost's 95% interval, `[low, high]` (± 1.96 `cost_se` about the cost, or about the "
                       "re-measure's own cost); it may reach below 0."})
    p_value = fields.Float(required=True, metadata={
        "description": "The one-sided p-value of \"some candidate beats the one played\" (Bonferroni over the "
                       "candidates), which the game's costly calls test."})
    costly = fields.Boolean(required=True, metadata={
        "description": "The move cost something beyond the play-outs' noise: Holm's step-down over the game's "
                       "moves rejects \"no candidate beats it\" at the method's `costly_alpha`, its re-measure "
                       "on fresh worlds says the best beats it at the same rate, and cost > 0."})
    remeasure = fields.Nested(AnalysisRemeasureSchema, required=True, allow_none=True, metadata={
        "description": "A move whose `p_value` is at most `costly_alpha` is played again, the one played and the "
                       "best candidate, in fresh worlds: this is what they gave (null: not re-measured, or the "
                       "best was refused in one of them)."})
    playouts = fields.Integer(required=True, metadata={"description": "Play-outs of each candidate."})
    options = fields.List(fields.Nested(AnalysisOptionSchema), required=True, metadata={
        "description": "Every candidate weighed (at most the method's `max_candidates`; the action played first)."})


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
    cost_se = fields.Float(required=True)
    cost_ci95 = fields.List(fields.Float(), required=True, validate=validate.Length(equal=2))
    costly = fields.Boolean(required=True)


class KeyMomentSchema(Schema):
    index = fields.Integer(required=True, metadata={"description": "The log entry (0-based)."})
    version = fields.Integer(required=True, allow_none=True)
    seat = fields.Integer(required=True, allow_none=True, metadata={
        "description": "The seat that acted (null: a seat change)."})
    action = fields.Dict(required=True, allow_none=True)
    affected = fields.Integer(required=True, metadata={"description": "The seat whose chance moved most."})
    swing = fields.Float(required=True, metadata={"description": "Its change of win chance in that entry."})
    decision = fields.Float(required=True, metadata={"description": "The choice part of the swing."})
    chance = fields.Float(required=True, metadata={"description": "The luck part of the swing."})
    drift = fields.Float(required=True, metadata={"description": "The drift part of the swing."})
    cause = fields.String(required=True, metadata={
        "description": "`decision`, `chance` or `drift` (the largest part), or the kind of a seat change "
                       "(`seat_joined`)."})
    events = fields.List(fields.Dict(), required=True, metadata={"description": "The entry's events (at most 12)."})
    more_events = fields.Integer(required=True, metadata={"description": "Events of the entry left out."})


class SeatSplitSchema(Schema):
    seat = fields.Integer(required=True)
    start = fields.Float(required=True, metadata={"description": "The seat's win chance at the start (or its join)."})
    result = fields.Float(required=True, metadata={"description": "Its share of the win (1, 1/k, or 0)."})
    change = fields.Float(required=True, metadata={
        "description": "result - start = skill + luck + others + drift, exactly."})
    skill = fields.Float(required=True, metadata={
        "description": "What its own choices did against the options it had: over its moves with a choice, "
                       "P(chosen) - the candidates' mean P (a seat choosing at random has about 0; a move with "
                       "one option has none). `cost` says how far each choice was from the best."})
    luck = fields.Float(required=True, metadata={
        "description": "What chance did (dice, spins, shuffles, draws), over every action: the value after the "
                       "chance outcome minus its expectation over that chance event; it averages zero."})
    others = fields.Float(required=True, metadata={
        "description": "What the other seats' choices did to it, against their options' mean (and players joining)."})
    drift = fields.Float(required=True, metadata={
        "description": "The rest: forced moves' deterministic results and the value model's inconsistency "
                       "between versions (neither skill nor luck)."})
    decisions = fields.Integer(required=True, metadata={"description": "Its moves that offered a choice."})
    cost = fields.Float(required=True, metadata={"description": "The sum of its moves' costs (estimates)."})
    costly_moves = fields.Integer(required=True, metadata={"description": "Its moves called `costly`."})
    choice_gain = fields.Float(required=True, metadata={
        "description": "The sum over its moves of chosen - average: how much better it chose than its candidates' "
                       "mean (equal to its skill since format 2; kept from format 1)."})
    costliest_move = fields.Nested(AnalysisBriefMoveSchema, required=True, allow_none=True, metadata={
        "description": "Its costly move of the largest cost (null: none was costly)."})


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
    format = fields.Integer(metadata={
        "description": "The analysis format's version (2): a game analysed by an older format is analysed anew."})
    ruleset = fields.String()
    rules_version = fields.Integer()
    game = fields.String(allow_none=True)
    players = fields.Integer(metadata={"description": "Seats at the end (a Hitchiker game may have gained some)."})
    entries = fields.Integer(metadata={"description": "Log entries analysed."})
    result = fields.Dict(allow_none=True, metadata={"description": "The game's result, as in its record."})
    method = fields.Dict(metadata={
        "description": "How it was estimated (docs/analysis.md, \"The estimator\"): `playouts` per candidate, "
                       "their `horizon` (actions of `rollout_bot` before the model scores them), "
                       "`chance_samples` and `chance_horizon` of every chance event, `mover_worlds` (1: the "
                       "play-outs redraw what the mover could not see), `max_candidates`, `costly_alpha`, "
                       "`quantum` and the value `model`."})
    chances = fields.List(fields.List(fields.Float()), metadata={
        "description": f"Every seat's win chance at every version (row 0: the setup; the last: the result): "
                       f"{_CHANCE}."})
    moves = fields.List(fields.Nested(AnalysisMoveSchema), metadata={
        "description": "Every decision that offered a choice, with its options' chances and its cost."})
    key_moments = fields.List(fields.Nested(KeyMomentSchema), metadata={
        "description": "The five entries that moved one seat's chance most, in game order."})
    costliest_move = fields.Nested(AnalysisBriefMoveSchema, allow_none=True, metadata={
        "description": "The game's costly move of the largest cost (null: none was costly)."})
    split = fields.List(fields.Nested(SeatSplitSchema), metadata={"description": "The luck-skill split per seat."})
    work = fields.Integer(metadata={
        "description": "Engine actions the analysis cost (counted against the caller's app's search work)."})
    samples = fields.Integer(metadata={"description": "`playouts` + `chance_samples`."})
    playouts = fields.Integer(metadata={"description": "Candidates' play-outs, in all."})
    chance_samples = fields.Integer(metadata={"description": "Re-dealt chance outcomes scored, in all."})
    most_samples_per_entry = fields.Integer(metadata={"description": "The most play-outs one entry took."})
    remeasured = fields.Integer(metadata={
        "description": "Moves re-measured in fresh worlds (see `moves[].remeasure`)."})
