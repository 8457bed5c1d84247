"""Training and scoring a value model (``rulehouse train-values``).

Positions are sampled from simulated games (every seat played by the ruleset's ``rollout_bot``, the
player counts taken in turn) and labelled by each game's result; the last ``HELD_OUT`` of the games
are kept out of the fit and score the model against two baselines: equal chances among the seats
that may still win, and ``Ruleset.standings`` turned into shares (as a search scored a cut-off
rollout before there was a model). The fit is Newton's method on the penalised log loss of the
seat-symmetric softmax (``engine.values.model``), with numpy: the ``train`` extra, never needed to
use a model. Everything else here (sampling, scores, calibration) is plain Python.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from engine.core.registry import get_ruleset
from engine.core.rng import Rng, derive_seed
from engine.core.ruleset import Ruleset
from engine.values.features import SeatFeatures
from engine.values.model import MODEL_FORMAT, ValueModel, features_of, result_shares

#: Positions kept per game (drawn uniformly from its states): few enough that one game's
#: positions, which share an outcome, do not weigh too much.
POSITIONS_PER_GAME = 8
#: The share of the games held out of the fit to score it.
HELD_OUT = 0.25
#: The ridge penalty on the standardised weights, per position.
PENALTY = 1e-3
#: Probabilities are clipped to at least this before a log: a baseline giving a winner 0 would
#: otherwise score an infinite log loss.
CLIP = 1e-4
NEWTON_STEPS = 30


class ModelRefused(ValueError):
    """The trained model does not beat both baselines on the held-out games."""


@dataclass(slots=True)
class Position:
    game: int
    players: int
    features: SeatFeatures
    standings: list[float] | None
    #: each seat's share of the win in the game's result
    target: list[float]


def standing_shares(standings: list[float] | None, can_win: list[bool]) -> list[float]:
    """``standings`` as chances: each contender's share of its lead over the last contender (equal when
    nobody leads), 0 for a seat out of the game."""
    seats = len(can_win)
    contenders = [seat for seat in range(seats) if can_win[seat]] or list(range(seats))
    if not standings:
        return equal_shares(can_win)
    lowest = min(standings[seat] for seat in contenders)
    lead = [standings[seat] - lowest if seat in contenders else 0.0 for seat in range(seats)]
    total = sum(lead)
    if total <= 0:
        return equal_shares(can_win)
    return [value / total for value in lead]


def equal_shares(can_win: list[bool]) -> list[float]:
    contenders = sum(can_win)
    if not contenders:
        return [1.0 / len(can_win)] * len(can_win)
    return [1.0 / contenders if ok else 0.0 for ok in can_win]


def sample_positions(ruleset: Ruleset, games: int, seed: int, bot: str | None = None) -> list[Position]:
    """``POSITIONS_PER_GAME`` positions of each of ``games`` games, labelled by the game's result."""
    bot_name = bot or ruleset.rollout_bot
    counts = list(range(ruleset.min_players, ruleset.max_players + 1))
    features = features_of(ruleset)
    positions: list[Position] = []
    for game in range(games):
        players = counts[game % len(counts)]
        game_seed = derive_seed(seed, game)
        state = ruleset.new_game(players, None, game_seed)
        bots = [ruleset.bot(bot_name) for _ in range(players)]
        rngs = [Rng(derive_seed(game_seed, 1, seat)) for seat in range(players)]
        pick = Rng(derive_seed(game_seed, 2))
        kept: list[tuple[SeatFeatures, list[float] | None]] = []
        step = 0
        while decisions := ruleset.pending(state):
            # Reservoir sampling: every state of the game is equally likely to be kept.
            slot = step if step < POSITIONS_PER_GAME else pick.randint(0, step)
            if slot < POSITIONS_PER_GAME:
                entry = (features(state), ruleset.standings(state))
                if step < POSITIONS_PER_GAME:
                    kept.append(entry)
                else:
                    kept[slot] = entry
            decision = decisions[0]
            ruleset.apply(state, decision.seat, bots[decision.seat].choose(state, decision, rngs[decision.seat]),
                          check=False)
            step += 1
        target = result_shares(ruleset.result(state), players)
        positions += [Position(game, players, seat_features, standings, target) for seat_features, standings in kept]
    return positions


# -- scores --------------------------------------------------------------------


def log_loss(predicted: list[float], target: list[float]) -> float:
    return -sum(t * math.log(max(CLIP, p)) for p, t in zip(predicted, target, strict=True) if t > 0)


def brier(predicted: list[float], target: list[float]) -> float:
    return sum((p - t) ** 2 for p, t in zip(predicted, target, strict=True))


def score(predictions: list[list[float]], positions: list[Position]) -> dict:
    count = len(positions)
    return {
        "log_loss": round(sum(log_loss(p, q.target) for p, q in zip(predictions, positions, strict=True)) / count, 5),
        "brier": round(sum(brier(p, q.target) for p, q in zip(predictions, positions, strict=True)) / count, 5),
    }


def calibration(predictions: list[list[float]], positions: list[Position]) -> list[dict]:
    """Every (position, seat) chance by decile of the prediction: the mean predicted and the observed
    share of the win."""
    bins: list[list[tuple[float, float]]] = [[] for _ in range(10)]
    for predicted, position in zip(predictions, positions, strict=True):
        for chance, target in zip(predicted, position.target, strict=True):
            bins[min(9, int(chance * 10))].append((chance, target))
    return [{"decile": index, "count": len(pairs),
             "predicted": round(sum(p for p, _ in pairs) / len(pairs), 4) if pairs else None,
             "observed": round(sum(t for _, t in pairs) / len(pairs), 4) if pairs else None}
            for index, pairs in enumerate(bins)]


def evaluate(model: ValueModel, positions: list[Position]) -> dict:
    """Scores of the model and of both baselines, overall and by player count, and its calibration."""
    def scores_of(chosen: list[Position]) -> dict:
        return {
            "positions": len(chosen),
            "model": score([model.chances(p.features) for p in chosen], chosen),
            "equal": score([equal_shares(p.features.can_win) for p in chosen], chosen),
            "standings": score([standing_shares(p.standings, p.features.can_win) for p in chosen], chosen),
        }
    counts = sorted({p.players for p in positions})
    return {
        "overall": scores_of(positions),
        "by_players": {str(count): scores_of([p for p in positions if p.players == count]) for count in counts},
        "calibration": calibration([model.chances(p.features) for p in positions], positions),
    }


def refusals(scores: dict) -> list[str]:
    """Why the model may not be shipped: every score where it does not beat a baseline (overall and for
    each player count)."""
    reasons = []
    groups = [("overall", scores["overall"])] + [(f"{count} players", group)
                                                for count, group in scores["by_players"].items()]
    for label, group in groups:
        for baseline in ("equal", "standings"):
            for metric in ("log_loss", "brier"):
                if group["model"][metric] >= group[baseline][metric]:
                    reasons.append(f"{label}: {metric} {group['model'][metric]} is no better than the "
                                   f"{baseline} baseline's {group[baseline][metric]}")
    return reasons


# -- the fit -------------------------------------------------------------------


def fit(positions: list[Position], names: list[str]) -> list[float]:
    """Weights on the raw features minimising the penalised log loss of the softmax over the seats that may
    win (Newton's method on standardised features; the weights are then scaled back to the raw ones)."""
    import numpy as np  # the optional `train` extra: only fitting a model needs it, using one does not

    width = len(names)
    seats = max(p.players for p in positions)
    features = np.zeros((len(positions), seats, width))
    mask = np.zeros((len(positions), seats), dtype=bool)
    targets = np.zeros((len(positions), seats))
    for index, position in enumerate(positions):
        rows = position.features.rows
        features[index, :len(rows)] = rows
        can_win = position.features.can_win
        mask[index, :len(rows)] = can_win if any(can_win) else [True] * len(rows)
        # A winner the model rules out (a seat out of the game cannot win) is left out of the target.
        target = np.array(position.target) * mask[index, :len(rows)]
        targets[index, :len(rows)] = target / target.sum() if target.sum() > 0 else mask[index, :len(rows)] / \
            mask[index, :len(rows)].sum()
    rows_in = features[mask]
    centre = rows_in.mean(axis=0)
    spread = rows_in.std(axis=0)
    spread[spread == 0] = 1.0
    standard = np.where(mask[..., None], (features - centre) / spread, 0.0)
    penalty = PENALTY * len(positions)

    def loss_and_chances(weights):
        scores = np.where(mask, standard @ weights, -np.inf)
        scores -= scores.max(axis=1, keepdims=True)
        exps = np.where(mask, np.exp(scores), 0.0)
        chances = exps / exps.sum(axis=1, keepdims=True)
        loss = -(targets * np.log(np.where(mask, np.maximum(chances, 1e-300), 1.0))).sum()
        return loss + 0.5 * penalty * weights @ weights, chances

    weights = np.zeros(width)
    loss, chances = loss_and_chances(weights)
    for _ in range(NEWTON_STEPS):
        gradient = np.einsum("tn,tnd->d", chances - targets, standard) + penalty * weights
        mean_row = np.einsum("tn,tnd->td", chances, standard)
        hessian = (np.einsum("tn,tnd,tne->de", chances, standard, standard)
                   - np.einsum("td,te->de", mean_row, mean_row) + penalty * np.eye(width))
        step = np.linalg.solve(hessian, gradient)
        size = 1.0
        while size > 1e-6:
            trial = weights - size * step
            trial_loss, trial_chances = loss_and_chances(trial)
            if trial_loss <= loss:
                break
            size /= 2
        else:
            break
        improved = loss - trial_loss
        weights, loss, chances = trial, trial_loss, trial_chances
        if improved < 1e-9 * max(1.0, abs(loss)):
            break
    # Centring adds the same amount to every seat's score, which the softmax ignores: only the scale stays.
    return [float(w) for w in weights / spread]


def train(ruleset_id: str, games: int, seed: int, bot: str | None = None, *, refuse: bool = True) -> dict:
    """A model file's content for ``ruleset_id``, trained on ``games`` games; ``ModelRefused`` (naming every
    failing score) when it does not beat both baselines on the held-out games (unless not ``refuse``)."""
    ruleset = get_ruleset(ruleset_id)
    began = time.process_time()
    positions = sample_positions(ruleset, games, seed, bot)
    simulated = time.process_time() - began
    first_held_out = games - max(1, round(games * HELD_OUT))
    training = [p for p in positions if p.game < first_held_out]
    held_out = [p for p in positions if p.game >= first_held_out]
    names = positions[0].features.names
    weights = fit(training, names)
    data = {
        "format": MODEL_FORMAT,
        "ruleset": ruleset.id,
        "rules_version": ruleset.rules_version,
        "model": "seat-symmetric multinomial logistic regression (softmax over the seats that may win)",
        "features": names,
        "weights": [round(w, 8) for w in weights],
        "trained_on": {
            "games": games, "seed": seed, "bot": bot or ruleset.rollout_bot,
            "players": list(range(ruleset.min_players, ruleset.max_players + 1)),
            "positions_per_game": POSITIONS_PER_GAME, "training_games": first_held_out,
            "held_out_games": games - first_held_out, "training_positions": len(training),
            "held_out_positions": len(held_out), "penalty": PENALTY,
        },
    }
    model = ValueModel(ruleset, data)
    scores = evaluate(model, held_out)
    data["held_out"] = scores
    data["cpu_seconds"] = {"simulation": round(simulated, 1), "total": round(time.process_time() - began, 1)}
    reasons = refusals(scores)
    if reasons and refuse:
        raise ModelRefused("; ".join(reasons))
    return data
