"""Records: archive a finished game, check its dice, fork it, and referee without storage.

    python examples/records.py [BASE_URL]

Two seats play a game of Whipca$h; the finished game's record reveals the seed and salt
behind the `seed_commitment` published at creation, which this script checks itself. It
then forks the game halfway ("what if?") and asks the service to evaluate the first moves
of the record statelessly, as an app with its own storage would.
"""

from __future__ import annotations

import hashlib
import random
import sys

import requests
from rulehouse_sdk import Client


def main(base_url: str = "http://127.0.0.1:8000", *, seed: int = 7, session: requests.Session | None = None,
         ) -> dict:
    with Client(base_url, session=session) as service:
        game = service.create_game("whipcash", [{"name": "Ann"}, {"name": "Ben"}])
        print(f"game {game['id']} committed to its seed: {game['seed_commitment']}")
        seats = [service.with_token(seat["token"]) for seat in game["seats"]]
        chooser = random.Random(seed)
        while (state := service.get_game(game["id"]))["status"] != "finished":
            seat = seats[state["waiting_for"][0]]
            pending = seat.get_decisions(game["id"])
            seat.submit_action(game["id"], chooser.choice(pending["decisions"][0]["options"]),
                               if_match=pending["version"])

        record = service.get_record(game["id"])
        revealed = "sha256:" + hashlib.sha256(f"{record['salt']}:{record['seed']}".encode()).hexdigest()
        assert revealed == game["seed_commitment"], "the dice were not the committed ones"
        print(f"{len(record['log'])} actions; seed {record['seed']} matches the commitment; "
              f"winners {record['result']['winners']}")

        halfway = record["version"] // 2
        fork = service.fork_game(game["id"], halfway, seats=[{"name": "Ann"}, {"name": "Bot", "bot": "heuristic"}])
        print(f"forked at version {halfway} as game {fork['id']}")

        first_moves = {key: record[key] for key in ("players", "options", "seed")}
        first_moves["log"] = [{"seat": e["seat"], "action": e["action"]} for e in record["log"][:halfway]]
        answer = service.evaluate("whipcash", first_moves, seat=0)
        print(f"evaluated {answer['applied']} actions statelessly: legal={answer['legal']}, "
              f"waiting for seats {answer['waiting_for']}")
        return {"record": record, "fork": fork, "evaluation": answer}


if __name__ == "__main__":
    main(*sys.argv[1:2])
