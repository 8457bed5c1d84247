"""Request and response bodies of players, ratings and tournaments (docs/competition.md)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from api.competition.games import RATED_DECISION_TIMEOUT
from api.competition.players import MOVE_COST_GAMES
from api.play.deadlines import MAX_TIMEOUT, MIN_TIMEOUT
from api.records.creation import MAX_SEED
from api.seats.schemas import PLAYER_ID_PATTERN
from engine.competition.pairing import FORMATS, MAX_ENTRANTS, MAX_ROUNDS
from engine.core.strict import StrictBoolean, WholeRegexp

MAX_PAGE = 100
MAX_OFFSET = 100_000
#: Seconds per decision of a tournament's people when it names none.


def next_cursor_field() -> fields.Integer:
    """A page's ``next``: what to pass as ``cursor`` (``PageQuerySchema``) for the page after it."""
    return fields.Integer(required=True, allow_none=True, metadata={
        "description": "Pass as `cursor` for the next page; null on the last."})


class PageQuerySchema(Schema):
    limit = fields.Integer(load_default=20, strict=False, validate=validate.Range(min=1, max=MAX_PAGE))
    cursor = fields.Integer(load_default=0, strict=False, validate=validate.Range(min=0, max=MAX_OFFSET), metadata={
        "description": "`next` of the previous page; absent: the first."})


class RatingSchema(Schema):
    mu = fields.Float(required=True, metadata={"description": "The mean of the skill belief (25 at first)."})
    sigma = fields.Float(required=True, metadata={"description": "Its spread: the uncertainty (25/3 at first)."})
    ordinal = fields.Float(required=True, metadata={"description": "`mu - 3 sigma`: the leaderboard's order."})


class RulesetRatingSchema(RatingSchema):
    ruleset = fields.String(required=True)
    games = fields.Integer(required=True, metadata={"description": "Rated games of this ruleset."})
    place = fields.Integer(required=True, metadata={"description": "The player's place on the app's leaderboard."})


class RecentResultSchema(Schema):
    game = fields.String(required=True)
    ruleset = fields.String(required=True)
    seat = fields.Integer(required=True)
    place = fields.Integer(required=True, metadata={"description": "1 = first; tied seats share a place."})
    players = fields.Integer(required=True)
    tournament = fields.String(required=True, allow_none=True)
    finished = fields.String(required=True, metadata={"description": "ISO 8601 UTC time it was rated."})
    before = fields.Nested(RatingSchema, required=True)
    after = fields.Nested(RatingSchema, required=True)


class PlayerSchema(Schema):
    player = fields.String(required=True)
    ratings = fields.List(fields.Nested(RulesetRatingSchema), required=True, metadata={
        "description": "One per ruleset the player has a rated game of."})
    games_played = fields.Integer(required=True, metadata={
        "description": "The player's games this app still keeps (rated or not, running or finished)."})
    recent = fields.List(fields.Nested(RecentResultSchema), required=True, metadata={
        "description": "The latest rated results, newest first (at most 20)."})
    move_cost = fields.Float(required=True, allow_none=True, metadata={
        "description": "The average cost of the player's moves with a choice, in win-chance points (0.05 = five "
                       "points), over the analyses already made (`GET /v1/games/{id}/analysis`, of the current "
                       "analysis format only) of its "
                       f"{MOVE_COST_GAMES} most recent games; null when none of them is analysed (or has a "
                       "choice of the player's)."})
    analysed_games = fields.Integer(required=True, metadata={
        "description": f"How many analysed games `move_cost` is based on (at most {MOVE_COST_GAMES})."})


class PlayerGameSchema(Schema):
    id = fields.String(required=True)
    seat = fields.Integer(required=True)
    ruleset = fields.String(required=True)
    status = fields.String(required=True)
    rated = fields.Boolean(required=True)
    tournament = fields.String(required=True, allow_none=True)
    created = fields.String(required=True, metadata={"description": "ISO 8601 UTC time."})


class PlayerGamesPageSchema(Schema):
    player = fields.String(required=True)
    games = fields.List(fields.Nested(PlayerGameSchema), required=True, metadata={"description": "Newest first."})
    next = next_cursor_field()


class LeaderboardEntrySchema(RatingSchema):
    place = fields.Integer(required=True)
    player = fields.String(required=True)
    games = fields.Integer(required=True)


class LeaderboardSchema(Schema):
    ruleset = fields.String(required=True)
    ratings = fields.List(fields.Nested(LeaderboardEntrySchema), required=True, metadata={
        "description": "Best `ordinal` first."})
    next = next_cursor_field()


# -- tournaments ------------------------------------------------------------------------------

class CreateTournamentSchema(Schema):
    ruleset = fields.String(required=True, validate=validate.Length(min=1, max=64))
    format = fields.String(required=True, validate=validate.OneOf(FORMATS), metadata={
        "description": "`round_robin`, `swiss` or `duplicate` (docs/competition.md, Formats)."})
    table_size = fields.Integer(required=True, strict=True, validate=validate.Range(min=2, max=16), metadata={
        "description": "Seats per table, within the ruleset's player range."})
    entrants = fields.List(fields.String(validate=WholeRegexp(PLAYER_ID_PATTERN, error="a player id, or "
                                                                  "bot:<bot>[#<tag>]")),
                           required=True, validate=validate.Length(min=2, max=MAX_ENTRANTS), metadata={
        "description": "Player ids and bots (`bot:<bot>[#<tag>]`), in seeding order; their number must "
                       "divide into tables of `table_size`."})
    rounds = fields.Integer(load_default=None, allow_none=True, strict=True,
                            validate=validate.Range(min=1, max=MAX_ROUNDS), metadata={
        "description": "Absent: the format's default (docs/competition.md). A duplicate tournament's is a "
                       "multiple of `table_size`."})
    decision_timeout = fields.Integer(load_default=RATED_DECISION_TIMEOUT, strict=True,
                                      validate=validate.Range(min=MIN_TIMEOUT, max=MAX_TIMEOUT), metadata={
        "description": "Seconds each person has per decision before its default is played (a tournament "
                       "never waits for ever)."})
    options = fields.Dict(keys=fields.String(), load_default=dict, metadata={
        "description": "Game options of every table (the ruleset's `options_schema`)."})
    rated = StrictBoolean(load_default=False, metadata={"description": "Rate every game of the tournament."})
    seed = fields.Integer(load_default=None, allow_none=True, strict=True, validate=validate.Range(min=0, max=MAX_SEED),
                          metadata={"description": "Seeds every table's game; random when absent (and then kept "
                                    "secret until the tournament ends)."})


class TournamentTableSchema(Schema):
    game = fields.String(required=True)
    entrants = fields.List(fields.String(), required=True, metadata={"description": "By seat."})
    ranks = fields.List(fields.Integer(), required=True, allow_none=True, metadata={
        "description": "Each seat's place once the round has ended (1 = first; ties share)."})
    seed = fields.Integer(required=True, allow_none=True, metadata={
        "description": "The game's seed once its round has ended; null before (a running duplicate round's "
                       "tables share theirs)."})
    tokens = fields.Dict(keys=fields.String(), values=fields.String(), required=True, allow_none=True, metadata={
        "description": "Secret: each person's seat token, by entrant; only for the app's secret key (null "
                       "otherwise)."})


class TournamentRoundSchema(Schema):
    round = fields.Integer(required=True)
    started = fields.String(required=True)
    finished = fields.String(required=True, allow_none=True)
    tables = fields.List(fields.Nested(TournamentTableSchema), required=True)


class StandingSchema(Schema):
    place = fields.Integer(required=True)
    entrant = fields.String(required=True)
    points = fields.Float(required=True)
    wins = fields.Integer(required=True)
    opposition = fields.Float(required=True)
    matchpoints = fields.Float(required=True, allow_none=True, metadata={"description": "Duplicate only."})
    games = fields.Integer(required=True)


class TournamentSchema(Schema):
    id = fields.String(required=True)
    ruleset = fields.String(required=True)
    rules_version = fields.Integer(required=True)
    format = fields.String(required=True)
    table_size = fields.Integer(required=True)
    entrants = fields.List(fields.String(), required=True)
    rounds = fields.Integer(required=True)
    decision_timeout = fields.Integer(required=True)
    options = fields.Dict(required=True)
    rated = fields.Boolean(required=True)
    status = fields.String(required=True, validate=validate.OneOf(["running", "finished", "cancelled"]))
    reason = fields.String(required=True, allow_none=True, metadata={
        "description": "Why a tournament was cancelled: `app_cancelled` (`DELETE /v1/tournaments/{id}`) or "
                       "`rules_version`; while it runs, `search_quota` when its next round waits for the app's "
                       "search work of the day (docs/competition.md)."})
    round = fields.Integer(required=True, metadata={"description": "The current (or last) round, from 0."})
    created = fields.String(required=True)
    updated = fields.String(required=True)
    standings = fields.List(fields.Nested(StandingSchema), required=True, metadata={
        "description": "After the rounds that have ended, best first (docs/competition.md, tie-breaks)."})
    played = fields.List(fields.Nested(TournamentRoundSchema), required=True, metadata={
        "description": "Every round started so far."})


class TournamentSummarySchema(Schema):
    id = fields.String(required=True)
    ruleset = fields.String(required=True)
    format = fields.String(required=True)
    status = fields.String(required=True)
    round = fields.Integer(required=True)
    rounds = fields.Integer(required=True)
    created = fields.String(required=True)


class TournamentListSchema(Schema):
    tournaments = fields.List(fields.Nested(TournamentSummarySchema), required=True, metadata={
        "description": "The app's tournaments, newest first (at most 100)."})
