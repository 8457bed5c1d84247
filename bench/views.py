"""Stepping through a long game's past: GET /v1/games/{id}/views/{version}.

    .venv/bin/python bench/views.py [--ruleset hitchiker] [--players 4] [--actions 3000]

Plays one long game through the API (every seat a person; each pending decision's first option),
then times, in the Flask test client against an embedded Redis (``REDIS_URL`` when set):
the first look at the last version (which builds the checkpoints), stepping backwards and forwards
one version at a time (a replay page's Back/Next), random jumps, and for comparison the whole log
replayed from the seed for one version (``engine.records.replay``, what a page without checkpoints
would cost per step).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from api.views import timeline  # noqa: E402


def timed(call) -> float:
    start = time.perf_counter()
    call()
    return (time.perf_counter() - start) * 1000


def summary(name: str, samples: list[float]) -> None:
    ordered = sorted(samples)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    print(f"{name:<44} n={len(samples):>4}  mean {statistics.fmean(samples):7.2f} ms  p95 {p95:7.2f} ms  "
          f"max {ordered[-1]:7.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ruleset", default="hitchiker")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--actions", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()

    from api.app import create_app
    from api.records.build import full_record
    from api.service.embedded_redis import EmbeddedRedis
    from engine.records import replay

    server = None
    url = os.environ.get("REDIS_URL")
    if not url:
        server = EmbeddedRedis(Path(tempfile.mkdtemp()), persist=False).start()
        url = server.url
    try:
        app = create_app({"REDIS_URL": url, "BOT_QUEUE": None})
        client = app.test_client()
        seats = [{"name": f"P{n}"} for n in range(args.players)]
        game = client.post("/v1/games", json={"ruleset": args.ruleset, "seats": seats, "seed": args.seed}).get_json()
        tokens = [seat["token"] for seat in game["seats"]]
        game_id, version = game["id"], 0
        for _ in range(args.actions):
            now = client.get(f"/v1/games/{game_id}").get_json()
            if now["status"] != "active":
                break
            seat = now["waiting_for"][0]
            auth = {"Authorization": f"Bearer {tokens[seat]}"}
            pending = client.get(f"/v1/games/{game_id}/decisions", headers=auth).get_json()
            reply = client.post(f"/v1/games/{game_id}/actions", json=pending["decisions"][0]["options"][0],
                                headers={**auth, "If-Match": f'"{pending["version"]}"'})
            version = reply.get_json()["version"]
        print(f"{args.ruleset}, {args.players} players: {version} versions "
              f"(checkpoint every {timeline.CHECKPOINT_EVERY} log entries)")

        def look(at: int) -> None:
            reply = client.get(f"/v1/games/{game_id}/views/{at}", headers={"Authorization": f"Bearer {tokens[0]}"})
            assert reply.status_code == 200, reply.get_json()

        summary("first look at the last version (cold)", [timed(lambda: look(version))])
        summary("Back: one version at a time, from the end", [timed(lambda at=at: look(at))
                                                            for at in range(version, max(0, version - 300), -1)])
        summary("Next: one version at a time, from the start", [timed(lambda at=at: look(at))
                                                              for at in range(0, min(version, 300))])
        jumps = random.Random(1).choices(range(version + 1), k=200)
        summary("random jumps", [timed(lambda at=at: look(at)) for at in jumps])
        with app.app_context():
            from api.http.helpers import load_game, store
            record = full_record(store(), load_game(game_id, None))
        summary("whole log from the seed, per version (no cache)",
                [timed(lambda at=at: replay(record, compare=False, until_version=at)) for at in jumps[:10]])
    finally:
        if server is not None:
            server.stop()


if __name__ == "__main__":
    main()
