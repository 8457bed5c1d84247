"""One person plays Cash 'n Guns against three heuristic bots through the SDK.

    python examples/cash_n_guns_with_bots.py [BASE_URL]     # needs `rulehouse serve` (API + workers)

The person's seat follows the game's live stream (``Client.my_turns``) and answers each
decision after a moment's thought, with the decision as precondition (``Client.act``):
the bots keep moving the game meanwhile, and that is no conflict as long as the
person's own decision is unchanged. ``strict=True`` sends the version read instead, as
clients did before decision ids: then every bot move in between costs a 412.
"""

from __future__ import annotations

import random
import sys
import time

import requests
from rulehouse_sdk import Client, StaleVersion, Turn


def main(base_url: str = "http://127.0.0.1:8000", *, seed: int = 7, think: tuple[float, float] = (0.05, 0.3),
         strict: bool = False, session: requests.Session | None = None, quiet: bool = False) -> dict:
    """Play one game; the final game, plus ``moves`` and ``stale`` (412s) of the person's seat."""
    with Client(base_url, session=session) as service:
        game = service.create_game("cash-n-guns", [{"name": "You"}, *([{"bot": "heuristic"}] * 3)], seed=seed)
        me = service.with_token(game["seats"][0]["token"])
        chooser = random.Random(seed)
        moves = stale = 0
        for turn in me.my_turns(game["id"]):
            time.sleep(chooser.uniform(*think))  # the person thinks
            action = chooser.choice(turn["options"])
            while True:
                try:
                    me.act(turn, action, strict=strict)
                    moves += 1
                    break
                except StaleVersion as error:
                    stale += 1
                    if not strict or turn.id not in error.decisions:
                        break  # the decision itself is gone: the next one comes along
                    # A strict client reads the version again and resends the same choice.
                    turn = Turn(turn, game_id=turn.game_id, version=error.version)
        final = service.get_game(game["id"])
        if not quiet:
            names = [final["seats"][s]["name"] for s in final["result"]["winners"]]
            print(f"game {game['id']}: you made {moves} moves ({stale} rejected as stale); winners {names}, "
                  f"scores {final['result']['scores']}")
        return {**final, "moves": moves, "stale": stale}


if __name__ == "__main__":
    main(*sys.argv[1:2])
