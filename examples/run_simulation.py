"""Queue a bulk simulation on the workers and wait for it, showing progress.

    python examples/run_simulation.py [BASE_URL]

Needs at least one worker (`rulehouse worker`, or `rulehouse serve`, which starts some).
"""

from __future__ import annotations

import sys

import requests
from rulehouse_sdk import Client


def main(base_url: str = "http://127.0.0.1:8000", *, games: int = 400, seed: int = 42,
         session: requests.Session | None = None) -> dict:
    with Client(base_url, session=session) as service:
        simulation = service.create_simulation("monopoly-cars2", games, players=2, bots=["heuristic", "random"],
                                               seed=seed)

        def show(progress_of: dict) -> None:
            progress = progress_of["progress"]
            print(f"\r{progress_of['status']}: {progress['games_done']}/{progress['games']} games", end="",
                  flush=True)

        done = service.wait_for_simulation(simulation["id"], poll_interval=0.2, timeout=300, progress=show)
        print()
        result = done["result"]
        for seat, (bot, rate, (low, high)) in enumerate(
                zip(result["bots"], result["win_rates"], result["win_rate_ci95"], strict=True)):
            print(f"seat {seat} ({bot}): wins {rate:.1%} (95% CI {low:.1%} to {high:.1%})")
        turns = result["turns"]
        print(f"{result['games']} games: {turns['mean']:.1f} turns on average (median {turns['median']}, "
              f"90% within {turns['p90']}); {result['draws']} shared wins, {result['turn_cap_hits']} turn-cap hits")
        return done


if __name__ == "__main__":
    main(*sys.argv[1:2])
