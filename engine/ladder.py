"""The strength ladder's arithmetic: which lineups a pairing of bots plays, and what their results say.

A pairing (A, B) plays ``2 * players`` lineups of equal length: A alone among B's, A's seat
rotated over every seat, and B alone among A's likewise, so each bot is measured both as the
odd one out and as the crowd, from every seat. Results are counted per seat-game (a bot in
three seats of a game plays three seat-games of it) and rated by a Bradley-Terry fit on
pairwise seat outcomes: a game's winner beats each seat of another bot; a draw (a shared win:
simulation statistics do not say who shared it) counts half for every pair of seats of
different bots. Pure: no I/O, no processes.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from engine.simulate import wilson_interval

#: Virtual draws added between every two bots, so a bot that always wins (or never does)
#: still gets a finite rating; against the hundreds of real outcomes of a pairing it is noise.
PRIOR_DRAWS = 1.0
#: Elo points per factor 10 of Bradley-Terry strength (the usual Elo scale).
ELO_SCALE = 400.0


@dataclass(frozen=True, slots=True)
class Lineup:
    """One seat's bot per seat: ``lone`` alone in ``seat``, the other bot of the pairing elsewhere."""

    bots: tuple[str, ...]
    lone: str
    seat: int


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one lineup's games gave: wins per seat, and draws (games without one winner)."""

    bots: tuple[str, ...]
    games: int
    wins: tuple[int, ...]
    draws: int


@dataclass(frozen=True, slots=True)
class BotRecord:
    bot: str
    seat_games: int
    wins: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.seat_games if self.seat_games else 0.0

    @property
    def ci95(self) -> list[float]:
        return wilson_interval(self.wins, self.seat_games)


def pairings(bots: Sequence[str], against: str | None = None) -> list[tuple[str, str]]:
    """Every two different bots once, in the order given; with ``against``, only that bot against each other."""
    if against is not None:
        return [(against, other) for other in bots if other != against]
    return [(a, b) for i, a in enumerate(bots) for b in bots[i + 1:]]


def lineups(a: str, b: str, players: int, both_ways: bool = True) -> list[Lineup]:
    """A alone in each seat among B's, then B alone in each seat among A's (only the latter when not
    ``both_ways``: a costly bot B is then measured in one seat a game)."""
    found = []
    for lone, crowd in ((a, b), (b, a)) if both_ways else ((b, a),):
        for seat in range(players):
            bots = [crowd] * players
            bots[seat] = lone
            found.append(Lineup(tuple(bots), lone, seat))
    return found


def games_per_lineup(games: int, players: int, both_ways: bool = True) -> int:
    """The games each lineup plays so a pairing plays at least ``games``, split evenly."""
    return max(1, math.ceil(games / ((2 if both_ways else 1) * players)))


def bot_records(outcomes: Iterable[Outcome]) -> dict[str, BotRecord]:
    """Each bot's seat-games and wins over these outcomes, in order of first appearance."""
    seat_games: dict[str, int] = {}
    wins: dict[str, int] = {}
    for outcome in outcomes:
        for seat, bot in enumerate(outcome.bots):
            seat_games[bot] = seat_games.get(bot, 0) + outcome.games
            wins[bot] = wins.get(bot, 0) + outcome.wins[seat]
    return {bot: BotRecord(bot, seat_games[bot], wins[bot]) for bot in seat_games}


def pairwise_wins(outcomes: Iterable[Outcome]) -> dict[tuple[str, str], float]:
    """``(x, y) -> `` how many times a seat of bot x beat a seat of bot y (a draw: half each way).

    Seats of the same bot are never compared: they say nothing about which bot is stronger.
    """
    beats: dict[tuple[str, str], float] = {}

    def add(pair: tuple[str, str], amount: float) -> None:
        beats[pair] = beats.get(pair, 0.0) + amount

    for outcome in outcomes:
        for seat, winner in enumerate(outcome.bots):
            for other in outcome.bots:
                if other != winner:
                    add((winner, other), outcome.wins[seat])
        for first, x in enumerate(outcome.bots):
            for y in outcome.bots[first + 1:]:
                if x != y:
                    add((x, y), outcome.draws / 2)
                    add((y, x), outcome.draws / 2)
    return beats


def bradley_terry(beats: Mapping[tuple[str, str], float], bots: Sequence[str], prior: float = PRIOR_DRAWS,
                  tolerance: float = 1e-12, max_iterations: int = 100_000) -> dict[str, float]:
    """Bradley-Terry strengths (geometric mean 1) that best explain ``beats``, by Hunter's MM iteration.

    ``P(x beats y) = s_x / (s_x + s_y)``. ``prior`` virtual draws between every two bots keep
    the fit finite when a bot wins (or loses) every comparison.
    """
    if len(set(bots)) != len(bots):
        raise ValueError(f"bots named twice: {list(bots)}")
    wins = {x: 0.0 for x in bots}
    meetings: dict[tuple[str, str], float] = {}
    for x in bots:
        for y in bots:
            if x != y:
                won = beats.get((x, y), 0.0) + prior / 2
                wins[x] += won
                meetings[(x, y)] = meetings.get((x, y), 0.0) + won
                meetings[(y, x)] = meetings.get((y, x), 0.0) + won
    strength = {x: 1.0 for x in bots}
    for _ in range(max_iterations):
        updated = {}
        for x in bots:
            denominator = sum(meetings[(x, y)] / (strength[x] + strength[y]) for y in bots if y != x)
            updated[x] = wins[x] / denominator if denominator else 1.0
        if any(value <= 0.0 for value in updated.values()):
            raise ValueError("a bot without a win: give a positive prior")
        scale = math.exp(sum(math.log(value) for value in updated.values()) / len(bots))
        updated = {x: value / scale for x, value in updated.items()}
        change = max(abs(math.log(updated[x] / strength[x])) for x in bots)
        strength = updated
        if change < tolerance:
            break
    return strength


def elo_ratings(strengths: Mapping[str, float], anchor: str) -> dict[str, float]:
    """Bradley-Terry strengths as Elo points, ``anchor`` at 0: 400 points is odds of 10 to 1."""
    base = strengths[anchor]
    return {bot: ELO_SCALE * math.log10(value / base) for bot, value in strengths.items()}


def interval_above(first: Sequence[float], second: Sequence[float]) -> bool:
    """True when interval ``first`` lies wholly above ``second``."""
    return first[0] > second[1]


def verdict(a: BotRecord, b: BotRecord) -> str:
    """Which bot's 95% interval lies wholly above the other's, if either."""
    if interval_above(a.ci95, b.ci95):
        return f"{a.bot} above {b.bot}"
    if interval_above(b.ci95, a.ci95):
        return f"{b.bot} above {a.bot}"
    return "overlap"


def pairing_summary(a: str, b: str, outcomes: Sequence[Outcome]) -> dict:
    """A pairing's games, draws, each bot's seat-game record with its interval, and the verdict."""
    records = bot_records(outcomes)
    return {
        "bots": [a, b],
        "games": sum(outcome.games for outcome in outcomes),
        "draws": sum(outcome.draws for outcome in outcomes),
        "records": {bot: record_dict(records[bot]) for bot in (a, b)},
        "verdict": verdict(records[a], records[b]),
    }


def ruleset_ratings(bots: Sequence[str], outcomes: Sequence[Outcome]) -> list[dict]:
    """Each bot's record over all its games and its Elo rating (``random`` at 0 if it played,
    else the first bot), in the order given."""
    records = bot_records(outcomes)
    ratings = elo_ratings(bradley_terry(pairwise_wins(outcomes), bots),
                          "random" if "random" in bots else bots[0])
    return [{**record_dict(records[bot]), "elo": round(ratings[bot], 1)} for bot in bots]


def record_dict(record: BotRecord) -> dict:
    return {"bot": record.bot, "seat_games": record.seat_games, "wins": record.wins,
            "win_rate": round(record.win_rate, 6), "ci95": record.ci95}
