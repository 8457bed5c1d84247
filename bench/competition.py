"""Competition speed: the engine's ratings and pairings, and what the service adds to a game request.

    .venv/bin/python bench/competition.py [--repeat 2]

Prints, twice by default (so the machine's noise shows):

- openskill Plackett-Luce updates of a 4-seat game per second (``engine.competition.rate``);
- milliseconds to plan a Swiss round of 256 entrants at 4-seat tables after 5 rounds (the largest
  field a tournament takes; engine.competition.table_search), and a duplicate round;
- ``GET /v1/games/{id}`` per second through the Flask test client on Redis (``REDIS_URL``, else an
  embedded server), and the time of the closed-duplicate-round guard alone (one control-Redis GET
  per request under ``/v1/games/{id}``), called in that request's context;
- the time of ``POST /v1/tournaments`` with 256 entrants (it makes the first round's 64 games).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from contextlib import ExitStack

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine.competition import Rating, TableResult, TournamentPlan, plan_round, rate


def ratings_per_second(seconds: float = 1.0) -> float:
    players, ranks, count = [Rating(), Rating(27.0, 6.0), Rating(22.0, 5.0), Rating(25.0, 8.0)], [1, 2, 2, 4], 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        players = rate(players, ranks)
        count += 1
    return count / (time.perf_counter() - began)


def planning_ms(format: str, entrants: int, size: int, rounds_before: int) -> float:
    plan = TournamentPlan(format, tuple(f"p{n}" for n in range(entrants)), size, rounds_before + size, 1)
    results = []
    for r in range(rounds_before):
        for t, table in enumerate(plan_round(plan, r, results)):
            results.append(TableResult(r, t, table, tuple(range(1, size + 1))))
    began = time.perf_counter()
    plan_round(plan, rounds_before, results)
    return (time.perf_counter() - began) * 1000


def game_reads_per_second(redis_url: str, seconds: float) -> tuple[float, float]:
    from api.app import create_app
    from api.competition import closed_round

    app = create_app({"REDIS_URL": redis_url, "BOT_QUEUE": None})
    client = app.test_client()
    game = client.post("/v1/games", json={"ruleset": "whipcash", "seed": 1,
                                          "seats": [{"name": "a"}, {"name": "b"}]}).get_json()
    path = f"/v1/games/{game['id']}"

    def measure() -> float:
        count, began = 0, time.perf_counter()
        while time.perf_counter() - began < seconds:
            assert client.get(path).status_code == 200
            count += 1
        return count / (time.perf_counter() - began)

    assert closed_round.guard in app.before_request_funcs[None]
    rate = measure()
    began = time.perf_counter()
    made = client.post("/v1/tournaments", json={"ruleset": "whipcash", "format": "swiss", "table_size": 4,
                                                 "entrants": [f"bot:random#{n}" for n in range(256)]})
    assert made.status_code == 201, made.get_json()
    print(f"  POST /v1/tournaments, 256 bots at 4-seat tables (its first 64 games made): "
          f"{(time.perf_counter() - began) * 1000:,.0f} ms")
    calls = 2000
    with app.test_request_context(path):
        began = time.perf_counter()
        for _ in range(calls):
            closed_round.guard()
        guard_us = (time.perf_counter() - began) / calls * 1e6
    return rate, guard_us


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=1.0, help="per game-read measurement")
    args = parser.parse_args()
    with ExitStack() as stack:
        from api.service.embedded_redis import redis_url_or_embedded

        redis_url = redis_url_or_embedded(stack)
        print(f"machine: {os.cpu_count()} cores; Redis {redis_url}")
        for run in range(1, args.repeat + 1):
            print(f"run {run}:")
            print(f"  openskill updates of a 4-seat game: {ratings_per_second():,.0f}/s")
            print(f"  plan a Swiss round, 256 entrants at 4 seats, after 5 rounds: "
                  f"{planning_ms('swiss', 256, 4, 5):.0f} ms")
            print(f"  plan a duplicate round, 256 entrants at 4 seats: {planning_ms('duplicate', 256, 4, 1):.2f} ms")
            rate, guard_us = game_reads_per_second(redis_url, args.seconds)
            print(f"  GET /v1/games/{{id}} (test client): {rate:,.0f}/s, {1e6 / rate:,.0f} µs each, of which the "
                  f"closed-round guard {guard_us:.0f} µs")


if __name__ == "__main__":
    main()
