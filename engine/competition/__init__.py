"""Competition without a server: ranks from a game's result, Weng-Lin ratings, tournament pairings
and standings (docs/competition.md). Pure: no I/O; the service (api/competition) stores what these
functions compute."""

from engine.competition.pairing import (
    FORMATS,
    TournamentPlan,
    plan_round,
    plan_rounds_default,
    table_seeds,
    tournament_problems,
)
from engine.competition.ranks import ranks_from_result
from engine.competition.ratings import Rating, rate
from engine.competition.standings import Standing, TableResult, rank_points, standings

__all__ = [
    "FORMATS",
    "Rating",
    "Standing",
    "TableResult",
    "TournamentPlan",
    "plan_round",
    "plan_rounds_default",
    "rank_points",
    "ranks_from_result",
    "rate",
    "standings",
    "table_seeds",
    "tournament_problems",
]
