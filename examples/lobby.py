"""A table filled from the lobby: a listed Cash 'n Guns game with two open seats and two bots.

    python examples/lobby.py [BASE_URL]     # needs `rulehouse serve` (API + workers)

The host creates the game with open seats; one player finds it in the lobby and joins
without an invite, the other joins with the invite the host passed on. The last join
starts the game, and each player's client plays its seat to the end (``Client.play``).
"""

from __future__ import annotations

import random
import sys
import threading

import requests
from rulehouse_sdk import Client


def main(base_url: str = "http://127.0.0.1:8000", *, seed: int = 7, session: requests.Session | None = None,
         quiet: bool = False) -> dict:
    with Client(base_url, session=session) as host:
        created = host.create_game("cash-n-guns", [{"open": True}, {"open": True}, {"bot": "heuristic"},
                                                   {"bot": "heuristic"}], seed=seed, listed=True)
        assert created["status"] == "waiting"

        # Ann browses the lobby and takes the first open seat of the game she finds.
        ann = host.with_token(None)
        found = next(game for game in ann.list_games(status="waiting", ruleset="cash-n-guns")["games"]
                     if game["id"] == created["id"])
        ann.token = ann.join_game(found["id"], "Ann")["token"]
        # Bea was sent the invite of the other open seat.
        bea = host.with_token(None)
        bea.token = bea.join_game(created["id"], "Bea", invite=created["invites"][1]["invite"])["token"]

        def play(player: Client, chooser: random.Random) -> None:
            player.play(created["id"], choose=lambda turn: chooser.choice(turn["options"]))

        threads = [threading.Thread(target=play, args=(player, random.Random(seed + n)))
                   for n, player in enumerate((ann, bea))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        final = host.get_game(created["id"])
        if not quiet:
            names = [final["seats"][s]["name"] for s in final["result"]["winners"]]
            print(f"game {created['id']}: {[seat['name'] for seat in final['seats']]}; winners {names}, "
                  f"scores {final['result']['scores']}")
        return final


if __name__ == "__main__":
    main(*sys.argv[1:2])
