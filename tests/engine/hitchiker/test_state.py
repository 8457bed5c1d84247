"""The state's fast copy is a true deep copy: equal, and sharing nothing mutable."""

from __future__ import annotations

import dataclasses
import json

from engine.core.serial import from_jsonable, to_jsonable
from engine.games.hitchiker.state import HitchikerState
from tests.engine.hitchiker.helpers import RULES
from tests.engine.invariants import play_random


def mutable_parts(value, path="state"):
    if dataclasses.is_dataclass(value):
        yield path, value
        for field in dataclasses.fields(value):
            if field.name != "custom":
                yield from mutable_parts(getattr(value, field.name), f"{path}.{field.name}")
    elif isinstance(value, (list, dict)):
        yield path, value
        for key, item in (value.items() if isinstance(value, dict) else enumerate(value)):
            yield from mutable_parts(item, f"{path}[{key}]")


def test_copy_is_equal_and_shares_nothing_mutable_at_every_step():
    checked = 0

    def check(state, decisions):
        nonlocal checked
        twin = RULES.copy(state)
        assert twin == state
        originals = {id(part) for _, part in mutable_parts(state)}
        shared = [path for path, part in mutable_parts(twin) if id(part) in originals]
        assert not shared
        checked += 1

    play_random(RULES, 6, 5, on_step=check)
    assert checked > 100


def test_the_written_out_serializer_matches_the_generic_one_at_every_step():
    checked = 0

    def check(state, decisions):
        nonlocal checked
        fast = RULES.to_dict(state)["state"]
        assert fast == to_jsonable(state)
        assert from_jsonable(HitchikerState, fast) == state
        assert RULES.from_dict(json.loads(json.dumps(RULES.to_dict(state)))) == state
        checked += 1

    play_random(RULES, 6, 11, on_step=check)
    assert checked > 100
