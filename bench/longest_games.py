"""How long games get, and what a record of the longest one costs.

    .venv/bin/python bench/longest_games.py [--games N] [--cost-only | --lengths-only]

Lengths: for every ruleset, several player counts and bots (``random``, ``heuristic``, and for
Hitchiker seats that lengthen the game on purpose: they never save, always gamble and hit
until they cannot), N games each with the default options and N with the largest
``turn_cap`` the ruleset takes (where that is not its default); prints log entries (actions)
and turns (median, p99, max) and turn-cap hits. Every figure must stay within
``engine.records.MAX_LOG_ENTRIES``.

Cost: the longest game found is stored in Redis (``REDIS_URL``, else an embedded one) move
by move through the service's own path, then timed, twice each: ``GET /v1/games/{id}/record``
(bytes, ms), ``rulehouse replay`` of it (``engine.records.replay``: events and commitment
checked), ``POST /v1/rulesets/{id}/evaluate`` of the exported record as it is, and a fork
at its last version but one (which replays the log).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine.core.decisions import Decision
from engine.core.registry import all_rulesets, get_ruleset
from engine.core.rng import Rng, derive_seed
from engine.records import MAX_LOG_ENTRIES, MAX_SEED, replay

#: what seats that lengthen a Hitchiker game prefer, first to last
LENGTHENING = ("split", "hit", "risk", "buy_hometown", "decline_deal", "pass", "roll", "bet", "deposit",
               "pick_hometown", "go_home", "stick", "accept_deal", "sell")


def lengthening_choice(decision: Decision) -> dict:
    """The action that keeps a Hitchiker game going longest: save nothing, gamble, hit."""
    ranked = sorted(decision.options, key=lambda o: LENGTHENING.index(o["type"]) if o["type"] in LENGTHENING else 99)
    action = dict(ranked[0])
    for key, (low, high) in decision.ranges.get(action["type"], {}).items():
        action[key] = low if action["type"] in ("deposit", "bet") else high
    return action


def play(ruleset_id: str, players: int, bot: str, options: dict | None, seed: int) -> tuple[list[tuple], bool, int]:
    """One game: its actions ``(seat, action)``, whether the turn cap ended it, and its turns."""
    ruleset = get_ruleset(ruleset_id)
    state = ruleset.new_game(players, options, seed)
    bots = None if bot == "lengthening" else [ruleset.bot(bot) for _ in range(players)]
    rngs = [Rng(derive_seed(seed, 1, seat)) for seat in range(players)]
    actions = []
    while pending := ruleset.pending(state):
        decision = pending[0]
        action = (lengthening_choice(decision) if bots is None
                  else bots[decision.seat].choose(state, decision, rngs[decision.seat]))
        ruleset.apply(state, decision.seat, action, check=False)
        actions.append((decision.seat, action))
    return actions, ruleset.result(state).turn_cap_hit, ruleset.turns(state)


def bench_seed(players: int, game: int) -> int:
    return derive_seed(2026, players, game) & MAX_SEED  # a seed the service takes


def largest_turn_cap(ruleset_id: str) -> int:
    field = get_ruleset(ruleset_id).options_schema().fields["turn_cap"]
    return next(v.max for v in field.validators if getattr(v, "max", None) is not None)


def default_turn_cap(ruleset_id: str) -> int | None:
    return get_ruleset(ruleset_id).options_schema().fields["turn_cap"].load_default


def quantile(values: list[int], share: float) -> int:
    return sorted(values)[min(len(values) - 1, int(share * len(values)))]


def lengths(games: int) -> dict:
    """Prints the table; answers the longest game found: ruleset, players, seed, options, actions."""
    longest: dict = {"actions": []}
    print(f"{'ruleset':15} {'bots':11} {'p':>2} {'turn_cap':>8} {'games':>5} | {'entries med':>11} {'p99':>6} "
          f"{'max':>6} | {'turns med':>9} {'p99':>6} {'max':>6} | caps")
    for ruleset_id, ruleset in all_rulesets().items():
        counts = sorted({ruleset.min_players, (ruleset.min_players + ruleset.max_players) // 2, ruleset.max_players})
        bots = ["random", *ruleset.bots] + (["lengthening"] if ruleset_id == "hitchiker" else [])
        cap = largest_turn_cap(ruleset_id)
        for bot in bots:
            for players in counts:
                for options in (None, {"turn_cap": cap}) if cap != default_turn_cap(ruleset_id) else (None,):
                    # Lengthening seats play alike: a few games show them.
                    played = [(seed, *play(ruleset_id, players, bot, options, seed))
                              for seed in (bench_seed(players, n)
                                           for n in range(games if bot != "lengthening" else max(3, games // 20)))]
                    entries = [len(actions) for _, actions, _, _ in played]
                    turns = [turn for *_, turn in played]
                    print(f"{ruleset_id:15} {bot:11} {players:>2} {options['turn_cap'] if options else 'default':>8} "
                          f"{len(played):>5} | {quantile(entries, .5):>11} {quantile(entries, .99):>6} "
                          f"{max(entries):>6} | {quantile(turns, .5):>9} {quantile(turns, .99):>6} {max(turns):>6} | "
                          f"{sum(hit for _, _, hit, _ in played)}", flush=True)
                    seed, actions, _, _ = max(played, key=lambda game: len(game[1]))
                    if len(actions) > len(longest["actions"]):
                        longest = {"ruleset": ruleset_id, "players": players, "seed": seed, "options": options,
                                   "actions": actions, "bot": bot}
                    assert max(entries) <= MAX_LOG_ENTRIES, (ruleset_id, bot, players, max(entries))
    return longest


def timed(function, runs: int = 2) -> tuple[list[float], object]:
    times, value = [], None
    for _ in range(runs):
        began = time.perf_counter()
        value = function()
        times.append((time.perf_counter() - began) * 1000)
    return times, value


def cost(longest: dict) -> None:
    from api.app import create_app
    from api.play.moves import submit_action
    from api.service.embedded_redis import redis_url_or_embedded

    print(f"\nlongest game: {longest['ruleset']}, {longest['players']} players, {longest['bot']} seats, seed "
          f"{longest['seed']}, options {longest['options']}: {len(longest['actions'])} log entries "
          f"(MAX_LOG_ENTRIES {MAX_LOG_ENTRIES})")
    with contextlib.ExitStack() as stack:
        redis_url = redis_url_or_embedded(stack)
        app = create_app({"REDIS_URL": redis_url, "BOT_QUEUE": None, "SEARCH_QUEUE": None})
        client = app.test_client()
        created = client.post("/v1/games", json={
            "ruleset": longest["ruleset"], "seed": longest["seed"], "options": longest["options"] or {},
            "seats": [{"name": f"seat {n}"} for n in range(longest["players"])]}).get_json()
        store = app.extensions["rulehouse.store"]
        began = time.perf_counter()
        with app.app_context():
            for version, (seat, action) in enumerate(longest["actions"]):
                submit_action(store, created["id"], seat, action, version)
        print(f"stored move by move in {time.perf_counter() - began:.1f} s")
        url = f"/v1/games/{created['id']}/record"
        times, reply = timed(lambda: client.get(url))
        record = reply.get_json()
        body = reply.get_data()
        print(f"GET /record: {len(body):,} bytes ({len(body) / len(record['log']):.0f} a log entry), "
              f"{times[0]:.0f} ms / {times[1]:.0f} ms")
        times, outcome = timed(lambda: replay(record))
        assert outcome.ok, outcome.divergence
        print(f"replay (events and commitment checked): {times[0]:.0f} ms / {times[1]:.0f} ms")
        evaluate = f"/v1/rulesets/{longest['ruleset']}/evaluate"
        payload = json.dumps({"record": record, "seat": 0})
        times, reply = timed(lambda: client.post(evaluate, data=payload, content_type="application/json"))
        assert reply.status_code == 200 and reply.get_json()["legal"], reply.get_json()
        print(f"evaluate the exported record ({len(payload):,} bytes): {times[0]:.0f} ms / {times[1]:.0f} ms")
        bare = json.dumps({"record": {key: record[key] for key in ("players", "options", "seed")} | {
            "log": [{"seat": entry["seat"], "action": entry["action"]} for entry in record["log"]]}, "seat": 0})
        times, reply = timed(lambda: client.post(evaluate, data=bare, content_type="application/json"))
        assert reply.status_code == 200 and reply.get_json()["legal"], reply.get_json()
        print(f"evaluate actions only ({len(bare):,} bytes): {times[0]:.0f} ms / {times[1]:.0f} ms")
        fork = {"fork": {"game": created["id"], "version": record["version"] - 1}}
        times, reply = timed(lambda: client.post("/v1/games", json=fork))
        assert reply.status_code == 201, reply.get_json()
        print(f"fork at version {record['version'] - 1}: {times[0]:.0f} ms / {times[1]:.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="games per ruleset, bots, players and options")
    parser.add_argument("--lengths-only", action="store_true")
    parser.add_argument("--cost-only", action="store_true", help="skip the table: cost a known long game")
    args = parser.parse_args()
    if args.cost_only:
        # The longest game of the table's lengthening Hitchiker seats (6 players, the largest cap).
        seed = bench_seed(6, 0)
        actions, _, _ = play("hitchiker", 6, "lengthening", {"turn_cap": largest_turn_cap("hitchiker")}, seed)
        longest = {"ruleset": "hitchiker", "players": 6, "seed": seed, "bot": "lengthening",
                   "options": {"turn_cap": largest_turn_cap("hitchiker")}, "actions": actions}
    else:
        longest = lengths(args.games)
    if not args.lengths_only:
        cost(longest)


if __name__ == "__main__":
    main()
