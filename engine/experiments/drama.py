"""The drama of a game, read from its win chances at every version: when it is decided, whether the
winner came back, whether a seat that cannot win decides who does, and how much skill matters.

Every version of a game (the start, then after each action) is scored by the ruleset's value model
(``engine.values``) on the whole state (hidden cards included: the simulation knows them), mapped
through the ruleset's recalibration (``engine.experiments.calibration``). Per game, with ``w`` the
outright winner:

- **decided at**: the share of the game's turns played before the action after which ``w``'s chance
  stays at or above ``DECIDED_AT`` to the end (0: decided by its first action; 1: by its last turn),
  and whether that is before halfway;
- **comeback**: ``w``'s chance was below ``COMEBACK_BELOW`` at some version; and the lowest chance ``w`` had;
- **lead changes on the chances**: the seat with the highest chance at the end of each turn, how often
  it changed hands (beside ``lead_changes`` on the standings);
- **kingmaking**: at a decision of a seat whose own chance is below ``KINGMAKER_BELOW`` and which has two
  options or more, each option (at most ``MAX_OPTIONS``) is played on a copy and scored: the *spread*,
  across the options, of the best-placed rival's chance (the seat other than the decider with the
  highest chance now). A spread of ``KINGMAKER_SPREAD`` or more makes it a *kingmaker position*. At the
  first ``MAX_REPLAYS`` of a game, the option furthest from the chosen one (by that rival's chance) is
  replayed to the end with the same randomness (a copy of the state with its engine generator, and
  copies of every seat's generator as it stood before the choice): *changes winner* is how often the
  replay's outright winner differs from the game's.

The threshold ``DECIDED_AT`` sits where the recalibrated models read within 0.03 of what happens
(docs/experiments.md gives the reliability per ruleset). Each version costs one model call, and each
low-chance decision one per option: ``DramaTally.model_calls`` counts them (a drama game costs 2 to 9
times a plain one: bench/experiments.py).

The **skill index** comes from a bounded ladder of lineups at equal seats: one seat of the ruleset's
strongest cheap bot (its ``rollout_bot``, the heuristic) against the weakest (``random``) everywhere
else, the strong seat turning round the table game by game. Its win rate ``p`` against a fair
``1/n`` reads ``(p - 1/n) / (1 - 1/n)``: 0 when skill does not show (a coin flip, or two equal
lineups), 1 when the stronger always wins, below 0 when the "stronger" loses more than its share.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass, field

from engine.core.registry import get_ruleset
from engine.core.result import Result
from engine.core.rng import Rng
from engine.core.ruleset import Ruleset
from engine.experiments.calibration import Calibration, calibration_for
from engine.experiments.statistics import mean_interval, proportion_interval, rounded
from engine.experiments.sums import NOBODY, Moments, PairedSums, lead_changes
from engine.simulate import (
    Observer,
    Tally,
    game_seed,
    outright_winner,
    play_game,
    play_out,
    seat_bots,
    wilson_interval,
)
from engine.values.model import ValueModel, load_model

DECIDED_AT = 0.8
COMEBACK_BELOW = 0.2
KINGMAKER_BELOW = 0.05
KINGMAKER_SPREAD = 0.1
#: Options of a low-chance decision scored (the first ones offered; a ranged amount offers its extremes).
MAX_OPTIONS = 8
#: Kingmaker positions replayed per game (each replay plays the rest of a game).
MAX_REPLAYS = 2
#: Of an experiment's games with drama, one in this many is also played by the skill ladder's lineup.
SKILL_EVERY = 4
WEAKEST = "random"
#: An experiment with drama is charged this many times a plain one's work: its model calls (one per version,
#: one per option of a low-chance decision), replays and skill games cost 2 to 9 times a plain game
#: (bench/drama.py), and admission counts the work before the games tell how many calls they make.
DRAMA_WORK_FACTOR = 10
#: the indicators paired with the base's game of the same seed
PAIRED = ("kingmaker", "comeback", "decided_before_half")


def thresholds(calibration: Calibration) -> dict:
    return {"decided_at": DECIDED_AT, "comeback_below": COMEBACK_BELOW, "kingmaker_below": KINGMAKER_BELOW,
            "kingmaker_spread": KINGMAKER_SPREAD, "calibration": calibration.name}


class DramaWatcher(Observer):
    """``play_game``'s observer: the chances at every version, and the low-chance decisions' options."""

    def __init__(self, ruleset: Ruleset, model: ValueModel | None = None, calibration: Calibration | None = None,
                 check=None) -> None:
        self.ruleset = ruleset
        model = model or load_model(ruleset)
        self.calibration = calibration or calibration_for(ruleset, model)
        # Bound once: these run after every action of every game of a drama experiment.
        self.predict, self.apply, self.turns = model.predict, self.calibration.apply, ruleset.turns
        self.copy, self.play = ruleset.copy, ruleset.play
        self.check = check
        self.chances: list[list[float]] = []
        self.turn_at: list[int] = []
        self.calls = 0
        self.spreads: list[float] = []
        self.kingmaker_positions = 0
        self.replay_winners: list[int | None] = []
        self.replays_left = MAX_REPLAYS
        self.pending: tuple | None = None
        self.choose: list = []
        self.rngs: list[Rng] = []

    def score(self, state) -> list[float]:
        self.calls += 1
        return self.apply(self.predict(state))

    def start(self, state, choose: list, rngs: list[Rng]) -> None:
        self.choose, self.rngs = choose, rngs
        self.chances.append(self.score(state))
        self.turn_at.append(self.turns(state))

    def before(self, state, decision) -> None:
        seat, now = decision.seat, self.chances[-1]
        if now[seat] >= KINGMAKER_BELOW or len(decision.options) < 2:
            return
        rival = max((s for s in range(len(now)) if s != seat), key=now.__getitem__)
        options = decision.options[:MAX_OPTIONS]
        after = []
        for option in options:
            copy = self.copy(state)
            self.play(copy, seat, option)
            after.append(self.score(copy)[rival])
        spread = max(after) - min(after)
        self.spreads.append(spread)
        if spread < KINGMAKER_SPREAD:
            return
        self.kingmaker_positions += 1
        if self.replays_left > 0:
            self.replays_left -= 1
            # The state and every generator as they stand before the choice: the replay's randomness.
            self.pending = (self.copy(state), [Rng(r.seed, r.counter) for r in self.rngs], seat, options, after, rival)

    def after(self, state, seat: int, action: dict) -> None:
        chances = self.score(state)
        self.chances.append(chances)
        self.turn_at.append(self.turns(state))
        if self.pending is None:
            return
        snapshot, rngs, seat, options, after, rival = self.pending
        self.pending = None
        chosen = chances[rival]
        alternative = max(range(len(options)), key=lambda i: abs(after[i] - chosen))
        self.play(snapshot, seat, options[alternative])
        play_out(self.ruleset, snapshot, self.choose, rngs, self.check)
        result = self.ruleset.result(snapshot)
        self.replay_winners.append(None if result is None else outright_winner(result))


@dataclass
class GameDrama:
    """One game's drama (what ``DramaTally.add`` counts, and what pairs with the base's game)."""

    winner: int | None
    decided_at: float | None = None
    lowest: float | None = None
    comeback: bool = False
    lead_changes: int = 0
    kingmaker: bool = False
    spreads: list[float] = field(default_factory=list)
    replays: int = 0
    changed: int = 0
    calls: int = 0

    @property
    def indicators(self) -> dict[str, int]:
        return {"kingmaker": int(self.kingmaker), "comeback": int(self.comeback),
                "decided_before_half": int(self.decided_at is not None and self.decided_at < 0.5)}


def game_drama(watcher: DramaWatcher, result: Result) -> GameDrama:
    """The measures of the game ``watcher`` followed, which ended with ``result``."""
    winner = outright_winner(result)
    chances, turn_at = watcher.chances, watcher.turn_at
    game = GameDrama(winner, kingmaker=watcher.kingmaker_positions > 0, spreads=list(watcher.spreads),
                     replays=len(watcher.replay_winners), calls=watcher.calls,
                     changed=sum(w != winner for w in watcher.replay_winners))
    leaders = [_leader(chances[i]) for i in range(len(chances))
               if i == len(chances) - 1 or turn_at[i + 1] != turn_at[i]]
    game.lead_changes = lead_changes(leaders)
    if winner is None:
        return game
    series = [c[winner] for c in chances]
    k = len(series)
    while k > 0 and series[k - 1] >= DECIDED_AT:
        k -= 1
    # Decided by the action after version k - 1: the turns played before it, over the game's turns.
    before = turn_at[k - 1] if k > 0 else 0
    game.decided_at = min(1.0, before / max(1, turn_at[-1]))
    game.lowest = min(series)
    game.comeback = game.lowest < COMEBACK_BELOW
    return game


def _leader(chances: list[float]) -> int:
    best = max(chances)
    return chances.index(best) if chances.count(best) == 1 else NOBODY


@dataclass
class DramaTally:
    """Mergeable drama of some games of one variant (and its indicators paired with the base's)."""

    games: int = 0
    #: games with an outright winner, which the winner's measures count
    outright: int = 0
    decided_at: Moments = field(default_factory=Moments)
    decided_before_half: int = 0
    comebacks: int = 0
    lowest: Moments = field(default_factory=Moments)
    lead_changes: Moments = field(default_factory=Moments)
    low_chance_decisions: int = 0
    spread: Moments = field(default_factory=Moments)
    kingmaker_positions: int = 0
    kingmaker_games: int = 0
    replays: int = 0
    changed: int = 0
    model_calls: int = 0
    #: the skill ladder's games of this variant, and the strong seat's outright wins in them
    skill_games: int = 0
    skill_wins: int = 0
    paired: dict[str, PairedSums] = field(default_factory=dict)
    seconds: float = 0.0

    def __post_init__(self) -> None:
        self.paired = self.paired or {name: PairedSums() for name in PAIRED}

    def add(self, game: GameDrama) -> None:
        self.games += 1
        self.lead_changes.add(game.lead_changes)
        self.low_chance_decisions += len(game.spreads)
        for spread in game.spreads:
            self.spread.add(spread)
        self.kingmaker_positions += sum(s >= KINGMAKER_SPREAD for s in game.spreads)
        self.kingmaker_games += game.kingmaker
        self.replays += game.replays
        self.changed += game.changed
        self.model_calls += game.calls
        if game.winner is None:
            return
        self.outright += 1
        self.decided_at.add(game.decided_at)
        self.decided_before_half += game.decided_at < 0.5
        self.comebacks += game.comeback
        self.lowest.add(game.lowest)

    def add_skill(self, won: bool) -> None:
        self.skill_games += 1
        self.skill_wins += won

    def pair(self, game: GameDrama, base: GameDrama) -> None:
        mine, theirs = game.indicators, base.indicators
        for name, sums in self.paired.items():
            sums.add(mine[name], theirs[name])

    def merge(self, other: DramaTally) -> None:
        for name in ("games", "outright", "decided_before_half", "comebacks", "low_chance_decisions",
                     "kingmaker_positions", "kingmaker_games", "replays", "changed", "model_calls", "skill_games",
                     "skill_wins", "seconds"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for name in ("decided_at", "lowest", "lead_changes", "spread"):
            getattr(self, name).merge(getattr(other, name))
        for name, sums in self.paired.items():
            sums.merge(other.paired[name])

    def to_dict(self) -> dict:
        counts = {name: getattr(self, name) for name in (
            "games", "outright", "decided_before_half", "comebacks", "low_chance_decisions", "kingmaker_positions",
            "kingmaker_games", "replays", "changed", "model_calls", "skill_games", "skill_wins", "seconds")}
        return {**counts, **{name: getattr(self, name).to_list() for name in
                             ("decided_at", "lowest", "lead_changes", "spread")},
                "paired": {name: sums.to_list() for name, sums in self.paired.items()}}

    @classmethod
    def from_dict(cls, data: dict) -> DramaTally:
        moments = {name: Moments.from_list(data[name]) for name in ("decided_at", "lowest", "lead_changes", "spread")}
        paired = {name: PairedSums.from_list(sums) for name, sums in data["paired"].items()}
        counts = {k: v for k, v in data.items() if k not in moments and k != "paired"}
        return cls(**counts, **moments, paired=paired)


def play_drama_game(ruleset: Ruleset, players: int, bots: list[str], options: dict | None, seed: int,
                    check=None, observe=None) -> tuple:
    """``play_game`` with a ``DramaWatcher``: (the outcome, its ``GameDrama``)."""
    watcher = DramaWatcher(ruleset, check=check)
    outcome = play_game(ruleset, players, bots, options, seed, check, observe, watcher)
    return outcome, game_drama(watcher, outcome.result)


def strongest(ruleset: Ruleset) -> str:
    """The skill ladder's strong bot: the ruleset's rollout bot (its heuristic), or random if it has none."""
    return ruleset.rollout_bot


def skill_lineup(ruleset: Ruleset, players: int, index: int, strong: str | None = None,
                 weak: str = WEAKEST) -> tuple[list[str], int]:
    """The ladder's lineup for game ``index``: the strong bot at one seat, turning round the table; (bots, seat)."""
    seat = index % players
    bots = [weak] * players
    bots[seat] = strong or strongest(ruleset)
    return bots, seat


def skill_index(wins: int, games: int, players: int) -> dict:
    """``(p - 1/n) / (1 - 1/n)`` of the strong seat's win rate ``p``, with its interval (Wilson's, mapped)."""
    fair = 1 / players
    scale = 1 - fair

    def index(rate: float) -> float:
        return rounded((rate - fair) / scale)

    low, high = wilson_interval(wins, games)
    return {"value": index(wins / games) if games else 0.0, "ci95": [index(low), index(high)], "games": games}


def skill_ladder(ruleset: Ruleset, players: int, games: int, seed: int = 0, options: dict | None = None,
                 strong: str | None = None, weak: str = WEAKEST) -> dict:
    """The skill index of ``strong`` against ``weak`` over ``games`` games at equal seats."""
    wins = 0
    for index in range(games):
        bots, seat = skill_lineup(ruleset, players, index, strong, weak)
        result = play_game(ruleset, players, bots, options, game_seed(seed, index)).result
        wins += outright_winner(result) == seat
    return {**skill_index(wins, games, players), "strong": strong or strongest(ruleset), "weak": weak}


def drama_measures(ruleset: Ruleset, dt: DramaTally, players: int) -> dict:
    """A variant's drama, each measure with its 95% interval."""
    model = load_model(ruleset)
    decided, decided_ci = mean_interval(dt.decided_at)
    lowest, lowest_ci = mean_interval(dt.lowest)
    changes, changes_ci = mean_interval(dt.lead_changes)
    spread, spread_ci = mean_interval(dt.spread)
    return {
        "games": dt.games,
        "thresholds": thresholds(calibration_for(ruleset, model)),
        "decided_at": {"mean": decided, "ci95": decided_ci, "games": dt.decided_at.n},
        "decided_before_half": _rate(dt.decided_before_half, dt.outright),
        "comebacks": _rate(dt.comebacks, dt.outright),
        "lowest_winner_chance": {"mean": lowest, "ci95": lowest_ci, "games": dt.lowest.n},
        "chance_lead_changes": {"mean": changes, "ci95": changes_ci, "games": dt.lead_changes.n},
        "kingmaking": {
            "low_chance_decisions": dt.low_chance_decisions,
            "per_game": rounded(dt.low_chance_decisions / dt.games) if dt.games else 0.0,
            "spread": {"mean": spread, "ci95": spread_ci, "games": dt.spread.n},
            "positions": dt.kingmaker_positions,
            "games": _rate(dt.kingmaker_games, dt.games),
            "changes_winner": _rate(dt.changed, dt.replays),
        },
        "skill_index": {**skill_index(dt.skill_wins, dt.skill_games, players), "strong": strongest(ruleset),
                        "weak": WEAKEST},
        "model_calls": dt.model_calls,
        "model_calls_per_game": rounded(dt.model_calls / dt.games) if dt.games else 0.0,
        "cpu_seconds": round(dt.seconds, 3),
    }


def _rate(count: int, games: int) -> dict:
    return {"count": count, "games": games, "rate": rounded(count / games) if games else 0.0,
            "ci95": proportion_interval(count, games)}


def drama_sentence(reports: list[dict]) -> str | None:
    """The base's drama in words, and the variant that moves kingmaking most (by the paired games)."""
    base = reports[0].get("drama") if reports else None
    if not base or not base["games"]:
        return None
    text = (f"the base is decided at {base['decided_at']['mean'] * 100:.0f}% of its turns "
            f"({base['decided_before_half']['rate'] * 100:.0f}% of games before halfway), its winner came back "
            f"from below {COMEBACK_BELOW} in {base['comebacks']['rate'] * 100:.0f}%, and a seat with no chance "
            f"could pick the winner in {base['kingmaking']['games']['rate'] * 100:.0f}% of games")
    moved = [(r, ((r.get("difference") or {}).get("drama") or {}).get("kingmaker")) for r in reports[1:]]
    moved = [(r, d) for r, d in moved if d and d["pairs"]]
    if moved:
        report, diff = max(moved, key=lambda pair: abs(pair[1]["difference"]))
        rate = report["drama"]["kingmaking"]["games"]
        low, high = rate["ci95"]
        text += (f"; with {report['name']} kingmaking is {rate['rate'] * 100:.0f}% [{low * 100:.0f}, "
                 f"{high * 100:.0f}] ({diff['difference'] * 100:+.0f} points)")
    return text


class DramaChunkTally(Tally):
    """A simulation chunk's ``Tally`` that carries its ``DramaTally`` too (``to_dict`` adds ``drama``)."""

    def __init__(self, tally: Tally, drama: DramaTally) -> None:
        super().__init__(**{name: getattr(tally, name) for name in tally.__dataclass_fields__})
        self.drama = drama

    def to_dict(self) -> dict:
        return {**super().to_dict(), "drama": self.drama.to_dict()}


def play_drama_chunk(ruleset_id: str, players: int, bots: list[str], options: dict | None, seed: int, start: int,
                     count: int, check=None) -> DramaChunkTally:
    """``engine.simulate.play_chunk`` with the drama of every game (and the skill ladder's games, one in
    ``SKILL_EVERY``): a simulation that asks for ``drama``."""
    ruleset = get_ruleset(ruleset_id)
    bots = seat_bots(bots, players)
    tally, drama = Tally(players, bots, rules_version=ruleset.rules_version), DramaTally()
    began = time.perf_counter()
    for index in range(start, start + count):
        game_check = None if check is None else functools.partial(check, index)
        outcome, game = play_drama_game(ruleset, players, bots, options, game_seed(seed, index), game_check)
        tally.add(outcome)
        drama.add(game)
        if index % SKILL_EVERY == 0:
            lineup, seat = skill_lineup(ruleset, players, index // SKILL_EVERY)
            result = play_game(ruleset, players, lineup, options, game_seed(seed, index), game_check).result
            drama.add_skill(result.winners == [seat])
    tally.seconds = drama.seconds = time.perf_counter() - began
    return DramaChunkTally(tally, drama)


def merged_drama(chunks: list[dict]) -> DramaTally | None:
    """The ``drama`` of a simulation's chunk tallies (as ``to_dict`` wrote them) merged; None without any."""
    found = [DramaTally.from_dict(chunk["drama"]) for chunk in chunks if "drama" in chunk]
    if not found:
        return None
    total = found[0]
    for other in found[1:]:
        total.merge(other)
    return total
