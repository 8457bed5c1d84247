"""Ratings by the Weng-Lin Bayesian approximation with the Plackett-Luce model (the ``openskill``
library): every player is a normal belief (``mu``, ``sigma``) about their skill, updated from the
places of a free-for-all game of any number of seats, ties included (docs/competition.md, "Ratings")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

#: The library's defaults: mu 25, sigma 25/3, beta sigma/2, tau (the drift added before each game) mu/300.
MODEL = PlackettLuce()
#: How many sigmas below ``mu`` the leaderboard's ``ordinal`` sits: 99.7% sure the skill is at least that.
ORDINAL_SIGMAS = 3.0


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float = MODEL.mu
    sigma: float = MODEL.sigma

    @property
    def ordinal(self) -> float:
        """``mu - 3 sigma``: the leaderboard's order, low for a player the service knows little of."""
        return self.mu - ORDINAL_SIGMAS * self.sigma

    def to_dict(self) -> dict:
        return {"mu": self.mu, "sigma": self.sigma, "ordinal": self.ordinal}


def rate(ratings: Sequence[Rating], ranks: Sequence[int]) -> list[Rating]:
    """The players' ratings after a game where player ``i`` (rated ``ratings[i]``) finished at place
    ``ranks[i]`` (1 best, ties equal). Each player is a team of one."""
    if len(ratings) != len(ranks):
        raise ValueError("one rank per rating")
    if len(ratings) < 2:
        return list(ratings)
    teams = [[MODEL.rating(mu=rating.mu, sigma=rating.sigma)] for rating in ratings]
    rated = MODEL.rate(teams, ranks=[float(rank) for rank in ranks])
    return [Rating(team[0].mu, team[0].sigma) for team in rated]
