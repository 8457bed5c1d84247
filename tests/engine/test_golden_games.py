"""Golden games: seeded bot games of every ruleset must play exactly as recorded.

Each game is played the way ``engine.simulate.play_game`` plays it (the first pending
decision, its seat's ``Bot.choose``, ``apply(..., check=False)``) and summed up by its result, its
length, its number of actions and sha256 digests of every event, of every pending decision
and of what the deciding seat saw. Speed work on the engine (copies, cheaper ``pending``,
views) must leave every figure as it is: the recorded file is the proof that no optimisation
changed how a game plays.

Regenerate the file only after a deliberate rules change (one that raises a ruleset's
``rules_version``) or a deliberate change of what a timed-out seat plays (a decision's published
``default``, which ``decisions_sha256`` and the bulk digest include: check then that every other
figure stays, e.g. by digesting the decisions without their defaults before and after), never to
make this test pass after an optimisation:

    .venv/bin/python -m tests.engine.test_golden_games > tests/engine/data/golden_games.json
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from engine.core.registry import all_rulesets
from engine.core.rng import Rng, derive_seed
from engine.core.ruleset import Ruleset

GOLDEN_PATH = Path(__file__).parent / "data" / "golden_games.json"
GAMES_PER_RULESET = 12
#: games (by number) whose seats alternate heuristic and random bots instead of all random
HEURISTIC_GAMES = (5, 10)
MAX_STEPS = 200_000
#: beside the detailed games, this many more random games per ruleset recorded as one digest (short
#: games get more, so rare paths are crossed while the whole test stays a few seconds)
BULK_GAMES = {"cash-n-guns": 40, "hitchiker": 8, "monopoly-cars2": 300, "whipcash": 120}


def game_plan(ruleset: Ruleset) -> list[dict]:
    """The seeded games of a ruleset: every player count in turn, two of them with heuristic bots."""
    counts = list(range(ruleset.min_players, ruleset.max_players + 1))
    plan = []
    for game in range(GAMES_PER_RULESET):
        players = counts[game % len(counts)]
        if game in HEURISTIC_GAMES and "heuristic" in ruleset.bot_names():
            bots = ["heuristic" if seat % 2 == 0 else "random" for seat in range(players)]
        else:
            bots = ["random"] * players
        plan.append({"game": game, "players": players, "bots": bots, "seed": derive_seed(1414, game)})
    return plan


def _digest(items: list) -> str:
    text = json.dumps(items, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def play_golden(ruleset: Ruleset, players: int, bots: list[str], seed: int) -> dict:
    state = ruleset.new_game(players, None, seed)
    seat_bots = [ruleset.bot(name) for name in bots]
    rngs = [Rng(derive_seed(seed, 1, seat)) for seat in range(players)]
    events = [event.to_dict() for event in ruleset.setup_events(state)]
    decisions_seen = []
    views_seen = []
    actions = 0
    for _ in range(MAX_STEPS):
        decisions = ruleset.pending(state)
        if not decisions:
            break
        decisions_seen.append([decision.to_dict() for decision in decisions])
        decision = decisions[0]
        views_seen.append(ruleset.view(state, decision.seat))
        action = seat_bots[decision.seat].choose(state, decision, rngs[decision.seat])
        events.extend(event.to_dict() for event in ruleset.apply(state, decision.seat, action, check=False))
        actions += 1
    else:
        raise RuntimeError(f"{ruleset.id} seed {seed}: no end after {MAX_STEPS} steps")
    result = ruleset.result(state)
    return {
        "winners": result.winners,
        "scores": result.scores,
        "reason": result.reason,
        "turns": ruleset.turns(state),
        "actions": actions,
        "events_sha256": _digest(events),
        "decisions_sha256": _digest(decisions_seen),
        "views_sha256": _digest(views_seen),
        "final_state_sha256": _digest([ruleset.to_dict(state)]),
    }


def bulk_digest(ruleset: Ruleset) -> dict:
    """Every outcome of the ruleset's bulk games, as one digest (and their total number of actions)."""
    counts = list(range(ruleset.min_players, ruleset.max_players + 1))
    outcomes = []
    for game in range(BULK_GAMES[ruleset.id]):
        players = counts[game % len(counts)]
        outcomes.append(play_golden(ruleset, players, ["random"] * players, derive_seed(1515, game)))
    return {"games": len(outcomes), "actions": sum(o["actions"] for o in outcomes), "sha256": _digest(outcomes)}


def golden_games() -> dict[str, dict]:
    games = {}
    for ruleset_id, ruleset in all_rulesets().items():
        games[ruleset_id] = {
            "games": [{**plan, "outcome": play_golden(ruleset, plan["players"], plan["bots"], plan["seed"])}
                      for plan in game_plan(ruleset)],
            "bulk": bulk_digest(ruleset),
        }
    return games


def _recorded() -> dict[str, dict]:
    return json.loads(GOLDEN_PATH.read_text())


@pytest.mark.parametrize("ruleset_id", sorted(all_rulesets()))
def test_golden_games_play_as_recorded(ruleset_id):
    ruleset = all_rulesets()[ruleset_id]
    recorded = _recorded()[ruleset_id]
    games = recorded["games"]
    assert [{k: g[k] for k in ("game", "players", "bots", "seed")} for g in games] == game_plan(ruleset)
    for game in games:
        outcome = play_golden(ruleset, game["players"], game["bots"], game["seed"])
        assert outcome == game["outcome"], f"{ruleset_id} game {game['game']} no longer plays as recorded"
    assert bulk_digest(ruleset) == recorded["bulk"], f"{ruleset_id}: the bulk games no longer play as recorded"


def test_golden_games_cover_every_ruleset_and_differ():
    recorded = _recorded()
    assert sorted(recorded) == sorted(all_rulesets())
    for ruleset_id, entry in recorded.items():
        games = entry["games"]
        assert len({g["outcome"]["events_sha256"] for g in games}) == len(games), ruleset_id
        assert any("heuristic" in g["bots"] for g in games), ruleset_id


if __name__ == "__main__":
    print(json.dumps(golden_games(), indent=1))
