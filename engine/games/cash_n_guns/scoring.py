"""End of the game: diamond bonus, totals and tie-breaks, last player standing."""

from __future__ import annotations

from engine.core.result import Result, best_seats
from engine.games.cash_n_guns.cards import diamond_cards, loot_value
from engine.games.cash_n_guns.state import NOBODY, CashNGunsState

LAST_STANDING = "last_standing"
ALL_DEAD = "all_dead"
ROUNDS_PLAYED = "rounds_played"
TURN_CAP = "turn_cap"


def contenders(state: CashNGunsState) -> list[int]:
    """Who may win: the living; if the last shoot-out killed everyone, those who died in it."""
    living = [seat for seat, g in enumerate(state.gangsters) if g.alive]
    if living:
        return living
    last_death = max(g.died_in for g in state.gangsters)
    return [seat for seat, g in enumerate(state.gangsters) if g.died_in == last_death]


def diamond_bonus_winner(state: CashNGunsState, seats: list[int]) -> int:
    """The single contender with the most diamond cards, else NOBODY (a tie gets no bonus)."""
    counts = {seat: diamond_cards(state.gangsters[seat].loot) for seat in seats}
    best = max(counts.values(), default=0)
    leaders = [seat for seat, count in counts.items() if count == best]
    return leaders[0] if best > 0 and len(leaders) == 1 else NOBODY


def final_result(state: CashNGunsState) -> Result:
    gangsters = state.gangsters
    seats = contenders(state)
    totals = [loot_value(g.loot, state.painting_set_values) for g in gangsters]
    bonus_to = diamond_bonus_winner(state, seats)
    if bonus_to != NOBODY:
        totals[bonus_to] += state.diamond_bonus
    if state.ended == LAST_STANDING:
        winners = seats
    else:
        winners = best_seats(seats, key=lambda s: (totals[s], gangsters[s].wounds))
    others = [s for s in range(state.players) if s not in seats]
    ranking = sorted(seats, key=lambda s: (s not in winners, -totals[s], -gangsters[s].wounds, s))
    ranking += sorted(others, key=lambda s: (-gangsters[s].died_in, -totals[s], s))
    return Result(
        winners=winners,
        ranking=ranking,
        scores=totals,
        reason=state.ended,
        turn_cap_hit=state.ended == TURN_CAP,
        details={
            "alive": [g.alive for g in gangsters],
            "wounds": [g.wounds for g in gangsters],
            "diamond_cards": [diamond_cards(g.loot) for g in gangsters],
            "diamond_bonus_to": None if bonus_to == NOBODY else bonus_to,
            "rounds_played": state.turn,
        },
    )
