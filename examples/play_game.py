"""Two seats play a whole game of Monopoly: Cars 2 Edition through the SDK.

    python examples/play_game.py [BASE_URL]

Each seat has its own client (its own bearer token); whoever the game waits for picks
one of its legal actions at random and sends it with the version it answers.
"""

from __future__ import annotations

import random
import sys

import requests
from rulehouse_sdk import Client


def main(base_url: str = "http://127.0.0.1:8000", *, seed: int = 7, session: requests.Session | None = None,
         ) -> dict:
    with Client(base_url, session=session) as service:
        game = service.create_game("monopoly-cars2", [{"name": "Ann"}, {"name": "Ben"}], seed=seed)
        seats = [service.with_token(seat["token"]) for seat in game["seats"]]
        chooser = random.Random(seed)
        actions = 0
        while (state := service.get_game(game["id"]))["status"] != "finished":
            seat = seats[state["waiting_for"][0]]
            pending = seat.get_decisions(game["id"])
            action = chooser.choice(pending["decisions"][0]["options"])
            seat.submit_action(game["id"], action, if_match=pending["version"])
            actions += 1
        final = state
        result = final["result"]
        print(f"game {game['id']}: {actions} actions, version {final['version']}; "
              f"winners {[final['seats'][s]['name'] for s in result['winners']]} ({result['reason']}), "
              f"scores {result['scores']}")
        return final


if __name__ == "__main__":
    main(*sys.argv[1:2])
