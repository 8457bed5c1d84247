"""The options a decision is weighed by in the analysis, a ranged amount's sampled points among them."""

from __future__ import annotations

#: A ranged amount is weighed at its ends and at these shares of the range between them.
RANGE_SHARES = (0.25, 0.5, 0.75)
#: The chosen amount's neighbours lie this share of the range away (at least 1) on either side.
NEIGHBOUR_SHARE = 0.125


def neighbour_step(low: int, high: int) -> int:
    return max(1, int((high - low) * NEIGHBOUR_SHARE))


def ranged_points(low: int, high: int, chosen: int | None) -> tuple[list[int], list[int]]:
    """A range's amounts weighed: (the chosen amount's neighbours, the ends and the quartiles)."""
    spread = [low, *(low + round((high - low) * share) for share in RANGE_SHARES), high]
    near = []
    if chosen is not None:
        step = neighbour_step(low, high)
        near = [point for point in (chosen - step, chosen + step) if low <= point <= high]
    return near, spread


def candidates(decision, chosen: dict, default: dict | None, most: int) -> list[dict]:
    """At most ``most`` options, the chosen action first, then (in this order of priority) the chosen
    amount's neighbours, ``default`` (the rollout bot's move), the options offered and every ranged
    parameter's ends and quartiles. Only legal ones (``Decision.allows``), each once."""
    ordered: list[dict] = [dict(chosen)]
    near: list[dict] = []
    spread: list[dict] = []
    for option in decision.options:
        bounds = decision.ranges.get(option["type"])
        if not bounds:
            spread.append(dict(option))
            continue
        same_kind = chosen.get("type") == option["type"] and all(
            chosen.get(name) == value for name, value in option.items() if name not in bounds)
        for name, (low, high) in bounds.items():
            around = chosen.get(name) if same_kind else None
            close, far = ranged_points(low, high, around)
            near += [{**chosen, name: point} for point in close]
            spread += [{**option, name: point} for point in far]
    if default is not None:
        near.append(dict(default))
    for option in [*near, *spread]:
        if len(ordered) >= most:
            break
        if option not in ordered and decision.allows(option):
            ordered.append(option)
    return ordered
