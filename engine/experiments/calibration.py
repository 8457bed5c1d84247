"""How far the value models' win chances can be trusted, and their recalibration where they cannot.

The drama measures (``engine.experiments.drama``) read thresholds on the win chances (a winner
"decided" once its chance stays above ``drama.DECIDED_AT``, a "comeback" from below 0.2, a
"kingmaker" below 0.05), so a threshold means what it says only where the model is calibrated.
An outside check found the models calibrated within 0.03 below 0.6, but over-confident at the top
in Cash 'n Guns (0.94-0.95 predicted, 0.79 observed). So, per ruleset:

- ``reliability``: positions of held-out games (seeds no model was trained on), each seat's chance
  binned by tenths against how often that seat won: the largest gap of a bin is the model's error there;
- ``fit``: an isotonic (monotone, pool-adjacent-violators) map from predicted to observed chance, fit on
  the first half of those games and checked on the second, kept in ``data/calibration.json``
  (``python -m engine.experiments.calibration`` writes it again, for a retrained model or new rules);
- ``Calibration.apply``: a position's chances through the map, then scaled to sum to 1 again.

A ruleset whose map is missing, or was fit on another rules version or other weights, is read
uncalibrated (``Calibration.identity``): the measures still work and say ``"calibration": "none"``.
"""

from __future__ import annotations

import functools
import hashlib
import json
import sys
from bisect import bisect_right
from dataclasses import dataclass
from pathlib import Path

from engine.core.registry import get_ruleset
from engine.core.rng import Rng, derive_seed
from engine.core.ruleset import Ruleset
from engine.simulate import play_game
from engine.values.model import ValueModel, load_model

DATA = Path(__file__).parent / "data" / "calibration.json"
#: Held-out seeds start here: far from the training runs' seeds (0, 1, 2...).
HELD_OUT_SEED = 0xCA11B
#: Positions taken per game (uniformly among its versions), as the model's training takes them.
POSITIONS_PER_GAME = 8
BINS = 10


@dataclass(frozen=True)
class Calibration:
    """A monotone piecewise-linear map of a chance: ``xs`` increasing in [0, 1], ``ys`` non-decreasing."""

    xs: tuple[float, ...] = (0.0, 1.0)
    ys: tuple[float, ...] = (0.0, 1.0)
    name: str = "none"

    @classmethod
    def identity(cls) -> Calibration:
        return cls()

    def value(self, chance: float) -> float:
        xs, ys = self.xs, self.ys
        if chance <= xs[0]:
            return ys[0]
        if chance >= xs[-1]:
            return ys[-1]
        i = bisect_right(xs, chance) - 1
        span = xs[i + 1] - xs[i]
        return ys[i] if span <= 0 else ys[i] + (ys[i + 1] - ys[i]) * (chance - xs[i]) / span

    def apply(self, chances: list[float]) -> list[float]:
        """Each seat's chance mapped, then all scaled to sum to 1 (a seat at 0 stays at 0)."""
        if self.name == "none":
            return chances
        mapped = [self.value(c) if c > 0 else 0.0 for c in chances]
        total = sum(mapped)
        return chances if total <= 0 else [m / total for m in mapped]


def model_digest(model: ValueModel) -> str:
    """What a calibration was fit for: the model's weights (a retrained model needs a new fit)."""
    return hashlib.sha256(json.dumps(model.weights).encode()).hexdigest()[:16]


@functools.cache
def _stored() -> dict:
    try:
        return json.loads(DATA.read_text())
    except FileNotFoundError:
        return {}


def calibration_for(ruleset: Ruleset, model: ValueModel) -> Calibration:
    """The stored map of ``ruleset`` if it was fit for this model and rules version, else the identity."""
    entry = _stored().get(ruleset.id)
    if not entry or entry["rules_version"] != ruleset.rules_version or entry["model"] != model_digest(model):
        return Calibration.identity()
    xs, ys = zip(*entry["points"], strict=True)
    return Calibration(tuple(xs), tuple(ys), "isotonic")


def held_out_positions(ruleset: Ruleset, model: ValueModel, games: int, seed: int = HELD_OUT_SEED
                       ) -> list[list[tuple[float, int]]]:
    """Per game, (a seat's predicted chance, 1 if that seat won outright) at ``POSITIONS_PER_GAME``
    positions. The lineups alternate the ruleset's rollout bot and random seats, at every player count
    in turn: the experiments play both."""
    counts = list(range(ruleset.min_players, ruleset.max_players + 1))
    per_game = []
    for game in range(games):
        players = counts[game % len(counts)]
        bot = ruleset.rollout_bot if (game // len(counts)) % 2 else "random"
        versions: list[list[float]] = []
        outcome = play_game(ruleset, players, [bot] * players, None, derive_seed(seed, game),
                            observe=functools.partial(_record, versions, model))
        winners = outcome.result.winners
        if len(winners) != 1 or len(versions) < 2:
            per_game.append([])
            continue
        pick = Rng(derive_seed(seed, game, 7))
        chosen = {pick.randint(0, len(versions) - 2) for _ in range(POSITIONS_PER_GAME)}
        per_game.append([(versions[i][seat], int(seat == winners[0])) for i in sorted(chosen)
                         for seat in range(players)])
    return per_game


def _record(versions: list[list[float]], model: ValueModel, state) -> None:
    versions.append(model.predict(state))


def reliability(pairs: list[tuple[float, int]], calibration: Calibration | None = None) -> list[dict]:
    """Per tenth of predicted chance: positions, mean predicted, observed win rate, and the gap."""
    bins: list[list[float]] = [[0, 0.0, 0.0] for _ in range(BINS)]
    for chance, won in pairs:
        if calibration is not None:
            chance = calibration.value(chance)
        b = bins[min(BINS - 1, int(chance * BINS))]
        b[0] += 1
        b[1] += chance
        b[2] += won
    return [{"bin": [i / BINS, (i + 1) / BINS], "positions": int(n), "predicted": round(p / n, 4),
             "observed": round(w / n, 4), "gap": round(p / n - w / n, 4)}
            for i, (n, p, w) in enumerate(bins) if n]


def fit_isotonic(pairs: list[tuple[float, int]]) -> list[list[float]]:
    """Pool adjacent violators on (chance, won) sorted by chance: the monotone map's points, one per
    pooled block (its mean chance -> its win rate), with 0 -> 0 and 1 -> 1 kept at the ends."""
    grouped: dict[float, list[float]] = {}  # equal chances first make one block: the order of their wins is no order
    for chance, won in pairs:
        block = grouped.setdefault(chance, [0.0, 0.0, 0.0])
        block[0] += chance
        block[1] += won
        block[2] += 1
    blocks: list[list[float]] = []  # [sum of chances, sum of wins, count]
    for chance in sorted(grouped):
        blocks.append(grouped[chance])
        while len(blocks) > 1 and blocks[-2][1] / blocks[-2][2] >= blocks[-1][1] / blocks[-1][2]:
            last = blocks.pop()
            for k in range(3):
                blocks[-1][k] += last[k]
    merged = [[round(c / n, 5), round(w / n, 5)] for c, w, n in blocks]
    if merged[0][0] > 0:
        merged.insert(0, [0.0, 0.0])
    if merged[-1][0] < 1:
        merged.append([1.0, max(1.0, merged[-1][1])])
    return merged


def worst_gap(table: list[dict], low: float = 0.0, high: float = 1.0, min_positions: int = 50) -> float:
    """The largest |gap| of the bins within [low, high] holding at least ``min_positions``."""
    gaps = [abs(row["gap"]) for row in table if row["positions"] >= min_positions
            and row["bin"][0] >= low - 1e-9 and row["bin"][1] <= high + 1e-9]
    return round(max(gaps, default=0.0), 4)


def fit_ruleset(ruleset_id: str, games: int) -> dict:
    """Fit on the first half of ``games`` held-out games, check on the second half."""
    ruleset = get_ruleset(ruleset_id)
    model = load_model(ruleset)
    per_game = held_out_positions(ruleset, model, games)
    half = len(per_game) // 2
    fit_pairs = [p for game in per_game[:half] for p in game]
    check_pairs = [p for game in per_game[half:] for p in game]
    points = fit_isotonic(fit_pairs)
    calibration = Calibration(tuple(p[0] for p in points), tuple(p[1] for p in points), "isotonic")
    before, after = reliability(check_pairs), reliability(check_pairs, calibration)
    return {"rules_version": ruleset.rules_version, "model": model_digest(model), "games": games,
            "seed": HELD_OUT_SEED, "points": points,
            "worst_gap_before": worst_gap(before), "worst_gap_after": worst_gap(after),
            "reliability_before": before, "reliability_after": after}


def main(argv: list[str]) -> None:
    """``python -m engine.experiments.calibration [games] [ruleset...]``: fit and write data/calibration.json."""
    games = int(argv[0]) if argv else 2000
    names = argv[1:] or ["cash-n-guns", "hitchiker", "monopoly-cars2", "whipcash"]
    stored = dict(_stored())
    for name in names:
        stored[name] = fit_ruleset(name, games)
        print(f"{name}: worst gap {stored[name]['worst_gap_before']} -> {stored[name]['worst_gap_after']}",
              file=sys.stderr)
    DATA.parent.mkdir(exist_ok=True)
    DATA.write_text(json.dumps(stored, indent=1) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
