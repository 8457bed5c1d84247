"""The analysis's method parameters (format 3), per ruleset, and the work they may cost.

The defaults below hold unless a ruleset overrides some in ``Ruleset.analysis_method`` (data on the
ruleset, tuned by measuring costs against independent play-outs: docs/analysis.md, "The estimator").
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from engine.core.registry import all_rulesets

#: Every win chance is rounded to a multiple of this (about one in a million): sums of them are exact.
QUANTUM = 2.0 ** -20
#: What a copy, a resample or a model evaluation costs in engine actions (about what a win-chances world
#: costs, ``api.win_chances.routes.WORK_PER_WORLD``).
WORK_PER_EVALUATION = 10
#: What one version's V costs in engine actions (the replayed action and a model evaluation).
WORK_PER_VERSION = 10


@dataclass(frozen=True, slots=True)
class Method:
    """How a ruleset's games are analysed."""

    #: Worlds each candidate of a decision is played out in (common to every candidate).
    playouts: int = 32
    #: Actions of the ruleset's ``rollout_bot`` after a candidate, before the value model scores the play-out.
    horizon: int = 20
    #: Re-dealt samples of every action's chance event (a power of two: their mean is exact in a float).
    chance_samples: int = 16
    #: Actions of ``rollout_bot`` after a chance outcome (the actual one and every sample alike) before it is
    #: scored: 0 scores it by the model at once; more where the model does not read what chance dealt
    #: (Cash 'n Guns's loot on the table) until it is played.
    chance_horizon: int = 0
    #: The worlds a decision's candidates are played out in: 1, worlds the mover cannot tell apart from the
    #: real one (``Ruleset.resample_hidden`` from its seat: what it could not see is redrawn); 0, the whole
    #: real state with its chance alone dealt anew (``Ruleset.resample_chance``: hindsight of hidden cards).
    mover_worlds: int = 1
    #: Candidates a decision is weighed by, at most (the chosen one always among them).
    max_candidates: int = 12
    #: The family-wise error rate of a game's "costly" calls (Holm over its priced moves, one-sided).
    costly_alpha: float = 0.05

    def to_dict(self) -> dict:
        return {field.name: getattr(self, field.name) for field in fields(self)}

    def work_per_entry(self) -> int:
        """The most work (engine actions) one log entry may cost: its V, its chance samples (and the actual
        outcome's play-out: a copy or resample, an apply, the play-out and a model evaluation each) and its
        decision's play-outs (its candidates', and the chosen and the best one's again when it is re-measured)."""
        chance = (self.chance_samples + 1) * (3 * WORK_PER_EVALUATION + self.chance_horizon)
        decision = (self.max_candidates + 2) * self.playouts * (1 + self.horizon + 2 * WORK_PER_EVALUATION)
        return WORK_PER_VERSION + chance + decision


def method_for(ruleset) -> Method:
    """The defaults with ``ruleset.analysis_method``'s overrides."""
    return Method(**dict(ruleset.analysis_method))


def work_bound(entries: int, ruleset=None) -> int:
    """The most work (engine actions) the analysis of a record of ``entries`` log entries may take: for
    ``ruleset``, or for the costliest ruleset when it is not given."""
    rulesets = [ruleset] if ruleset is not None else list(all_rulesets().values())
    return WORK_PER_VERSION + entries * max(method_for(each).work_per_entry() for each in rulesets)
