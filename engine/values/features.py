"""Building a value model's features: one row per seat, the same columns for every seat.

A game's ``values.py`` describes each seat by a few raw quantities (money, loot, wounds...) and
``FeatureRows`` turns them into columns that compare the seat with the table (its share of a
total, its lead over the best other contender), also multiplied by how far the game has gone, so
a lead counts for more near the end. Every seat's row is scored with the same weights (see
``engine.values.model``), so the model is the same for every seat and for every player count.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class SeatFeatures:
    """The feature names, one row of values per seat, and which seats may still win."""

    names: list[str]
    rows: list[list[float]]
    can_win: list[bool]


class FeatureRows:
    """Columns added one by one (``add``, ``add_relative``), read back as rows by ``build``."""

    __slots__ = ("can_win", "columns", "contenders", "names", "progress", "seats")

    def __init__(self, can_win: list[bool], progress: float) -> None:
        self.seats = len(can_win)
        self.can_win = can_win
        self.contenders = [seat for seat, ok in enumerate(can_win) if ok] or list(range(self.seats))
        #: how far the game has gone, 0 at the start and 1 at its last turn (clipped)
        self.progress = min(1.0, max(0.0, progress))
        self.names: list[str] = []
        self.columns: list[list[float]] = []

    def add(self, name: str, values: list[float], *, late: bool = False) -> None:
        """A column as given (and, with ``late``, the same times the progress)."""
        self.names.append(name)
        self.columns.append([float(value) for value in values])
        if late:
            progress = self.progress
            self.names.append(f"{name}_late")
            self.columns.append([float(value) * progress for value in values])

    def add_relative(self, name: str, values: list[float], scale: float) -> None:
        """A quantity compared with the table: the seat's share of the contenders' total, and its lead
        over the best other contender in units of ``scale``; both also times the progress."""
        contenders = self.contenders
        total = sum(max(0.0, values[seat]) for seat in contenders)
        shares = [max(0.0, values[seat]) / total if total > 0 else 1.0 / len(contenders) for seat in range(self.seats)]
        best, second = _two_best([values[seat] for seat in contenders])
        leads = [(values[seat] - (second if values[seat] >= best and seat in contenders else best)) / scale
                 for seat in range(self.seats)]
        self.add(f"{name}_share", shares, late=True)
        self.add(f"{name}_lead", leads, late=True)

    def build(self) -> SeatFeatures:
        rows = [list(row) for row in zip(*self.columns, strict=True)]
        return SeatFeatures(self.names, rows, list(self.can_win))


def _two_best(values: list[float]) -> tuple[float, float]:
    """The highest value and the second highest (the highest again when it is there twice)."""
    if len(values) == 1:
        return values[0], values[0]
    ordered = sorted(values, reverse=True)
    return ordered[0], ordered[1]
