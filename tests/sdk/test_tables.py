"""A person among bots on real workers: decision preconditions do not race the bots."""

from __future__ import annotations

import pytest

from tests.sdk.test_examples import load_example


def test_a_scripted_human_among_three_bots_gets_no_stale_rejection(base_url, checker, workers):
    workers.start(2)
    example = load_example("cash_n_guns_with_bots")
    moves = stale = 0
    for seed in (1, 2, 3):
        final = example.main(base_url, seed=seed, think=(0.05, 0.3), session=checker.session(), quiet=True)
        assert final["status"] == "finished"
        moves, stale = moves + final["moves"], stale + final["stale"]
    assert moves > 30
    assert stale == 0


def test_an_action_body_is_sent_exactly_as_given_with_its_nulls(client):
    game = client.create_game("cash-n-guns", [{"name": f"p{n}"} for n in range(4)], seed=1)
    seats = [client.with_token(seat["token"]) for seat in game["seats"]]
    for seat in seats:
        decision = seat.get_decisions(game["id"])["decisions"][0]
        seat.submit_action(game["id"], {"type": "choose_bullet", "card": "click"}, if_match=f'"d:{decision["id"]}"')
    decision = seats[0].get_decisions(game["id"])["decisions"][0]
    assert decision["kind"] == "aim" and decision["default"] == {"type": "aim", "target": None}
    answer = seats[0].submit_action(game["id"], {"type": "aim", "target": None}, if_match=f'"d:{decision["id"]}"')
    assert answer["version"] == 5


def test_a_stale_decision_names_the_current_ones(client):
    from rulehouse_sdk import StaleVersion

    game = client.create_game("cash-n-guns", [{"name": f"p{n}"} for n in range(4)], seed=1)
    me = client.with_token(game["seats"][0]["token"])
    turn = next(me.my_turns(game["id"]))
    assert turn.id == "0.0" and turn.version == 0
    me.act(turn, {"type": "choose_bullet", "card": "click"})
    with pytest.raises(StaleVersion) as refused:
        me.act(turn, {"type": "choose_bullet", "card": "click"})
    assert refused.value.status == 412 and refused.value.decisions == [] and refused.value.version == 1
