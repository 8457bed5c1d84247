"""A ruleset's value model: every seat's chance of winning from a state, in plain Python.

The model is a conditional (seat-symmetric) multinomial logistic regression: each seat's row of
features (``engine.games.<game>.values``) is scored with the same weights, and the chances are the
softmax of the scores over the seats that may still win (a seat out of the game gets 0). So:

- seats are symmetric by construction: two seats in the same position get the same chance;
- one model serves every player count: the softmax runs over however many seats there are, and
  the features compare a seat with the table (shares, leads) rather than count players;
- shared wins are trained as split targets (each of k winners counts 1/k), the same share of the
  win a search scores a finished rollout by, so the chances of a position sum to 1;
- turn-cap endings need nothing apart: a game that ends at its cap is labelled by its result like
  any other, and the features' progress (turns played over the cap) lets a lead weigh more late.

The model file (``engine/games/<game>/data/values.json``) holds the weights, the feature names, the
rules version it was trained under, the games it was trained on and its held-out scores; it is
written by ``rulehouse train-values`` (``engine.values.train``). A model is never used for another
rules version or another list of features: ``load_model`` refuses it.
"""

from __future__ import annotations

import functools
import importlib
import json
import math
from pathlib import Path
from typing import Any

from engine.core.registry import get_ruleset
from engine.core.rng import Rng
from engine.core.ruleset import Ruleset
from engine.values.features import SeatFeatures

MODEL_FORMAT = 1
MODEL_FILE = "values.json"
#: Worlds a seat's (or a spectator's) win chances average over by default.
DEFAULT_WORLDS = 16
#: At most this many worlds a request may ask for.
MAX_WORLDS = 64


class ValueModelError(ValueError):
    """No model may be used: there is none, or it is of another rules version or other features."""


def _game_package(ruleset: Ruleset) -> str:
    return type(ruleset).__module__.rsplit(".", 1)[0]


def features_of(ruleset: Ruleset):
    """The ``features(state) -> SeatFeatures`` function of ``ruleset``'s game (its ``values.py``)."""
    return importlib.import_module(f"{_game_package(ruleset)}.values").features


def model_path(ruleset: Ruleset) -> Path:
    package = importlib.import_module(_game_package(ruleset))
    return Path(package.__file__).parent / "data" / MODEL_FILE


class ValueModel:
    """Weights over named features for one ruleset and rules version, plus what its file says of it."""

    def __init__(self, ruleset: Ruleset, data: dict[str, Any]) -> None:
        self.ruleset = ruleset
        self.data = data
        self.features: list[str] = list(data["features"])
        self.weights: list[float] = [float(w) for w in data["weights"]]
        self.rules_version: int = int(data["rules_version"])
        self._features = features_of(ruleset)

    def check(self) -> None:
        """``ValueModelError`` unless this model fits its ruleset as the code plays it now."""
        ruleset = self.ruleset
        if self.data.get("format") != MODEL_FORMAT or self.data.get("ruleset") != ruleset.id:
            raise ValueModelError(f"not a {ruleset.id} value model of format {MODEL_FORMAT}")
        if self.rules_version != ruleset.rules_version:
            raise ValueModelError(
                f"the {ruleset.id} value model was trained on rules version {self.rules_version}, the rules are "
                f"version {ruleset.rules_version}: retrain it (rulehouse train-values {ruleset.id})")
        names = self._features(ruleset.new_game(ruleset.min_players, None, 0)).names
        if names != self.features:
            raise ValueModelError(f"the {ruleset.id} value model's features are not the code's: retrain it")
        if len(self.weights) != len(self.features):
            raise ValueModelError(f"the {ruleset.id} value model has {len(self.weights)} weights for "
                                  f"{len(self.features)} features")

    def to_dict(self) -> dict[str, Any]:
        return dict(self.data, features=self.features, weights=self.weights)

    # -- inference ---------------------------------------------------------------

    def chances(self, seat_features: SeatFeatures) -> list[float]:
        """The softmax of each seat's score over the seats that may still win (equal if none may)."""
        weights = self.weights
        can_win = seat_features.can_win
        if not any(can_win):
            return [1.0 / len(can_win)] * len(can_win)
        scores = [sum(w * x for w, x in zip(weights, row, strict=True)) if ok else -math.inf
                  for row, ok in zip(seat_features.rows, can_win, strict=True)]
        top = max(scores)
        exps = [math.exp(score - top) if score != -math.inf else 0.0 for score in scores]
        total = sum(exps)
        return [value / total for value in exps]

    def predict(self, state) -> list[float]:
        """Every seat's chance of winning from the whole ``state`` (hidden cards included): for training,
        scoring and a search's own worlds. A seat's or a spectator's chances come from ``win_chances``."""
        result = self.ruleset.result(state)
        if result is not None:
            return result_shares(result, state.players)
        return self.chances(self._features(state))


def result_shares(result, players: int) -> list[float]:
    """A finished game's chances: each winner's share of the win (no winner: an equal share each)."""
    winners = result.winners or list(range(players))
    return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(players)]


@functools.cache
def _cached_model(ruleset_id: str) -> ValueModel:
    ruleset = get_ruleset(ruleset_id)
    return read_model(ruleset, model_path(ruleset))


def read_model(ruleset: Ruleset, path: Path) -> ValueModel:
    """The model in ``path``, checked against ``ruleset`` (``ValueModelError`` if it does not fit)."""
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        raise ValueModelError(f"{ruleset.id} has no value model ({path.name}): rulehouse train-values {ruleset.id}")\
            from None
    model = ValueModel(ruleset, data)
    model.check()
    return model


def load_model(ruleset: Ruleset) -> ValueModel:
    """The shipped model of ``ruleset`` (read once); ``ValueModelError`` if there is none that fits."""
    return _cached_model(ruleset.id)


def has_model(ruleset: Ruleset) -> bool:
    try:
        load_model(ruleset)
    except ValueModelError:
        return False
    return True


def win_chances(ruleset: Ruleset, state, seat: int | None, rng: Rng, worlds: int = DEFAULT_WORLDS,
                model: ValueModel | None = None) -> list[float]:
    """Every seat's chance of winning as ``seat`` (``None``: a spectator) may judge it: the model averaged
    over ``worlds`` worlds drawn with ``Ruleset.resample_hidden`` from that view, so the answer is the
    same for every state the seat cannot tell apart (given the same ``rng``). A finished game's chances
    are its result's shares."""
    model = model or load_model(ruleset)
    result = ruleset.result(state)
    if result is not None:
        return result_shares(result, state.players)
    totals = [0.0] * state.players
    for _ in range(max(1, min(worlds, MAX_WORLDS))):
        world = ruleset.resample_hidden(state, seat, rng)
        for index, chance in enumerate(model.predict(world)):
            totals[index] += chance
    count = max(1, min(worlds, MAX_WORLDS))
    return [total / count for total in totals]
