"""Moving around the loop: what a move puts on the turn's agenda."""

from __future__ import annotations

from engine.games.hitchiker.state import HitchikerState, Step


def forward(state: HitchikerState, city_count: int, seat: int, steps: int) -> None:
    """Clockwise: every owned Hometown passed on the way (in order), then the landing city."""
    start = state.seats[seat].position
    homes = state.seats[seat].hometowns
    for step in range(1, steps):
        city = (start + step) % city_count
        if city in homes:
            state.agenda.append(Step("pass", city))
    state.agenda.append(Step("land", (start + steps) % city_count))


def backward(state: HitchikerState, city_count: int, seat: int, steps: int) -> None:
    """Counter-clockwise (a Bad Ride): nothing is passed, only the landing city counts."""
    state.agenda.append(Step("land", (state.seats[seat].position - steps) % city_count))


def distance_to(state: HitchikerState, city_count: int, seat: int, wanted) -> int:
    """Clockwise steps (1..city_count) to the first city for which ``wanted(city)``, or 0 for none."""
    start = state.seats[seat].position
    for step in range(1, city_count + 1):
        if wanted((start + step) % city_count):
            return step
    return 0
