"""The ``mcts`` search bots: legal, fair with hidden information, deterministic, bounded."""

from __future__ import annotations

import pytest

from engine.bots.search import LEVEL_WORLDS, MAX_CANDIDATES, SEARCH_BOTS, candidate_actions
from engine.core.decisions import Decision
from engine.core.registry import all_rulesets, get_ruleset
from engine.core.rng import Rng
from engine.games.cash_n_guns.cards import BANG, CLICK
from engine.games.cash_n_guns.state import BULLETS
from tests.engine.samples import sampled_states

RULESETS = sorted(all_rulesets())


def choice_states(ruleset_id: str, wanted: int, games: int = 6):
    """States (and their first decision) where that seat has more than one candidate move."""
    ruleset = get_ruleset(ruleset_id)
    found = []
    for state, _ in sampled_states(ruleset, games, every=5, seed=14):
        decision = ruleset.pending(state)[0]
        if len(candidate_actions(decision)) > 1:
            found.append((state, decision))
            if len(found) == wanted:
                break
    assert found, f"no {ruleset_id} state with a choice"
    return found


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_every_ruleset_offers_the_search_levels(ruleset_id):
    names = get_ruleset(ruleset_id).bot_names()
    assert {"mcts", *(f"mcts-{level}" for level in LEVEL_WORLDS)} <= set(names)
    assert get_ruleset(ruleset_id).bot("mcts").level == 3


def test_levels_cost_more_the_higher_they_go():
    costs = [SEARCH_BOTS[f"mcts-{level}"].cost_per_move for level in sorted(LEVEL_WORLDS)]
    assert costs == sorted(costs) and len(set(costs)) == len(costs)
    assert all(bot.searches for bot in SEARCH_BOTS.values())


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_the_search_plays_only_offered_options_through_a_whole_game(ruleset_id):
    """mcts-1 in seat 0 against the heuristic: every move it sends is legal, and the game ends."""
    ruleset = get_ruleset(ruleset_id)
    state = ruleset.new_game(4, None, seed=3)
    bots = [ruleset.bot("mcts-1")] + [ruleset.bot("heuristic")] * 3
    rngs = [Rng(seat) for seat in range(4)]
    searched = 0
    for _ in range(3000):
        decisions = ruleset.pending(state)
        if not decisions:
            break
        decision = decisions[0]
        action = bots[decision.seat].choose(state, decision, rngs[decision.seat])
        if decision.seat == 0:
            assert ruleset.check(state, 0, ruleset.parse_action(action)) is not None
            searched += 1
        ruleset.apply(state, decision.seat, action)
    assert ruleset.result(state) is not None
    assert searched > 0


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_a_search_never_changes_the_state_it_reads(ruleset_id):
    ruleset = get_ruleset(ruleset_id)
    bot = ruleset.bot("mcts-1")
    for state, decision in choice_states(ruleset_id, 3):
        before = ruleset.to_dict(state)
        bot.choose(state, decision, Rng(5))
        assert ruleset.to_dict(state) == before  # the game's RNG included: no draw was taken from it


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_the_search_decides_the_same_whatever_its_seat_cannot_see(ruleset_id):
    """Two states that differ only in what the seat cannot see (another deal of the hidden cards and
    choices, another game RNG) get the same analysis from the same bot seed."""
    ruleset = get_ruleset(ruleset_id)
    bot = ruleset.bot("mcts-1")
    for state, decision in choice_states(ruleset_id, 4):
        other = ruleset.resample_hidden(state, decision.seat, Rng(99))
        assert ruleset.view(other, decision.seat) == ruleset.view(state, decision.seat)
        assert bot.analyse(state, decision, Rng(8)) == bot.analyse(other, decision, Rng(8))


def test_a_gangster_choosing_a_bullet_cannot_tell_what_the_others_chose():
    """Cash 'n Guns' bullets are chosen at once: a seat's search must not see an earlier seat's card."""
    ruleset = get_ruleset("cash-n-guns")
    for seed in (1, 3, 6):  # deals where seat 0's card would change seat 1's odds if it could be seen
        state = ruleset.new_game(4, None, seed=seed)
        assert state.phase == BULLETS
        analyses = []
        for card in (BANG, CLICK):
            played = ruleset.copy(state)
            ruleset.apply(played, 0, {"type": "choose_bullet", "card": card})
            decision = next(d for d in ruleset.pending(played) if d.seat == 1)
            analyses.append(ruleset.bot("mcts-2").analyse(played, decision, Rng(4)))
        assert analyses[0] == analyses[1]
        assert any(option["value"] for option in analyses[0]["options"])


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_the_same_seed_gives_the_same_move_and_another_seed_may_not(ruleset_id):
    ruleset = get_ruleset(ruleset_id)
    bot = ruleset.bot("mcts-1")
    (state, decision), *_ = choice_states(ruleset_id, 1)
    first = bot.analyse(state, decision, Rng(1))
    assert bot.analyse(ruleset.from_dict(ruleset.to_dict(state)), decision, Rng(1)) == first
    values = {tuple(option["value"] for option in bot.analyse(state, decision, Rng(seed))["options"])
              for seed in range(2, 6)}
    assert len(values) > 1, "the bot's seed changes the worlds it samples"


def test_an_analysis_weighs_every_candidate_on_the_same_worlds():
    ruleset = get_ruleset("cash-n-guns")
    (state, decision), *_ = choice_states("cash-n-guns", 1)
    analysis = ruleset.bot("mcts-2").analyse(state, decision, Rng(3))
    assert analysis["worlds"] == LEVEL_WORLDS[2]
    assert [option["samples"] for option in analysis["options"]] == [LEVEL_WORLDS[2]] * len(analysis["options"])
    assert analysis["action"] in [option["action"] for option in analysis["options"]]
    assert all(0.0 <= option["value"] <= 1.0 for option in analysis["options"])
    assert all(decision.allows(option["action"]) for option in analysis["options"])


def test_a_forced_move_is_played_without_a_search():
    ruleset = get_ruleset("whipcash")
    state = ruleset.new_game(2, None, seed=1)
    only = Decision(0, "roll", [{"type": "roll", "dice": 1}])
    analysis = ruleset.bot("mcts").analyse(state, only, Rng(1))
    assert analysis == {"action": {"type": "roll", "dice": 1}, "worlds": 0, "actions": 0,
                        "options": [{"action": {"type": "roll", "dice": 1}, "value": None, "samples": 0}]}


def test_a_search_counts_the_engine_actions_it_played_within_its_bound():
    """What a search did (the accounting charges it): one action per rollout step, and never more than
    the level's ``cost_per_move``; less where the decision has few candidates or rollouts end early."""
    ruleset = get_ruleset("whipcash")
    state = ruleset.new_game(2, None, seed=1)
    decision = ruleset.pending(state)[0]
    bot = ruleset.bot("mcts-1")
    analysis = bot.analyse(state, decision, Rng(3))
    candidates = len(analysis["options"])
    assert analysis["worlds"] * candidates <= analysis["actions"]  # at least the first move of each rollout
    assert analysis["actions"] <= analysis["worlds"] * candidates * (1 + ruleset.search_horizon)
    assert analysis["actions"] <= type(bot).cost_per_move


def test_a_ranged_choice_weighs_its_ends_its_middle_and_nothing_out_of_range():
    decision = Decision(0, "deposit", [{"type": "deposit", "amount": 0}, {"type": "deposit", "amount": 20000}],
                        ranges={"deposit": {"amount": [0, 20000]}})
    assert candidate_actions(decision) == [{"type": "deposit", "amount": 0}, {"type": "deposit", "amount": 20000},
                                           {"type": "deposit", "amount": 10000}]


def test_a_wide_choice_is_cut_to_a_bounded_number_of_candidates_keeping_the_default():
    """Work a move is bounded: a decision with many options weighs at most MAX_CANDIDATES of them."""
    options = [{"type": "pick", "n": n} for n in range(40)]
    decision = Decision(0, "pick", options)
    assert candidate_actions(decision) == options[:MAX_CANDIDATES]
    kept = candidate_actions(decision, default={"type": "pick", "n": 33})
    assert len(kept) == MAX_CANDIDATES and {"type": "pick", "n": 33} in kept
    assert candidate_actions(decision, default={"type": "pick", "n": 2}) == options[:MAX_CANDIDATES]


def value_search(horizon: int, **settings):
    """A search whose rollouts stop after ``horizon`` actions and are scored by the value model."""
    from engine.bots.search import SearchBot

    return type("ValueSearch", (SearchBot,), {"world_count": 8, "horizon": horizon, "use_values": True, **settings})


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_a_search_scored_by_the_value_model_is_legal_deterministic_and_reads_the_model(ruleset_id):
    from engine.values.model import load_model

    ruleset = get_ruleset(ruleset_id)
    bot = value_search(3)(ruleset)
    (state, decision), *_ = choice_states(ruleset_id, 1)
    first = bot.analyse(state, decision, Rng(1))
    assert decision.allows(first["action"]) and bot.analyse(state, decision, Rng(1)) == first
    # A rollout cut off at once is scored by the model's chance for the seat in that world.
    world = ruleset.copy(state)
    assert bot._rewards(world) == load_model(ruleset).predict(world)
    # The default search reads the model exactly where the ruleset sets a value horizon.
    assert (ruleset.bot("mcts")._model is not None) == (ruleset.value_horizon is not None)


@pytest.mark.parametrize("ruleset_id", ["whipcash", "hitchiker"])
def test_a_flat_rollout_is_the_rollout_bot_for_every_seat_after_the_move_scored_by_the_model(ruleset_id):
    """No tree: after its candidate the seat plays the rollout bot like everyone, for the horizon, and the
    world is scored by the model's chance for the seat."""
    from engine.bots.search import _Node
    from engine.values.model import load_model

    ruleset = get_ruleset(ruleset_id)
    bot, policy, model = value_search(10, flat=True)(ruleset), ruleset.bot(ruleset.rollout_bot), load_model(ruleset)
    for state, decision in choice_states(ruleset_id, 3):
        for action in candidate_actions(decision):
            node, played = _Node(), [0]
            reward = bot._play_out(ruleset.copy(state), decision.seat, action, node, policy, Rng(9), played)
            world, rng = ruleset.copy(state), Rng(9)
            ruleset.apply(world, decision.seat, action, check=False)
            actions = 1
            for _ in range(10):
                if not (pending := ruleset.pending(world)):
                    break
                ruleset.apply(world, pending[0].seat, policy.choose(world, pending[0], rng), check=False)
                actions += 1
            assert reward == model.predict(world)[decision.seat] and played == [actions] and not node.children


def test_the_confidence_rule_keeps_the_rollout_bots_move_unless_a_candidate_is_better_by_enough_errors():
    from engine.bots.search import SearchBot

    default = [0.5] * 64
    # Paired differences alternating +0.25 and -0.15: a mean of 0.05 at 1.98 standard errors.
    better = [0.75 if index % 2 else 0.35 for index in range(64)]
    assert SearchBot._pick([default, better], 0) == 0  # two standard errors: kept
    assert SearchBot._pick([default, better], 0, confidence=1.0) == 1
    assert SearchBot._pick([default, better], None) == 1  # no default: the best mean


def test_a_rulesets_value_confidence_rules_its_model_scored_searches_only():
    """``value_confidence`` is the confidence rule of a search scored by the ruleset's model; a search
    without the model, or a variant naming its own rule, keeps its own."""
    from engine.bots.search import CONFIDENCE, SearchBot

    whipcash = type(get_ruleset("whipcash"))
    with_model = type("ModelScored", (whipcash,), {"value_horizon": 10, "value_confidence": 1.0})()
    without_model = type("StandingsScored", (whipcash,), {"value_horizon": None, "value_confidence": 1.0})()
    assert with_model.bot("mcts-1")._confidence == 1.0
    assert without_model.bot("mcts-1")._confidence == CONFIDENCE
    own_rule = type("OwnRule", (SEARCH_BOTS["mcts-1"],), {"confidence": 3.0})
    assert own_rule(with_model)._confidence == 3.0
    # A model-scored search under its ruleset's rule plays offered moves, and the rule is what ``_pick`` uses.
    for state, decision in choice_states("whipcash", 2):
        assert decision.allows(with_model.bot("mcts-1").choose(state, decision, Rng(4)))
    assert SearchBot._pick([[0.5] * 64, [0.75 if i % 2 else 0.35 for i in range(64)]], 0,
                           with_model.bot("mcts-1")._confidence) == 1


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_a_search_scored_by_the_model_samples_more_worlds_within_its_levels_bound(ruleset_id):
    """A ruleset's ``value_worlds`` multiplies each level's worlds only with its model, and a cut-off rollout
    is short enough that ``cost_per_move`` (the quota's bound) still bounds the move."""
    from engine.bots.search import MAX_ROLLOUT_ACTIONS

    ruleset = get_ruleset(ruleset_id)
    level = SEARCH_BOTS["mcts-1"]
    if ruleset.value_horizon is None:
        assert level.worlds(ruleset) == LEVEL_WORLDS[1] and level.rollout_horizon(ruleset) == ruleset.search_horizon
        return
    assert ruleset.value_worlds * (ruleset.value_horizon + 1) <= MAX_ROLLOUT_ACTIONS
    assert level.worlds(ruleset) == LEVEL_WORLDS[1] * ruleset.value_worlds
    assert level.rollout_horizon(ruleset) == ruleset.value_horizon
    (state, decision), *_ = choice_states(ruleset_id, 1)
    analysis = ruleset.bot("mcts-1").analyse(state, decision, Rng(2))
    assert analysis["worlds"] == LEVEL_WORLDS[1] * ruleset.value_worlds
    assert {option["samples"] for option in analysis["options"]} == {analysis["worlds"]}
    assert 0 < analysis["actions"] <= level.cost_per_move
