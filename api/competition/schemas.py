"""Request and response bodies of players, ratings and tournaments (docs/competition.md)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

MAX_PAGE = 100
MAX_OFFSET = 100_000


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
        "description": "The average cost of the player's moves in win-chance points; null until the service "
                       "analyses games."})


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
    next = fields.Integer(required=True, allow_none=True, metadata={
        "description": "Pass as `cursor` for the next page; null on the last."})


class LeaderboardEntrySchema(RatingSchema):
    place = fields.Integer(required=True)
    player = fields.String(required=True)
    games = fields.Integer(required=True)


class LeaderboardSchema(Schema):
    ruleset = fields.String(required=True)
    ratings = fields.List(fields.Nested(LeaderboardEntrySchema), required=True, metadata={
        "description": "Best `ordinal` first."})
    next = fields.Integer(required=True, allow_none=True, metadata={
        "description": "Pass as `cursor` for the next page; null on the last."})
