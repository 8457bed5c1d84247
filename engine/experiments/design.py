"""The variants of an experiment: the base configuration first, then named variants or the points
of a sweep (one or two options, each over a list of values; two make a grid)."""

from __future__ import annotations

import itertools
import json
import math
from dataclasses import dataclass

from engine.core.errors import InvalidOptions
from engine.core.ruleset import Ruleset
from engine.simulate import seat_bots

#: Variants an experiment compares besides its base (named variants, or sweep points).
MAX_VARIANTS = 64
#: Options one sweep varies at once (two make a grid).
MAX_SWEEP_PARAMETERS = 2
BASE = "base"


@dataclass(frozen=True, slots=True)
class Variant:
    name: str
    options: dict
    bots: list[str]
    #: the swept options' values of a sweep point ({} for the base and named variants)
    point: dict

    def to_dict(self) -> dict:
        return {"name": self.name, "options": self.options, "bots": self.bots, "point": self.point}

    @classmethod
    def from_dict(cls, data: dict) -> Variant:
        return cls(data["name"], data["options"], list(data["bots"]), data.get("point", {}))


def point_name(point: dict) -> str:
    return ", ".join(f"{name}={json.dumps(value, separators=(',', ':'))}" for name, value in point.items())


def sweep_points(sweep: dict[str, list]) -> list[dict]:
    """Every combination of the swept values, the first option varying slowest."""
    names = list(sweep)
    return [dict(zip(names, values, strict=True)) for values in itertools.product(*(sweep[n] for n in names))]


def design(ruleset: Ruleset, players: int, base_options: dict, base_bots: list[str],
           variants: list[dict], sweep: dict[str, list]) -> list[Variant]:
    """The base and the variants, each checked by setting up a game with it; ``InvalidOptions``
    naming the field (``sweep.<option>.<index>``, ``variants.<index>.options``...) if one is wrong.

    ``variants``: ``{"name", "options" (merged over the base's), "bots" (default the base's)}``.
    """
    if variants and sweep:
        raise InvalidOptions("an experiment has named variants or a sweep, not both",
                             fields={"sweep": ["leave it out when `variants` is given"]})
    if len(sweep) > MAX_SWEEP_PARAMETERS:
        raise InvalidOptions(f"a sweep varies at most {MAX_SWEEP_PARAMETERS} options, not {len(sweep)}",
                             fields={"sweep": [f"at most {MAX_SWEEP_PARAMETERS} options"]})
    known = set(ruleset.options_schema().fields)
    for name, values in sweep.items():
        if name not in known:
            raise InvalidOptions(f"{ruleset.id} has no option {name!r}",
                                 fields={"sweep": {name: [f"unknown option; {ruleset.id} has {sorted(known)}"]}})
        if not values:
            raise InvalidOptions(f"the sweep of {name!r} has no values",
                                 fields={"sweep": {name: ["give 1 or more values"]}})
    count = math.prod(len(values) for values in sweep.values()) if sweep else len(variants)
    if count == 0:
        raise InvalidOptions("an experiment needs variants or a sweep to compare with its base",
                             fields={"variants": ["give at least one variant, or a sweep"]})
    if count > MAX_VARIANTS:
        field = "sweep" if sweep else "variants"
        raise InvalidOptions(f"{count} variants; an experiment compares at most {MAX_VARIANTS}",
                             fields={field: [f"at most {MAX_VARIANTS} variants (sweep points), not {count}"]})
    made = [Variant(BASE, base_options, base_bots, {})]
    for point in sweep_points(sweep) if sweep else []:
        made.append(Variant(point_name(point), {**base_options, **point}, base_bots, point))
    for index, variant in enumerate(variants):
        bots = seat_bots(variant.get("bots") or base_bots, players)
        options = {**base_options, **variant.get("options", {})}
        made.append(Variant(variant.get("name") or f"variant {index + 1}", options, bots, {}))
    names = [variant.name for variant in made]
    duplicates = sorted({name for name in names if names.count(name) > 1})
    if duplicates:
        if sweep:  # a value given twice
            raise InvalidOptions(f"two sweep points are {duplicates[0]!r}",
                                 fields={"sweep": ["each option's values must differ"]})
        raise InvalidOptions(f"two variants are named {duplicates[0]!r}", fields={"variants": ["names must differ"]})
    for position, variant in enumerate(made[1:]):
        try:
            ruleset.new_game(players, variant.options, 0)
        except InvalidOptions as error:
            raise InvalidOptions(f"variant {variant.name!r}: {error.message}",
                                 fields=_variant_field(position, variant, error.fields, sweep)) from None
        unknown = sorted(set(variant.bots) - set(ruleset.bot_names()))
        if unknown:
            raise InvalidOptions(f"unknown bot {unknown[0]!r} for {ruleset.id}",
                                 fields={"variants": {str(position): {"bots": [f"each must be one of "
                                                                               f"{ruleset.bot_names()}"]}}})
    return made


def _variant_field(position: int, variant: Variant, fields: dict, sweep: dict[str, list]) -> dict:
    """Where a variant's bad options are: ``variants.<i>.options.<option>``, or for a sweep point
    ``sweep.<option>.<index of the value>`` when the game's message names a swept option."""
    if not sweep:
        return {"variants": {str(position): {"options": fields}}}
    named = {name: messages for name, messages in fields.items() if name in variant.point}
    if not named:
        return {"sweep": fields}
    return {"sweep": {name: {str(sweep[name].index(variant.point[name])): messages}
                      for name, messages in named.items()}}
