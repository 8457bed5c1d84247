"""``Ruleset.copy`` makes a true deep copy of every ruleset's state: equal, sharing nothing mutable
(but the fields declared shared: read-only data set up once), and independent once played on."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import pytest

from engine.core.clone import SHARED, clone, cloner, is_shared
from engine.core.registry import all_rulesets
from engine.core.rng import Rng
from tests.engine.samples import sampled_states

RULESETS = sorted(all_rulesets())
GAMES = 6
#: games whose options carry the published data as custom data, so shared fields hold something
CUSTOM_DATA_GAMES = 2


def mutable_parts(value, path: str = "state"):
    """(path, object) of every mutable object under ``value``, fields declared shared left out."""
    if dataclasses.is_dataclass(value):
        yield path, value
        for f in dataclasses.fields(value):
            if not is_shared(f):
                yield from mutable_parts(getattr(value, f.name), f"{path}.{f.name}")
    elif isinstance(value, (list, dict, set, Rng)):
        yield path, value
        if isinstance(value, dict):
            for key, item in value.items():
                yield from mutable_parts(item, f"{path}[{key!r}]")
        elif not isinstance(value, Rng):
            for index, item in enumerate(value):
                yield from mutable_parts(item, f"{path}[{index}]")


def shared_values(state) -> dict[str, object]:
    """Every field declared shared, by path (nested dataclasses too)."""
    found = {}

    def walk(value, path):
        if dataclasses.is_dataclass(value):
            for f in dataclasses.fields(value):
                item = getattr(value, f.name)
                if is_shared(f):
                    found[f"{path}.{f.name}"] = item
                else:
                    walk(item, f"{path}.{f.name}")
        elif isinstance(value, list):
            for index, item in enumerate(value):
                walk(item, f"{path}[{index}]")

    walk(state, "state")
    return found


def assert_true_copy(ruleset, state, seat: int) -> None:
    twin = ruleset.copy(state)
    assert type(twin) is type(state)
    assert ruleset.to_dict(twin) == ruleset.to_dict(state)
    assert twin == state
    originals = {id(part): path for path, part in mutable_parts(state)}
    shared = [path for path, part in mutable_parts(twin) if id(part) in originals]
    assert not shared, f"{ruleset.id}: the copy shares {shared}"
    assert all(shared_value is getattr_path(twin, path) for path, shared_value in shared_values(state).items())
    # Played on, the copy leaves the original alone.
    before = ruleset.to_dict(state)
    decision = next(d for d in ruleset.pending(twin) if d.seat == seat)
    ruleset.apply(twin, seat, decision.default_action(), check=False)
    assert ruleset.to_dict(state) == before


def getattr_path(value, path: str):
    for name in path.split(".")[1:]:
        index = None
        if "[" in name:
            name, rest = name.split("[", 1)
            index = int(rest.rstrip("]"))
        value = getattr(value, name)
        if index is not None:
            value = value[index]
    return value


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_copies_are_equal_independent_and_share_nothing_mutable(ruleset_id):
    ruleset = all_rulesets()[ruleset_id]
    checked = 0
    for state, seat in sampled_states(ruleset, GAMES, every=2, seed=41):
        assert_true_copy(ruleset, state, seat)
        checked += 1
    custom = ruleset.default_data()
    for state, seat in sampled_states(ruleset, CUSTOM_DATA_GAMES, every=5, options=custom or None, seed=42):
        assert_true_copy(ruleset, state, seat)
        checked += 1
    assert checked > 50


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_fields_declared_shared_never_change_during_a_game(ruleset_id):
    ruleset = all_rulesets()[ruleset_id]
    first = None
    for state, _ in sampled_states(ruleset, 1, every=1, options=ruleset.default_data() or None, seed=43):
        values = {path: repr(value) for path, value in shared_values(state).items()}
        first = values if first is None else first
        assert values == first


@dataclass(slots=True)
class Leaf:
    items: list[int]
    note: str = ""


@dataclass(slots=True)
class Tree:
    rng: Rng
    leaves: list[Leaf]
    by_name: dict[str, list[int]]
    counts: dict[str, int]
    pair: tuple[int, int]
    maybe: Leaf | None
    nothing: Leaf | None
    loose: list[dict]
    config: dict | None = field(default=None, metadata=SHARED)
    grid: list[list[int]] = field(default_factory=list)


def test_the_written_copy_follows_every_kind_of_annotation():
    tree = Tree(Rng(5, 3), [Leaf([1, 2], "a")], {"x": [3]}, {"y": 4}, (5, 6), Leaf([7]), None,
                [{"dice": [1, 2], "seat": 0}], {"board": [1]}, [[8], [9]])
    twin = clone(tree)
    assert twin == tree
    assert twin.config is tree.config
    originals = {id(part) for _, part in mutable_parts(tree)}
    assert not [path for path, part in mutable_parts(twin) if id(part) in originals]
    twin.rng.next64()
    twin.loose[0]["dice"].append(3)
    twin.grid[0].append(1)
    assert tree.rng == Rng(5, 3) and tree.loose == [{"dice": [1, 2], "seat": 0}] and tree.grid == [[8], [9]]
    assert cloner(Tree) is cloner(Tree)
