"""A fixed catalogue of actions over a ruleset's changing options: the ``Discrete`` action space.

The engine offers, for each pending decision, complete action bodies (``options``) and, for a number
chosen within bounds, the bounds (``ranges``). A learning agent needs one fixed list instead: every
action body the ruleset can ever offer gets an index (a *slot*), and a number within bounds gets
``len(BUCKETS)`` slots, one per bucket. The mask says which slots the engine takes now.

A bucket is a fraction of the decision's range, so bucket 0 is always the range's low end and the
last one its high end: ``amount = low + floor((high - low) * fraction)``. Every bucket of a range
is legal whenever its type is offered (two buckets of a narrow range may give the same amount).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from engine.core.decisions import Decision

#: The fractions of a ranged amount's bounds, bucket by bucket. They include the quarters and thirds
#: (a bet of a quarter of the travelling cash, a risk of a third: what the Hitchiker heuristic plays)
#: and are denser at the low end, where a stake is chosen more often than near all-in.
BUCKETS: tuple[Fraction, ...] = (Fraction(0), Fraction(1, 8), Fraction(1, 4), Fraction(1, 3), Fraction(1, 2),
                                 Fraction(2, 3), Fraction(3, 4), Fraction(1))


def _key(action: dict) -> tuple:
    return tuple(sorted(action.items()))


class CatalogueGap(ValueError):
    """The engine offered an option the catalogue has no slot for (a custom board larger than the
    catalogue was built for...): the action space would hide a legal move, so this is an error."""


@dataclass(frozen=True, slots=True)
class Slot:
    """One index of the action space: a fixed action body, or one bucket of a ranged parameter."""

    action: dict
    #: the ranged parameter (``amount``) this slot buckets, or None for a fixed action
    param: str | None = None
    bucket: int = 0

    @property
    def label(self) -> str:
        fixed = ", ".join(f"{k}={v}" for k, v in self.action.items() if k != "type")
        if self.param is not None:
            fraction = BUCKETS[self.bucket]
            fixed = (fixed + ", " if fixed else "") + f"{self.param}=low+{fraction}*(high-low)"
        return f"{self.action['type']}({fixed})"


class ActionCatalogue:
    """The slots of one ruleset (as encoded by ``envs.encodings``), with masks and conversions."""

    def __init__(self, fixed: list[dict], ranged: dict[str, str]) -> None:
        """``fixed``: every fixed action body; ``ranged``: action type -> its ranged parameter."""
        slots = [Slot(dict(action)) for action in fixed]
        for action_type, param in ranged.items():
            slots += [Slot({"type": action_type}, param, bucket) for bucket in range(len(BUCKETS))]
        self.slots: list[Slot] = slots
        self._fixed = {_key(slot.action): index for index, slot in enumerate(slots) if slot.param is None}
        #: action type -> (first slot index, parameter)
        self._ranged = {action_type: (len(fixed) + n * len(BUCKETS), param)
                        for n, (action_type, param) in enumerate(ranged.items())}

    def __len__(self) -> int:
        return len(self.slots)

    def mask(self, decisions: list[Decision]) -> np.ndarray:
        """1 for every slot one of ``decisions`` (one seat's) takes, else 0."""
        mask = np.zeros(len(self.slots), dtype=np.int8)
        for decision in decisions:
            for option in decision.options:
                action_type = option["type"]
                if action_type in decision.ranges and action_type in self._ranged:
                    first, _ = self._ranged[action_type]
                    mask[first:first + len(BUCKETS)] = 1
                    continue
                index = self._fixed.get(_key(option))
                if index is None:
                    raise CatalogueGap(f"the engine offered {option!r}, which has no slot")
                mask[index] = 1
        return mask

    def action(self, index: int, decisions: list[Decision]) -> tuple[Decision, dict] | None:
        """The decision slot ``index`` answers and the action body it stands for; None if no decision
        of ``decisions`` takes it (a masked-out slot)."""
        if not 0 <= index < len(self.slots):
            return None
        slot = self.slots[index]
        if slot.param is None:
            for decision in decisions:
                if slot.action in decision.options:
                    return decision, slot.action
            return None
        action_type = slot.action["type"]
        for decision in decisions:
            bounds = decision.ranges.get(action_type)
            if bounds and slot.param in bounds:
                low, high = bounds[slot.param]
                template = next(o for o in decision.options if o["type"] == action_type)
                amount = low + int((high - low) * BUCKETS[slot.bucket])  # floor: never above high
                return decision, {**template, slot.param: amount}
        return None

    def nearest(self, action: dict, decisions: list[Decision]) -> int:
        """The slot closest to ``action`` (an engine action body, e.g. a bot's): its own slot if fixed,
        else the bucket whose amount is nearest to the action's amount in its decision's range."""
        action_type = action["type"]
        if action_type in self._ranged:
            first, param = self._ranged[action_type]
            for decision in decisions:
                bounds = decision.ranges.get(action_type)
                if bounds and param in bounds:
                    low, high = bounds[param]
                    amounts = [low + int((high - low) * fraction) for fraction in BUCKETS]
                    best = min(range(len(BUCKETS)), key=lambda b: abs(amounts[b] - action[param]))
                    return first + best
        index = self._fixed.get(_key(action))
        if index is None:
            raise CatalogueGap(f"{action!r} has no slot")
        return index

    def labels(self) -> list[str]:
        return [slot.label for slot in self.slots]
