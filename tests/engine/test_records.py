"""Records replay bit for bit on the engine, and say where a tampered record diverges."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from engine.core.registry import all_rulesets, get_ruleset
from engine.core.rng import Rng, derive_seed
from engine.records import (
    RECORD_VERSION,
    RecordError,
    action_entry,
    evaluate,
    fork_position,
    make_record,
    redact,
    replay,
    seat_change_entry,
    seed_commitment,
)

SALT = "00112233445566778899aabbccddeeff"


def play_record(ruleset_id: str, players: int, bot: str, seed: int, options: dict | None = None,
                max_entries: int | None = None) -> dict:
    """A complete record of a game of bots, built the way the service builds one."""
    ruleset = get_ruleset(ruleset_id)
    state = ruleset.new_game(players, options, seed)
    setup = [event.to_dict() for event in ruleset.setup_events(state)]
    bots = [ruleset.bot(bot) for _ in range(players)]
    rngs = [Rng(derive_seed(seed, 1, n)) for n in range(players)]
    log = []
    while (pending := ruleset.pending(state)) and (max_entries is None or len(log) < max_entries):
        decision = pending[len(log) % len(pending)]
        action = bots[decision.seat].choose(state, decision, rngs[decision.seat])
        events = [event.to_dict() for event in ruleset.apply(state, decision.seat, action)]
        log.append(action_entry(len(log) + 1, decision.seat, action, events))
    result = ruleset.result(state)
    return make_record(ruleset, players=players, options=options or {}, seed=seed, log=log, setup_events=setup,
                       result=None if result is None else result.to_dict(), version=len(log), salt=SALT,
                       commitment=seed_commitment(seed, SALT), seed_source="service", game="g1")


def through_json(record: dict) -> dict:
    return json.loads(json.dumps(record))


CASES = [(ruleset_id, bot, players)
         for ruleset_id, ruleset in all_rulesets().items()
         for bot in ruleset.bot_names() if not ruleset.bot(bot).searches  # search bots: too slow for 6 games
         for players in sorted({ruleset.min_players, min(ruleset.max_players, ruleset.min_players + 2)})]


@pytest.mark.parametrize(("ruleset_id", "bot", "players"), CASES)
def test_records_of_many_games_replay_to_the_same_events_and_result(ruleset_id, bot, players):
    for seed in range(6):
        record = through_json(play_record(ruleset_id, players, bot, seed * 7919 + players))
        assert record["status"] == "finished"
        replayed = replay(record)
        assert replayed.divergence is None, replayed.divergence
        assert replayed.commitment_ok is True
        assert replayed.result == record["result"]
        assert replayed.entry_events == [entry["events"] for entry in record["log"]]


def test_a_changed_action_is_reported_at_its_log_entry():
    record = through_json(play_record("monopoly-cars2", 2, "random", 5))
    record["log"][3]["seat"] = 1 - record["log"][3]["seat"]
    replayed = replay(record)
    assert replayed.divergence.index == 3
    assert replayed.divergence.version == 4
    assert replayed.divergence.reason == "not_your_turn"


def test_a_changed_event_or_result_is_a_divergence():
    record = through_json(play_record("whipcash", 3, "heuristic", 2))
    other = copy.deepcopy(record)
    other["log"][5]["events"].append({"type": "made_up"})
    assert replay(other).divergence.reason == "events_differ"
    assert replay(other).divergence.index == 5
    other = copy.deepcopy(record)
    other["result"]["winners"] = [9]
    assert replay(other).divergence.reason == "result_differs"


def test_a_different_seed_breaks_the_commitment_or_the_replay():
    record = through_json(play_record("cash-n-guns", 4, "random", 3))
    cheat = dict(record, seed=4)
    replayed = replay(cheat)
    assert replayed.commitment_ok is False
    assert not replayed.ok
    forged = dict(record, seed=4, seed_commitment=seed_commitment(4, SALT))
    assert replay(forged).commitment_ok is True
    assert replay(forged).divergence is not None  # other dice: the logged game does not replay


def test_a_record_of_another_rules_version_is_not_replayed():
    record = through_json(play_record("hitchiker", 2, "random", 1))
    with pytest.raises(RecordError) as raised:
        replay(dict(record, rules_version=record["rules_version"] + 1))
    assert raised.value.reason == "rules_version"
    assert "rules version" in raised.value.message


def test_malformed_records_are_record_errors():
    for bad in ([], {"players": 2}, {"ruleset": "nope", "players": 2, "seed": 1},
                {"ruleset": "whipcash", "players": 2, "seed": 1, "log": [{"seat": -1}]},
                {"ruleset": "whipcash", "players": 2, "seed": 1, "format_version": 99}):
        with pytest.raises(RecordError):
            replay(bad)


def test_seat_changes_that_only_change_who_plays_are_ignored_by_replay():
    record = through_json(play_record("monopoly-cars2", 2, "heuristic", 8))
    version = record["log"][2]["version"]
    record["log"].insert(3, seat_change_entry(version, {"type": "seat_to_bot", "seat": 1, "bot": "random"}))
    replayed = replay(record)
    assert replayed.divergence is None
    assert replayed.entry_events[3] == []


def test_a_redacted_running_record_hides_secrets_and_does_not_replay():
    full = through_json(play_record("cash-n-guns", 4, "random", 9, max_entries=6))
    assert full["status"] == "active"
    ruleset = get_ruleset("cash-n-guns")
    mine = redact(full, ruleset, 2)
    assert mine["seed"] is None and mine["salt"] is None and mine["complete"] is False
    assert mine["seed_commitment"] == full["seed_commitment"]
    for entry in mine["log"]:
        assert (entry["action"] is not None) == (entry["seat"] == 2)
        assert all("visible_to" not in e or e["visible_to"] == [2] for e in entry["events"])
    spectator = redact(full, ruleset, None)
    assert all(entry["action"] is None for entry in spectator["log"])
    assert all("visible_to" not in e for entry in spectator["log"] for e in entry["events"])
    with pytest.raises(RecordError) as raised:
        replay(mine)
    assert raised.value.reason == "seed_hidden"
    public = redact(through_json(play_record("whipcash", 2, "random", 9, max_entries=6)), get_ruleset("whipcash"),
                    None)
    assert all(entry["action"] is not None for entry in public["log"])


def test_evaluate_reports_the_first_illegal_action_and_the_position_before_it():
    record = through_json(play_record("monopoly-cars2", 2, "random", 4, max_entries=10))
    legal = evaluate(record, 0)
    assert legal["legal"] and legal["applied"] == 10 and legal["illegal"] is None
    bad = copy.deepcopy(record)
    bad["log"][6]["action"] = {"type": "move_forward", "spaces": 99}
    answer = evaluate(bad, 1)
    assert not answer["legal"]
    assert answer["illegal"]["index"] == 6
    assert answer["applied"] == 6
    truncated = dict(record, log=record["log"][:6])
    assert answer["view"] == evaluate(truncated, 1)["view"]
    with pytest.raises(RecordError):
        evaluate(record, 5)


def test_a_fork_of_a_running_game_redeals_hidden_cards_and_reseeds():
    ruleset = get_ruleset("cash-n-guns")
    state = ruleset.new_game(4, None, 12)
    fork = fork_position(ruleset, state, finished=False, seed=99)
    assert fork.rng == Rng(99)
    assert ruleset.view(fork, None) == ruleset.view(state, None)
    assert ruleset.to_dict(fork) != ruleset.to_dict(state)
    assert ruleset.to_dict(fork_position(ruleset, state, finished=True, seed=99)) == ruleset.to_dict(state)


#: a finished Whipca$h game's record as the service wrote it in record format 1 (holdings: a seat number
#: or a Pro's id), checked in when format 2 came
FORMAT_1_RECORD = Path(__file__).parent / "data" / "whipcash-record-format-1.json"


def test_a_record_of_format_1_still_replays_its_result_restated_in_todays_shape():
    old = json.loads(FORMAT_1_RECORD.read_text())
    assert old["format_version"] == 1
    assert {type(holder) for holder in old["result"]["details"]["holdings"].values()} == {int, str}
    outcome = replay(old)
    assert outcome.ok, outcome.divergence
    assert outcome.result["details"]["holdings"] == {
        pro: {"seat": holder, "pro": None} if isinstance(holder, int) else {"seat": None, "pro": holder}
        for pro, holder in old["result"]["details"]["holdings"].items()}
    # Read as today's format its result differs: the restating is what keeps it replaying.
    as_if_new = replay(dict(old, format_version=RECORD_VERSION))
    assert as_if_new.divergence is not None and as_if_new.divergence.reason == "result_differs"
    # A record written today is of today's format, and replays as it is.
    today = through_json(play_record("whipcash", 2, "heuristic", 26))
    assert today["format_version"] == RECORD_VERSION == 3
    assert today["result"] == outcome.result and replay(today).ok


@pytest.mark.parametrize("version", [0, RECORD_VERSION + 1, "1", True, None])
def test_a_record_format_version_this_engine_does_not_read_is_refused(version):
    with pytest.raises(RecordError) as raised:
        replay(dict(json.loads(FORMAT_1_RECORD.read_text()), format_version=version))
    assert raised.value.reason == "invalid_record" and "format_version" in raised.value.fields
