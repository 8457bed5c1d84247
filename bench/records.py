"""Records: how fast a record replays (every ruleset), and the worst evaluation request.

    .venv/bin/python bench/records.py [--games N]

Replays complete records of heuristic-bot games (events compared, commitment checked) and
prints log entries replayed per second, twice, so the machine's noise shows. Then times
``POST /v1/rulesets/{id}/evaluate`` (Flask test client, no Redis) on the longest record
the bench played, and on that record padded to MAX_LOG_ENTRIES entries (the largest body an
evaluation takes; it stops at the first entry after the game is over).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine.core.registry import all_rulesets, get_ruleset
from engine.core.rng import Rng, derive_seed
from engine.records import MAX_LOG_ENTRIES, action_entry, make_record, replay, seed_commitment


def play(ruleset_id: str, seed: int) -> dict:
    ruleset = get_ruleset(ruleset_id)
    players = ruleset.min_players if ruleset.min_players > 2 else 3
    state = ruleset.new_game(players, None, seed)
    setup = [event.to_dict() for event in ruleset.setup_events(state)]
    bots = [ruleset.bot("heuristic" if "heuristic" in ruleset.bots else "random") for _ in range(players)]
    rngs = [Rng(derive_seed(seed, 1, n)) for n in range(players)]
    log = []
    while pending := ruleset.pending(state):
        decision = pending[0]
        action = bots[decision.seat].choose(state, decision, rngs[decision.seat])
        log.append(action_entry(len(log) + 1, decision.seat, action,
                                [event.to_dict() for event in ruleset.apply(state, decision.seat, action)]))
    result = ruleset.result(state)
    return json.loads(json.dumps(make_record(
        ruleset, players=players, options={}, seed=seed, log=log, setup_events=setup, result=result.to_dict(),
        version=len(log), salt="00" * 16, commitment=seed_commitment(seed, "00" * 16))))


def timed(function) -> float:
    began = time.perf_counter()
    function()
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=50)
    args = parser.parse_args()
    print(f"{'ruleset':16} {'games':>6} {'entries':>8} {'run 1 entries/s':>16} {'run 2 entries/s':>16}")
    longest = None
    for ruleset_id in all_rulesets():
        records = [play(ruleset_id, seed) for seed in range(args.games)]
        entries = sum(len(record["log"]) for record in records)
        rates = []
        for _ in range(2):
            seconds = timed(lambda records=records: [replay(record) for record in records])
            rates.append(entries / seconds)
        assert all(replay(record).ok for record in records)
        print(f"{ruleset_id:16} {args.games:>6} {entries:>8} {rates[0]:>16,.0f} {rates[1]:>16,.0f}")
        candidate = max(records, key=lambda record: len(record["log"]))
        if longest is None or len(candidate["log"]) > len(longest["log"]):
            longest = candidate

    from api.app import create_app

    client = create_app({"REDIS_URL": "redis://127.0.0.1:9/0", "BOT_QUEUE": None}).test_client()
    log = [{"seat": entry["seat"], "action": entry["action"]} for entry in longest["log"]]
    body = {"record": {**{key: longest[key] for key in ("players", "options", "seed")}, "log": log}, "seat": 0}
    url = f"/v1/rulesets/{longest['ruleset']}/evaluate"
    padding = [log[-1]] * (MAX_LOG_ENTRIES - len(log))
    worst = dict(body, record=dict(body["record"], log=[*log, *padding]))
    for name, payload in ((f"longest record ({len(longest['log'])} entries)", body),
                          (f"{MAX_LOG_ENTRIES} entries, game over at {len(longest['log'])}", worst)):
        times = []
        for _ in range(2):
            began = time.perf_counter()
            reply = client.post(url, json=payload)
            times.append((time.perf_counter() - began) * 1000)
            assert reply.status_code == 200, reply.get_json()
        print(f"evaluate {longest['ruleset']}, {name}: {len(json.dumps(payload)) // 1024} KiB, "
              f"{times[0]:.1f} ms / {times[1]:.1f} ms")


if __name__ == "__main__":
    main()
