"""An unknown ruleset id gets one answer wherever it is met: the known ids, and the nearest one
when the id looks like a typo of it (people type "hitchhiker")."""

from __future__ import annotations

import pytest

from engine.core.registry import UnknownRuleset, all_rulesets, get_ruleset
from engine.records import RecordError, replay
from tests.api.helpers import assert_problem

TYPOS = [("hitchhiker", "hitchiker"), ("Whipcash", "whipcash"), ("cash-and-guns", "cash-n-guns"),
         ("monopoly", "monopoly-cars2"), ("cashnguns", "cash-n-guns")]
KNOWN = ("cash-n-guns", "hitchiker", "monopoly-cars2", "whipcash")


def says_it(message: str, nearest: str | None) -> None:
    for ruleset_id in KNOWN:
        assert ruleset_id in message, message
    if nearest is None:
        assert "did you mean" not in message, message
    else:
        assert f"did you mean {nearest!r}?" in message, message


@pytest.mark.parametrize(("typed", "nearest"), [*TYPOS, ("chess", None), ("", None)])
def test_the_engine_names_the_ids_and_the_nearest(typed, nearest):
    with pytest.raises(UnknownRuleset) as raised:
        get_ruleset(typed)
    assert isinstance(raised.value, KeyError)  # callers that catch KeyError still do
    assert raised.value.nearest == nearest
    says_it(raised.value.message, nearest)
    assert set(raised.value.known) == set(all_rulesets())


@pytest.mark.parametrize(("typed", "nearest"), [*TYPOS, ("chess", None)])
def test_games_rulesets_records_and_simulations_say_the_same(client, typed, nearest):
    created = assert_problem(client.post("/v1/games", json={"ruleset": typed, "seats": [{"name": "a"}] * 2}),
                             422, "validation-error")
    assert [error["pointer"] for error in created["errors"]] == ["/ruleset"]
    says_it(created["errors"][0]["detail"], nearest)
    says_it(created["detail"], nearest)
    for path in (f"/v1/rulesets/{typed}", f"/v1/rulesets/{typed}/rules"):
        says_it(assert_problem(client.get(path), 404, "not-found")["detail"], nearest)
    evaluated = client.post(f"/v1/rulesets/{typed}/evaluate", json={"record": {"players": 2, "seed": 1}})
    says_it(assert_problem(evaluated, 404, "not-found")["detail"], nearest)
    simulated = assert_problem(client.post("/v1/simulations", json={"ruleset": typed, "games": 10}),
                               422, "validation-error")
    ruleset_errors = [error["detail"] for error in simulated["errors"] if error["pointer"] == "/ruleset"]
    assert len(ruleset_errors) == 1
    says_it(ruleset_errors[0], nearest)


def test_a_record_of_an_unknown_ruleset_says_it_too():
    with pytest.raises(RecordError) as raised:
        replay({"ruleset": "hitchhiker", "players": 2, "seed": 1})
    assert raised.value.reason == "unknown_ruleset"
    says_it(raised.value.message, "hitchiker")
