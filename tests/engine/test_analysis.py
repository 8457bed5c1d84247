"""Game analysis, format 2 (engine.analysis): the split's parts add up exactly, a one-option move has no
choice part, a roll's luck has mean zero, a blunder is called costly with the right sign, the costly
calls are corrected for many moves, a ranged amount is weighed beside its neighbours, and the work stays
under its bound. Small methods and seeded games keep it fast; the large statistical runs are bench/'s."""

from __future__ import annotations

import copy
import json
from statistics import fmean, stdev

import pytest

from engine.analysis.candidates import candidates
from engine.analysis.game import ANALYSIS_FORMAT, PlayOuts, Walk, _luck, analyse, quantized
from engine.analysis.method import Method, method_for, work_bound
from engine.analysis.pricing import holm, one_sided_p
from engine.core.decisions import Decision
from engine.core.registry import all_rulesets, get_ruleset
from engine.core.rng import Rng, derive_seed
from engine.records import RecordError, action_entry, make_record, seat_change_entry
from engine.values.model import load_model, result_shares
from tests.bench import load_bench
from tests.engine.test_records import play_record

longest_games = load_bench("longest_games")

#: A method small enough for a test: few play-outs, short horizons.
SMALL = Method(playouts=6, horizon=4, chance_samples=4, max_candidates=5)


def finished_record(ruleset_id: str, seed: int, players: int | None = None, bot: str = "heuristic") -> dict:
    ruleset = get_ruleset(ruleset_id)
    return json.loads(json.dumps(play_record(ruleset_id, players or min(4, ruleset.max_players), bot, seed)))


def record_from(ruleset, players: int, seed: int, log: list, state) -> dict:
    return json.loads(json.dumps(make_record(ruleset, players=players, options={}, seed=seed, log=log,
                                             setup_events=None, result=ruleset.result(state).to_dict(),
                                             version=len(log))))


@pytest.mark.parametrize("ruleset_id", sorted(all_rulesets()))
def test_skill_luck_others_and_drift_add_up_exactly_to_each_seats_change_and_the_result_is_the_outcome(ruleset_id):
    record = finished_record(ruleset_id, 5)
    analysis = analyse(record, method=SMALL)
    outcome = result_shares(type("R", (), {"winners": record["result"]["winners"]})(), record["players"])
    assert analysis["format"] == ANALYSIS_FORMAT == 3
    assert analysis["chances"][-1] == [quantized(share) for share in outcome]
    assert len(analysis["chances"]) == len(record["log"]) + 1
    for part in analysis["split"]:
        assert part["start"] == analysis["chances"][0][part["seat"]]
        assert part["result"] == analysis["chances"][-1][part["seat"]]
        # Exactly, in floating point, in any order: every chance is a multiple of 2**-20.
        assert part["skill"] + part["luck"] + part["others"] + part["drift"] == part["result"] - part["start"]
        assert part["drift"] + part["others"] + part["luck"] + part["skill"] == part["change"]


@pytest.mark.parametrize("ruleset_id", sorted(all_rulesets()))
def test_skill_is_the_seats_own_choices_against_their_candidates_mean_and_one_option_moves_add_nothing(ruleset_id):
    # Monopoly: Cars 2 leaves few choices: a game with some (a Chance card's property or move).
    record = finished_record(ruleset_id, 1 if ruleset_id == "monopoly-cars2" else 6)
    analysis = analyse(record, method=SMALL)
    ruleset = get_ruleset(ruleset_id)
    assert analysis["moves"]
    priced = {move["index"] for move in analysis["moves"]}
    state = load_record_state(ruleset, record)
    for index, entry in enumerate(record["log"]):  # only a decision with a choice is a move
        seat, action = entry["seat"], ruleset.parse_action(entry["action"])
        decision = ruleset.check(state, seat, action)
        assert (index in priced) == (len(decision.options) > 1 or bool(decision.ranges)), entry
        ruleset.play(state, seat, action)
    for move in analysis["moves"]:
        chances = [option["chance"] for option in move["options"]]
        assert 2 <= len(chances) <= SMALL.max_candidates
        assert move["options"][0]["action"] == move["action"]
        assert move["best"] == max(chances) and move["average"] == move["average_chances"][move["seat"]]
        again = move["remeasure"]
        if again is None:  # priced only: the distance to the best candidate
            assert move["cost"] == move["best"] - move["chosen"] >= 0
            assert move["cost_ci95"][0] <= move["cost"] <= move["cost_ci95"][1] and move["cost_se"] >= 0
            assert not move["costly"]
        else:  # re-measured in fresh worlds: its cost is the re-measure's (>= 0), its interval about it
            assert move["p_value"] <= SMALL.costly_alpha and move["best_action"] != move["action"]
            assert again["priced_cost"] == move["best"] - move["chosen"]
            assert move["cost"] == max(0.0, again["cost"]) and move["cost_se"] == again["cost_se"]
            assert move["cost_ci95"][0] <= again["cost"] <= move["cost_ci95"][1]
            assert again["playouts"] == SMALL.playouts
            assert not move["costly"] or again["p_value"] <= SMALL.costly_alpha
        assert move["playouts"] == SMALL.playouts
    for part in analysis["split"]:
        seat = part["seat"]
        mine = [move for move in analysis["moves"] if move["seat"] == seat]
        theirs = [move for move in analysis["moves"] if move["seat"] != seat]
        assert part["skill"] == part["choice_gain"] == sum(move["chosen"] - move["average"] for move in mine)
        assert part["skill"] == sum(move["choice_parts"][seat] for move in mine)
        assert part["others"] == sum(move["chosen_chances"][seat] - move["average_chances"][seat] for move in theirs)
    assert ruleset.id == analysis["ruleset"]


def test_a_forced_deterministic_move_has_no_luck_its_result_is_drift():
    """A Cash 'n Guns loot pick with one card left draws nothing: luck 0; what it did is drift, not skill."""
    ruleset = get_ruleset("cash-n-guns")
    record = finished_record("cash-n-guns", 3)
    analysis = analyse(record, method=SMALL)
    state = load_record_state(ruleset, record)
    priced = {move["index"] for move in analysis["moves"]}
    checked = 0
    for index, entry in enumerate(record["log"]):
        seat, action = entry["seat"], ruleset.parse_action(entry["action"])
        decision = ruleset.check(state, seat, action)
        if len(decision.options) == 1 and entry["action"]["type"] == "take_loot" and index not in priced:
            luck = _luck(ruleset, PlayOuts(ruleset, load_model(ruleset), SMALL), state, index, seat, action, 1,
                         Walk(SMALL))
            assert luck == [0.0] * state.players
            checked += 1
        ruleset.play(state, seat, action)
    assert checked


def load_record_state(ruleset, record: dict):
    from engine.records import initial_state, load_record

    return initial_state(ruleset, load_record(record))


@pytest.mark.parametrize(("ruleset_id", "action"), [("monopoly-cars2", {"type": "roll"}),
                                                    ("whipcash", {"type": "roll", "dice": 2})])
def test_a_dice_rolls_luck_has_mean_zero_over_seeds_for_every_seat(ruleset_id, action):
    ruleset = get_ruleset(ruleset_id)
    model = load_model(ruleset)
    lucks = []
    for seed in range(120):
        state = ruleset.new_game(4, None, seed)
        decision = ruleset.pending(state)[0]
        assert decision.allows(action)
        walk = Walk(SMALL)
        lucks.append(_luck(ruleset, PlayOuts(ruleset, model, SMALL), state, 0, decision.seat, action, seed, walk))
    assert any(any(luck) for luck in lucks)
    for seat in range(4):
        values = [luck[seat] for luck in lucks]
        error = stdev(values) / len(values) ** 0.5
        assert abs(fmean(values)) < 3 * error + 1e-9, (seat, fmean(values), error)


def test_a_blunder_is_costly_with_the_right_sign():
    """Monopoly: Cars 2, seed 0: a Chance card offers seat 1 a free property; the heuristic takes space 13 and
    the game goes on, where space 16 or 17 loses at once. Played as 16, the analysis must call it costly."""
    ruleset = get_ruleset("monopoly-cars2")
    blunder = {"type": "choose_property", "space": 16}
    state = ruleset.new_game(4, None, 0)
    bots = [ruleset.bot("heuristic") for _ in range(4)]
    rngs = [Rng(derive_seed(0, 1, seat)) for seat in range(4)]
    log, blundered = [], None
    while pending := ruleset.pending(state):
        decision = pending[0]
        action = bots[decision.seat].choose(state, decision, rngs[decision.seat])
        if blundered is None and decision.kind == "chance_property" and decision.allows(blunder):
            action, blundered = blunder, len(log)
        events = [event.to_dict() for event in ruleset.apply(state, decision.seat, action)]
        log.append(action_entry(len(log) + 1, decision.seat, action, events))
    assert blundered is not None
    analysis = analyse(record_from(ruleset, 4, 0, log, state), method=Method(playouts=8, horizon=8, chance_samples=4))
    move = next(move for move in analysis["moves"] if move["index"] == blundered)
    assert move["costly"] and move["cost"] > 0.2 and move["cost_ci95"][0] > 0
    assert move["best_action"] != blunder and move["best"] > move["chosen"]
    assert analysis["costliest_move"]["index"] == blundered
    assert move["choice_parts"][move["seat"]] < 0  # its skill part: worse than the candidates' mean


def test_holm_and_the_one_sided_p_value_correct_for_many_moves():
    assert holm([0.001, 0.02, 0.04], 0.05) == [True, True, True]
    assert holm([0.001, 0.03, 0.04], 0.05) == [True, False, False]  # 0.03 > 0.05 / 2
    assert holm([0.02] * 10, 0.05) == [False] * 10  # one test at 0.02 passes; ten of them do not
    assert one_sided_p(0.0, 0.1, 32) == 1.0 and one_sided_p(-1.0, 0.1, 32) == 1.0
    assert one_sided_p(1.0, 0.0, 32) == 0.0
    assert 0.02 < one_sided_p(2.0, 1.0, 32) < 0.03  # t = 2 on 31 degrees of freedom: p ~ 0.027
    assert one_sided_p(2.0, 1.0, 5) > one_sided_p(2.0, 1.0, 32)  # few play-outs: heavier tails


def test_a_game_of_random_seats_calls_few_moves_costly_where_every_option_is_alike():
    """Moves whose candidates the play-outs cannot tell apart (P identical) are never called costly."""
    analysis = analyse(finished_record("hitchiker", 7, bot="random"), method=SMALL)
    for move in analysis["moves"]:
        if len({option["chance"] for option in move["options"]}) == 1:
            assert not move["costly"] and move["cost"] == 0 and move["p_value"] == 1.0
    assert sum(move["costly"] for move in analysis["moves"]) == sum(part["costly_moves"] for part in analysis["split"])


def test_a_ranged_amount_is_weighed_at_its_ends_quartiles_and_the_chosen_amounts_neighbours():
    decision = Decision(0, "bet", [{"type": "bet", "amount": 1}, {"type": "bet", "amount": 801}],
                        ranges={"bet": {"amount": [1, 801]}})
    chosen = {"type": "bet", "amount": 333}
    weighed = candidates(decision, chosen, {"type": "bet", "amount": 10}, 12)
    amounts = [option["amount"] for option in weighed]
    assert amounts[0] == 333 and {233, 433} <= set(amounts[1:3])  # neighbours: one eighth of the range away
    assert {1, 201, 401, 601, 801, 10} <= set(amounts)
    assert len(amounts) == len(set(amounts))
    assert [option["amount"] for option in candidates(decision, chosen, None, 3)] == [333, 233, 433]


def test_the_analysis_is_the_same_for_the_same_record_and_reports_progress():
    record = finished_record("whipcash", 8)
    told = []
    analysis = analyse(record, method=SMALL, progress=lambda done, total: told.append((done, total)))
    assert analysis == analyse(json.loads(json.dumps(record)), method=SMALL)
    assert json.loads(json.dumps(analysis)) == analysis
    entries = len(record["log"])
    assert told == [(done, entries) for done in range(1, entries + 1)]


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
    analysis = analyse(record_from(ruleset, 3, record["seed"], log, state), method=SMALL)
    assert analysis["players"] == 4 and len(analysis["split"]) == 4
    late = analysis["split"][3]
    assert late["start"] == analysis["chances"][11][3]
    for part in analysis["split"]:
        assert part["skill"] + part["luck"] + part["others"] + part["drift"] == part["result"] - part["start"]


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


def test_the_work_stays_under_its_bound_and_the_bound_covers_every_ruleset():
    ruleset = get_ruleset("hitchiker")
    seed = 11
    state = ruleset.new_game(6, {"turn_cap": 40}, seed)
    log = []
    while pending := ruleset.pending(state):
        decision = pending[0]
        action = longest_games.lengthening_choice(decision)
        events = [event.to_dict() for event in ruleset.apply(state, decision.seat, action)]
        log.append(action_entry(len(log) + 1, decision.seat, action, events))
    record = json.loads(json.dumps(make_record(ruleset, players=6, options={"turn_cap": 40}, seed=seed, log=log,
                                               setup_events=None, result=ruleset.result(state).to_dict(),
                                               version=len(log))))
    analysis = analyse(record, method=SMALL)
    assert 0 < analysis["work"] <= 10 + len(log) * SMALL.work_per_entry()
    # the candidates' play-outs, and the chosen and the best one's again for a move re-measured
    assert analysis["most_samples_per_entry"] <= (SMALL.max_candidates + 2) * SMALL.playouts
    for each in all_rulesets().values():
        assert work_bound(len(log), each) <= work_bound(len(log))
        assert work_bound(len(log), each) == 10 + len(log) * method_for(each).work_per_entry()


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
