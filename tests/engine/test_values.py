"""Value models (``engine.values``): shipped for the rules as played now, fair from a seat's view, and
what a model file says is what it predicts."""

from __future__ import annotations

import json
import math

import pytest

from engine.core.registry import all_rulesets, get_ruleset
from engine.core.result import Result
from engine.core.rng import Rng
from engine.values.model import (
    ValueModel,
    ValueModelError,
    features_of,
    load_model,
    model_path,
    read_model,
    win_chances,
)
from engine.values.train import equal_shares, evaluate, refusals, sample_positions, standing_shares, train
from tests.engine.samples import sampled_states

RULESETS = sorted(all_rulesets())


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_every_ruleset_ships_a_model_of_the_rules_it_plays_now(ruleset_id):
    """A rules-version change (or a change of features) without a retrained model fails here: a stale
    model is never used, and cannot be switched off quietly either."""
    ruleset = get_ruleset(ruleset_id)
    model = load_model(ruleset)
    assert model.rules_version == ruleset.rules_version
    assert model.features == features_of(ruleset)(ruleset.new_game(ruleset.max_players)).names
    assert refusals(model.data["held_out"]) == [], "a shipped model beats both baselines"


def test_a_model_of_another_rules_version_is_refused(tmp_path):
    ruleset = get_ruleset("whipcash")
    data = json.loads(model_path(ruleset).read_text())
    data["rules_version"] = ruleset.rules_version + 1
    path = tmp_path / "values.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ValueModelError, match="rules version"):
        read_model(ruleset, path)


def test_a_model_of_other_features_is_refused():
    ruleset = get_ruleset("monopoly-cars2")
    data = json.loads(model_path(ruleset).read_text())
    data["features"] = [*data["features"][:-1], "a_feature_the_code_does_not_compute"]
    with pytest.raises(ValueModelError, match="features"):
        ValueModel(ruleset, data).check()


def test_a_model_file_round_trips_and_predicts_what_it_scored_at_training(tmp_path):
    games, seed = 48, 3
    data = train("monopoly-cars2", games, seed, refuse=False)  # too few games to beat the baselines surely
    path = tmp_path / "values.json"
    path.write_text(json.dumps(data))
    model = read_model(get_ruleset("monopoly-cars2"), path)
    assert model.to_dict() == data
    # The same games' held-out positions, scored again with the model read back: the same scores.
    positions = sample_positions(get_ruleset("monopoly-cars2"), games, seed)
    held_out = [p for p in positions if p.game >= games - data["trained_on"]["held_out_games"]]
    assert evaluate(model, held_out) == data["held_out"]


def test_a_model_that_does_not_beat_a_baseline_is_refused():
    good = {"log_loss": 0.5, "brier": 0.3}
    scores = {"overall": {"model": good, "equal": {"log_loss": 0.69, "brier": 0.5},
                          "standings": {"log_loss": 0.6, "brier": 0.4}},
              "by_players": {"3": {"model": {"log_loss": 0.9, "brier": 0.3}, "equal": {"log_loss": 1.1, "brier": 0.6},
                                   "standings": {"log_loss": 0.8, "brier": 0.5}}}}
    assert refusals(scores) == ["3 players: log_loss 0.9 is no better than the standings baseline's 0.8"]
    scores["by_players"]["3"]["model"]["log_loss"] = 0.7
    assert refusals(scores) == []


def cash_n_guns_state_with_secrets():
    """A Cash 'n Guns state where other seats' face-down bullets change the full-information chances."""
    ruleset = get_ruleset("cash-n-guns")
    model = load_model(ruleset)
    for state, seat in sampled_states(ruleset, 6, every=1, seed=11):
        if ruleset.result(state) is not None:
            continue
        other = ruleset.resample_hidden(state, seat, Rng(1))
        if model.predict(other) != model.predict(state):
            return state, other, seat
    raise AssertionError("no sampled state had secrets the model reads")


def test_a_seat_s_chances_are_the_same_for_states_differing_only_in_what_it_cannot_see():
    ruleset = get_ruleset("cash-n-guns")
    state, other, seat = cash_n_guns_state_with_secrets()
    assert win_chances(ruleset, state, seat, Rng(9)) == win_chances(ruleset, other, seat, Rng(9))
    # A spectator sees less than the seat still: the same holds from the spectator's view.
    spectator = ruleset.resample_hidden(state, None, Rng(2))
    assert win_chances(ruleset, state, None, Rng(9)) == win_chances(ruleset, spectator, None, Rng(9))


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_chances_are_a_distribution_and_a_seat_out_of_the_game_has_none(ruleset_id):
    ruleset = get_ruleset(ruleset_id)
    model = load_model(ruleset)
    for state, seat in sampled_states(ruleset, 3, every=7, seed=5):
        chances = win_chances(ruleset, state, seat, Rng(1), worlds=2)
        assert math.isclose(sum(chances), 1.0)
        assert all(0.0 <= chance <= 1.0 for chance in chances)
        if ruleset.result(state) is None:
            can_win = features_of(ruleset)(state).can_win
            assert [chance > 0 for chance in model.predict(state)] == can_win


def test_a_finished_game_s_chances_are_its_result_s_shares():
    ruleset = get_ruleset("whipcash")
    state = ruleset.new_game(3)
    state.phase = "over"
    state.alive[2] = False
    state.cash[0] = state.cash[1]
    assert ruleset.result(state).winners == [0, 1]
    assert win_chances(ruleset, state, 2, Rng(1)) == [0.5, 0.5, 0.0]


def test_the_baselines():
    assert equal_shares([True, False, True]) == [0.5, 0.0, 0.5]
    assert standing_shares([30.0, 10.0, 20.0], [True, True, True]) == [2 / 3, 0.0, 1 / 3]
    # A seat out of the game gets nothing, and the lead is over the last contender.
    assert standing_shares([30.0, -1.0, 20.0, 10.0], [True, False, True, True]) == [2 / 3, 0.0, 1 / 3, 0.0]
    assert standing_shares([5.0, 5.0], [True, True]) == [0.5, 0.5]


def test_shared_wins_are_split_in_the_training_targets():
    ruleset = get_ruleset("monopoly-cars2")
    positions = sample_positions(ruleset, 6, 1)
    assert positions and all(math.isclose(sum(p.target), 1.0) for p in positions)
    result = Result(winners=[0, 2], ranking=[0, 2, 1], scores=[5, 1, 5], reason="turn_cap")
    from engine.values.model import result_shares

    assert result_shares(result, 3) == [0.5, 0.0, 0.5]


def test_train_values_writes_a_model_that_beats_the_baselines(tmp_path, capsys):
    from api.cli import main

    out = tmp_path / "values.json"
    assert main(["train-values", "monopoly-cars2", "--games", "8", "--seed", "1", "--out", str(out)]) == 0
    model = read_model(get_ruleset("monopoly-cars2"), out)
    assert model.data["trained_on"]["games"] == 8 and refusals(model.data["held_out"]) == []
    assert "calibration" in capsys.readouterr().out


def test_train_values_refuses_a_model_that_does_not(tmp_path, capsys):
    from api.cli import main

    out = tmp_path / "values.json"
    # Eight games, two held out: with this seed the model loses to the equal baseline.
    assert main(["train-values", "monopoly-cars2", "--games", "8", "--seed", "2", "--out", str(out)]) == 1
    assert not out.exists()
    assert "no better than the equal baseline" in capsys.readouterr().err
