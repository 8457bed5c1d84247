"""The drama measures (engine.experiments.drama) on constructed games whose win chances are scripted,
and on the real games: the calibration, the skill index, and chunks that merge exactly."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from marshmallow import fields

from engine.bots import GENERIC_BOTS
from engine.core.decisions import Decision
from engine.core.events import Event
from engine.core.registry import get_ruleset
from engine.core.result import Result
from engine.core.rng import Rng
from engine.core.ruleset import OptionsSchema, Ruleset, action_schema
from engine.experiments.calibration import Calibration, calibration_for, fit_isotonic, reliability
from engine.experiments.design import Variant
from engine.experiments.drama import (
    DramaTally,
    DramaWatcher,
    game_drama,
    skill_index,
    skill_ladder,
)
from engine.experiments.measures import VariantTally, play_experiment_chunk
from engine.experiments.report import differences, sentence, variant_measures
from engine.simulate import play_game
from engine.values.model import load_model, result_shares


class ScriptOptions(OptionsSchema):
    #: the win chances of every version before the end (version i: after i actions)
    script = fields.Raw(load_default=None)
    winner = fields.Integer(load_default=0)
    #: the last decision is seat 2's pick of the winner (a kingmaker) instead of a single "pass"
    kingmaker = fields.Boolean(load_default=False)


@dataclass(slots=True)
class ScriptState:
    players: int
    rng: Rng
    script: list
    winner: int
    kingmaker: bool
    turn: int = 0
    crowned: int = -1


class ScriptRuleset(Ruleset):
    """One action a turn, seats in turn, for ``len(script)`` actions; the result is ``winner``, or with
    ``kingmaker`` whichever seat 0 or 1 the last mover (seat 2) crowns."""

    id = "script"
    title = "Script"
    min_players = 3
    max_players = 3
    options_schema = ScriptOptions
    state_class = ScriptState
    action_schemas = {"pass": action_schema("pass"), "crown": action_schema("crown", seat=fields.Integer())}
    generic_bots = GENERIC_BOTS

    def setup(self, players, options, rng):
        return ScriptState(players, rng, options["script"], options["winner"], options["kingmaker"])

    def turn_order(self, state):
        return [0, 1, 2]

    def pending(self, state):
        if state.turn >= len(state.script):
            return []
        seat = state.turn % 3
        if state.kingmaker and state.turn == len(state.script) - 1:
            return [Decision(2, "crown", [{"type": "crown", "seat": 0}, {"type": "crown", "seat": 1}])]
        return [Decision(seat, "pass", [{"type": "pass"}])]

    def play(self, state, seat, action):
        state.rng.die()  # the engine's generator moves on, as a real game's does
        if action["type"] == "crown":
            state.crowned = action["seat"]
        state.turn += 1
        return [Event("played", {"seat": seat})]

    def view(self, state, seat):
        return {"turn": state.turn}

    def result(self, state):
        if state.turn < len(state.script):
            return None
        winner = state.crowned if state.crowned >= 0 else state.winner
        return Result([winner], [winner], [int(s == winner) for s in range(3)], "script")


class ScriptModel:
    """The scripted chances: version ``turn``'s row; with a crown picked, that seat's certain win."""

    def __init__(self, ruleset):
        self.ruleset = ruleset

    def predict(self, state):
        result = self.ruleset.result(state)
        if result is not None:
            return result_shares(result, state.players)
        return list(state.script[state.turn])


SCRIPT = ScriptRuleset()


def scripted(script, winner=0, kingmaker=False, seed=1):
    watcher = DramaWatcher(SCRIPT, ScriptModel(SCRIPT), Calibration.identity())
    outcome = play_game(SCRIPT, 3, ["random"] * 3, {"script": script, "winner": winner, "kingmaker": kingmaker},
                        seed, observer=watcher)
    return outcome, game_drama(watcher, outcome.result)


def test_a_game_decided_by_its_first_action_reads_decided_at_zero():
    _, game = scripted([[0.34, 0.33, 0.33]] + [[0.9, 0.05, 0.05]] * 5)
    assert game.decided_at == 0.0
    assert game.indicators["decided_before_half"] == 1
    assert not game.comeback


def test_a_game_decided_by_its_last_action_reads_near_one():
    _, game = scripted([[0.4, 0.3, 0.3]] * 6)
    assert game.decided_at == pytest.approx(5 / 6)
    assert game.indicators["decided_before_half"] == 0


def test_a_scripted_comeback_reads_as_one():
    outcome, game = scripted([[0.4, 0.3, 0.3], [0.1, 0.6, 0.3], [0.15, 0.7, 0.15], [0.5, 0.4, 0.1],
                              [0.85, 0.1, 0.05], [0.9, 0.05, 0.05]])
    assert outcome.result.winners == [0]
    assert game.comeback and game.lowest == pytest.approx(0.1)
    assert game.decided_at == pytest.approx(3 / 6)  # above 0.8 after the fourth action, played after 3 turns
    # the leader by chances at the end of each turn: 0, 1, 1, 0, 0, 0, then the result's 0
    assert game.lead_changes == 2
    _, steady = scripted([[0.5, 0.25, 0.25]] * 6)
    assert not steady.comeback and steady.lowest == pytest.approx(0.5) and steady.lead_changes == 0


KING = [[0.5, 0.5, 0.0]] * 6


def test_a_seat_with_no_chance_that_picks_the_winner_is_found_and_its_replay_changes_the_winner():
    tally = DramaTally()
    winners = set()
    for seed in range(20):
        outcome, game = scripted(KING, kingmaker=True, seed=seed)
        winners.add(outcome.result.winners[0])
        assert game.kingmaker and game.spreads == [1.0]
        # the alternative crown, replayed with the same randomness, crowns the other seat
        assert game.replays == 1 and game.changed == 1
        tally.add(game)
    assert winners == {0, 1}
    assert tally.kingmaker_games == 20 and tally.changed == tally.replays == 20


def test_a_variant_without_the_kingmaker_position_reads_lower():
    with_king, without = DramaTally(), DramaTally()
    for seed in range(20):
        with_king.add(scripted(KING, kingmaker=True, seed=seed)[1])
        without.add(scripted(KING, kingmaker=False, seed=seed)[1])
    assert with_king.kingmaker_games == 20
    assert without.kingmaker_games == 0 and without.low_chance_decisions == 0  # one option: no choice to make
    # Seat 2 has no chance in both; only its offered choice makes it a kingmaker.


def test_a_seat_whose_options_move_no_rival_is_no_kingmaker():
    # seat 2's chance is 0 and it decides, but the scripted chances are the same after either crown... for a
    # single-option decision the watcher does not even score options
    _, game = scripted([[0.5, 0.5, 0.0]] * 5 + [[0.5, 0.5, 0.0]])
    assert game.spreads == [] and not game.kingmaker


def test_drama_does_not_change_the_game_it_watches():
    ruleset = get_ruleset("cash-n-guns")
    for seed in range(5):
        plain = play_game(ruleset, 4, ["heuristic"] * 4, None, seed)
        watcher = DramaWatcher(ruleset)
        watched = play_game(ruleset, 4, ["heuristic"] * 4, None, seed, observer=watcher)
        assert watched.result == plain.result and watched.turns == plain.turns
        assert watcher.calls >= len(watcher.chances) > 1


def test_skill_index_reference_points():
    assert skill_index(0, 100, 4)["value"] == pytest.approx(-1 / 3)
    assert skill_index(100, 100, 4)["value"] == 1.0  # the stronger always wins
    assert skill_index(25, 100, 4)["value"] == 0.0  # a fair share: skill does not show


def test_skill_index_near_zero_for_two_random_lineups_and_high_for_heuristic_against_random():
    ruleset = get_ruleset("cash-n-guns")
    same = skill_ladder(ruleset, 4, 400, seed=3, strong="random", weak="random")
    assert same["ci95"][0] < 0 < same["ci95"][1] and abs(same["value"]) < 0.1
    skilled = skill_ladder(ruleset, 4, 400, seed=3)
    assert skilled["strong"] == "heuristic" and skilled["value"] > 0.5 and skilled["ci95"][0] > 0.4


def test_isotonic_fit_is_monotone_and_corrects_an_over_confident_top():
    # predicted 0.95 but won 0.8 of the time; predicted 0.1 and won 0.1
    pairs = [(0.95, int(i % 10 < 8)) for i in range(200)] + [(0.1, int(i % 10 == 0)) for i in range(200)]
    points = fit_isotonic(pairs)
    xs, ys = zip(*points, strict=True)
    assert list(xs) == sorted(xs) and list(ys) == sorted(ys)
    calibration = Calibration(xs, ys, "isotonic")
    assert calibration.value(0.95) == pytest.approx(0.8)
    assert reliability(pairs)[-1]["gap"] == pytest.approx(0.15)
    assert abs(reliability(pairs, calibration)[-1]["gap"]) < 1e-9
    assert sum(calibration.apply([0.95, 0.05, 0.0])) == pytest.approx(1.0)


def test_every_game_has_a_calibration_fit_for_its_shipped_model():
    for name in ("cash-n-guns", "hitchiker", "monopoly-cars2", "whipcash"):
        ruleset = get_ruleset(name)
        assert calibration_for(ruleset, load_model(ruleset)).name == "isotonic", name


def test_drama_chunks_merge_exactly_and_report_with_intervals():
    variants = [Variant("base", {}, ["random"] * 3, {}), Variant("rich", {"starting_money": 24}, ["random"] * 3, {})]
    whole = play_experiment_chunk("monopoly-cars2", 3, variants, [0, 1], 5, 0, 40, drama=True)
    parts = [play_experiment_chunk("monopoly-cars2", 3, variants, [0, 1], 5, start, 20, drama=True)
             for start in (0, 20)]
    for v in (0, 1):
        merged = VariantTally.from_dict(parts[0][v].to_dict())
        merged.merge(VariantTally.from_dict(parts[1][v].to_dict()))
        a, b = merged.drama.to_dict(), whole[v].drama.to_dict()
        a.pop("seconds"), b.pop("seconds")
        assert a.keys() == b.keys()
        for name, value in a.items():  # sums of floats, added in another order
            if isinstance(value, list):
                assert value == pytest.approx(b[name]), name
            elif isinstance(value, dict):
                assert {k: pytest.approx(x) for k, x in value.items()} == b[name]
            else:
                assert value == b[name], name
    assert whole[0].drama.games == 40 and whole[0].drama.skill_games == 10
    reports = []
    for v, variant in enumerate(variants):
        report = variant_measures("monopoly-cars2", 5, variant, whole[v])
        report["difference"] = differences(whole[v]) if v else None
        reports.append(report)
    drama = reports[0]["drama"]
    assert drama["thresholds"]["calibration"] == "isotonic"
    low, high = drama["decided_at"]["ci95"]
    assert 0 <= low <= drama["decided_at"]["mean"] <= high
    assert drama["model_calls_per_game"] > 1
    assert reports[1]["difference"]["drama"]["kingmaker"]["pairs"] == 40
    assert "Drama: the base is decided at" in sentence(reports)


def test_an_experiment_without_drama_keeps_no_drama():
    variants = [Variant("base", {}, ["random"] * 3, {})]
    tally = play_experiment_chunk("monopoly-cars2", 3, variants, [0], 5, 0, 5)[0]
    assert tally.drama is None and "drama" not in tally.to_dict()
    assert "drama" not in variant_measures("monopoly-cars2", 5, variants[0], tally)
