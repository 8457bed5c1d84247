"""Experiments: several configurations of one game (house rules, sweeps, bot lineups) played on
the same seeds and compared, with intervals a designer can trust. Pure engine code: no Redis.

- ``design``: the variants an experiment compares (a base, named variants, a sweep grid).
- ``measures``: play every variant of a run of seeds and keep mergeable, paired tallies.
- ``statistics``: intervals, paired differences, the Holm adjustment, confidence sequences.
- ``report``: a variant's measures and the stopping rules of a precision experiment.
- ``sums``: the mergeable moments and paired sums the tallies keep.
- ``drama``: with ``drama``, each game read from its win chances (decided at, comebacks, kingmaking)
  and the skill ladder's index; ``calibration``: where the chances can be trusted, and their isotonic map.
"""
