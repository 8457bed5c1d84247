"""Game analysis (engine.analysis): the luck-skill split adds up exactly, the result is the outcome,
bad and unfinished records are refused with reasons, and the cost per entry stays under its bound."""

from __future__ import annotations

import copy
import json

import pytest

from engine.analysis.game import (
    MAX_CANDIDATES,
    MAX_WORK_PER_ENTRY,
    SAMPLES,
    analyse,
    quantized,
    work_bound,
)
from engine.core.registry import all_rulesets, get_ruleset
from engine.core.rng import Rng, derive_seed
from engine.records import RecordError, action_entry, make_record, seat_change_entry
from engine.values.model import result_shares
from tests.bench import load_bench
from tests.engine.test_records import play_record

longest_games = load_bench("longest_games")


def finished_record(ruleset_id: str, seed: int, players: int | None = None) -> dict:
    ruleset = get_ruleset(ruleset_id)
    return json.loads(json.dumps(play_record(ruleset_id, players or min(4, ruleset.max_players), "heuristic", seed)))


@pytest.mark.parametrize("ruleset_id", sorted(all_rulesets()))
def test_skill_luck_and_others_add_up_exactly_to_each_seats_change_and_the_result_is_the_outcome(ruleset_id):
    record = finished_record(ruleset_id, 5)
    analysis = analyse(record)
    ruleset = get_ruleset(ruleset_id)
    outcome = result_shares(type("R", (), {"winners": record["result"]["winners"]})(), record["players"])
    assert analysis["chances"][-1] == [quantized(share) for share in outcome]
    assert len(analysis["chances"]) == len(record["log"]) + 1
    for part in analysis["split"]:
        assert part["start"] == analysis["chances"][0][part["seat"]]
        assert part["result"] == analysis["chances"][-1][part["seat"]]
        # Exactly, in floating point, in any order: every chance is a multiple of 2**-20.
        assert part["skill"] + part["luck"] + part["others"] == part["result"] - part["start"]
        assert part["others"] + part["luck"] + part["skill"] == part["change"]
    assert ruleset.id == analysis["ruleset"]


@pytest.mark.parametrize("ruleset_id", sorted(all_rulesets()))
def test_every_move_weighs_the_chosen_option_among_the_offered_ones_and_costs_what_the_best_one_beats_it_by(
        ruleset_id):
    # Monopoly: Cars 2 leaves few choices: a game with some (a Chance card's property or move).
    analysis = analyse(finished_record(ruleset_id, 1 if ruleset_id == "monopoly-cars2" else 6))
    assert analysis["moves"]
    for move in analysis["moves"]:
        chances = [option["chance"] for option in move["options"]]
        assert 2 <= len(chances) <= MAX_CANDIDATES
        assert move["action"] in [option["action"] for option in move["options"]]
        assert move["best"] == max(chances) and move["cost"] == move["best"] - move["chosen"] >= 0
        assert move["chosen_chances"][move["seat"]] == move["chosen"]
        assert min(chances) <= move["average"] <= max(chances)
    costliest = analysis["costliest_move"]
    assert costliest is None or costliest["cost"] == max(move["cost"] for move in analysis["moves"]) > 0
    for part in analysis["split"]:
        mine = [move for move in analysis["moves"] if move["seat"] == part["seat"]]
        assert part["choice_gain"] == sum(move["chosen"] - move["average"] for move in mine)


def test_a_forced_move_has_no_decision_part_and_a_choice_without_dice_no_chance_part():
    record = finished_record("monopoly-cars2", 2)
    analysis = analyse(record)
    chosen = {move["index"] for move in analysis["moves"]}
    forced = [index for index, entry in enumerate(record["log"]) if index not in chosen]
    assert forced
    # The decision parts come only from moves: a game of rolls alone has every change in luck.
    for part in analysis["split"]:
        seat_moves = [move for move in analysis["moves"] if move["seat"] == part["seat"]]
        assert part["skill"] == sum(move["chosen"] - move["chance_before"] for move in seat_moves)
    cash = analyse(finished_record("cash-n-guns", 3))
    loot = [move for move in cash["moves"] if move["kind"] == "take_loot"]
    assert loot
    for move in loot:  # taking a loot card draws nothing: Q(chosen) is the chance after it
        after = cash["chances"][move["index"] + 1]
        assert move["chosen_chances"] == after or move["action"]["card"] == "clip"


def test_the_analysis_is_the_same_for_the_same_record():
    record = finished_record("whipcash", 8)
    assert analyse(record) == analyse(json.loads(json.dumps(record)))
    assert json.loads(json.dumps(analyse(record))) == analyse(record)


def test_a_player_joining_mid_game_starts_from_its_join_and_the_parts_still_add_up():
    ruleset = get_ruleset("hitchiker")
    record = finished_record("hitchiker", 4, players=3)
    # Replay the same start with a fourth player joining after ten actions, then bots to the end.
    state = ruleset.new_game(3, None, record["seed"])
    bots = [ruleset.bot("heuristic") for _ in range(4)]
    rngs = [Rng(derive_seed(1, n)) for n in range(4)]
    log = []
    while pending := ruleset.pending(state):
        if len(log) == 10:
            change = {"seat": 3, "kind": "seat_joined", "name": "late", "bot": None}
            ruleset.seat_changed(state, change)
            log.append(seat_change_entry(len(log) + 1, {"type": "seat_joined", "seat": 3, "name": "late"}))
            continue
        decision = pending[0]
        action = bots[decision.seat].choose(state, decision, rngs[decision.seat])
        events = [event.to_dict() for event in ruleset.apply(state, decision.seat, action)]
        log.append(action_entry(len(log) + 1, decision.seat, action, events))
    joined = make_record(ruleset, players=3, options={}, seed=record["seed"], log=log, setup_events=None,
                         result=ruleset.result(state).to_dict(), version=len(log))
    analysis = analyse(json.loads(json.dumps(joined)))
    assert analysis["players"] == 4 and len(analysis["split"]) == 4
    late = analysis["split"][3]
    assert late["start"] == analysis["chances"][11][3]
    for part in analysis["split"]:
        assert part["skill"] + part["luck"] + part["others"] == part["result"] - part["start"]


def test_unfinished_and_bad_records_are_refused_with_their_reason():
    record = finished_record("whipcash", 9)
    unfinished = dict(record, log=record["log"][:5], status="active", result=None, version=5)
    with pytest.raises(RecordError) as error:
        analyse(unfinished)
    assert error.value.reason == "not_finished"
    hidden = copy.deepcopy(record)
    hidden["log"][3]["action"] = None
    with pytest.raises(RecordError) as error:
        analyse(hidden)
    assert error.value.reason == "action_hidden"
    tampered = copy.deepcopy(record)
    tampered["log"][0]["events"] = []
    with pytest.raises(RecordError) as error:
        analyse(tampered)
    assert error.value.reason == "record_diverges" and "log" in error.value.fields
    for bad, reason in (([], "invalid_record"), ({"players": "two"}, "invalid_record"),
                        (dict(record, ruleset="chess"), "unknown_ruleset"),
                        (dict(record, rules_version=99), "rules_version"), (dict(record, seed=None), "seed_hidden")):
        with pytest.raises(RecordError) as error:
            analyse(bad)
        assert error.value.reason == reason


def test_the_cost_per_entry_stays_under_its_bound_in_a_long_hitchiker_game():
    ruleset = get_ruleset("hitchiker")
    seed = 11
    state = ruleset.new_game(6, {"turn_cap": 400}, seed)
    log = []
    while pending := ruleset.pending(state):
        decision = pending[0]
        action = longest_games.lengthening_choice(decision)
        events = [event.to_dict() for event in ruleset.apply(state, decision.seat, action)]
        log.append(action_entry(len(log) + 1, decision.seat, action, events))
    record = json.loads(json.dumps(make_record(ruleset, players=6, options={"turn_cap": 400}, seed=seed, log=log,
                                               setup_events=None, result=ruleset.result(state).to_dict(),
                                               version=len(log))))
    assert len(log) > 2000  # a long game: seats that never save play to the turn cap
    analysis = analyse(record)
    assert analysis["most_samples_per_entry"] <= MAX_CANDIDATES * SAMPLES
    assert analysis["work"] <= work_bound(len(log)) == 10 + len(log) * MAX_WORK_PER_ENTRY
    assert analysis["samples"] > 0


@pytest.mark.parametrize("ruleset_id", sorted(all_rulesets()))
def test_resample_chance_deals_the_chance_anew_and_keeps_what_players_hold_and_chose(ruleset_id):
    ruleset = get_ruleset(ruleset_id)
    state = ruleset.new_game(ruleset.min_players + 1, None, 3)
    bots = [ruleset.bot("heuristic") for _ in range(ruleset.min_players + 1)]
    for step in range(12):
        decision = ruleset.pending(state)[0]
        ruleset.apply(state, decision.seat, bots[decision.seat].choose(state, decision, Rng(step)), check=False)
    kept = ruleset.to_dict(state)
    other = ruleset.resample_chance(state, Rng(99))
    assert ruleset.to_dict(state) == kept  # the original is untouched
    assert other.rng != state.rng
    if ruleset_id == "cash-n-guns":
        assert [(g.clicks, g.bangs, g.chosen, g.face_down) for g in other.gangsters] == \
            [(g.clicks, g.bangs, g.chosen, g.face_down) for g in state.gangsters]
        assert sorted(card for pile in other.piles for card in pile) == \
            sorted(card for pile in state.piles for card in pile)


@pytest.mark.parametrize("ruleset_id", sorted(all_rulesets()))
def test_an_option_that_draws_nothing_at_random_is_worth_the_same_on_every_sample(ruleset_id):
    """The analysis applies such an option once: another sample of the chance would give the same chances."""
    from engine.analysis.game import _candidates
    from engine.records import initial_state, load_record
    from engine.values.model import load_model

    ruleset = get_ruleset(ruleset_id)
    record = load_record(finished_record(ruleset_id, 2))
    model, state = load_model(ruleset), initial_state(ruleset, record)
    applied_once = 0
    for entry in record["log"]:
        seat, action = entry["seat"], ruleset.parse_action(entry["action"])
        for option in _candidates(ruleset.check(state, seat, action), action):
            world = ruleset.resample_chance(state, Rng(1))
            rng, drawn = world.rng, world.rng.counter
            ruleset.apply(world, seat, option, check=False)
            if world.rng is rng and rng.counter == drawn:
                applied_once += 1
                other = ruleset.resample_chance(state, Rng(2))
                ruleset.apply(other, seat, option, check=False)
                assert model.predict(other) == model.predict(world), (entry, option)
        ruleset.play(state, seat, action)
    assert applied_once > 0
