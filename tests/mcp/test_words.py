"""Option labels: the served templates filled as the web table fills them (api/web/static/js/words.js)."""

from __future__ import annotations

import pytest
from rulehouse_sdk.mcp.options import OptionRefused, chosen_action, offered
from rulehouse_sdk.mcp.words import Words

from api.play.labels import labels
from engine.core.registry import all_rulesets


def words_of(ruleset: str, names: list[str] | None = None) -> Words:
    return Words(labels(all_rulesets()[ruleset]), names)


@pytest.mark.parametrize(("ruleset", "action", "label"), [
    ("cash-n-guns", {"type": "aim", "target": None}, "Don't aim"),
    ("cash-n-guns", {"type": "aim", "target": 2}, "Aim at Cy"),
    ("cash-n-guns", {"type": "courage", "stand": True}, "Stand"),
    ("cash-n-guns", {"type": "courage", "stand": False}, "Lie down"),
    ("hitchiker", {"type": "deposit", "amount": 0}, "Bank nothing"),
    ("hitchiker", {"type": "deposit", "amount": 1500}, "Bank $1,500"),
    ("whipcash", {"type": "roll", "dice": 2}, "Roll 2 dice"),
    ("monopoly-cars2", {"type": "move_forward", "spaces": 1}, "Move forward 1 space"),
    ("monopoly-cars2", {"type": "no_such_type", "x": 1}, "No such type (x 1)"),
])
def test_an_action_reads_as_the_table_shows_it(ruleset, action, label):
    assert words_of(ruleset, ["Ann", "Bo", "Cy"]).action(action) == label


def test_a_ranged_choice_is_one_option_with_its_range_and_its_amount_is_checked():
    decision = {"id": "1.7", "seat": 1, "kind": "deposit", "ranges": {"deposit": {"amount": [0, 40]}},
                "options": [{"type": "deposit", "amount": 0}, {"type": "deposit", "amount": 40},
                            {"type": "pass"}]}
    words = words_of("hitchiker")
    options = offered(decision, words)
    assert [option["id"] for option in options] == ["1.7:deposit", "1.7:pass"]
    assert options[0]["parameters"] == {"amount": {"min": 0, "max": 40}}
    assert options[0]["label"] == "Bank this much (Amount to bank: 0 to 40)"
    assert chosen_action(decision, "1.7:deposit", {"amount": 25}, words) == {"type": "deposit", "amount": 25}
    with pytest.raises(OptionRefused, match="out of range: from 0 to 40"):
        chosen_action(decision, "1.7:deposit", {"amount": 41}, words)
    with pytest.raises(OptionRefused, match="needs amount"):
        chosen_action(decision, "1.7:deposit", None, words)
    with pytest.raises(OptionRefused, match="takes no parameter amount"):
        chosen_action(decision, "1.7:pass", {"amount": 1}, words)
