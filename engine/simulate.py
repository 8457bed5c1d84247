"""Play whole games in-process and aggregate statistics.

Game ``i`` of a simulation with seed ``S`` always uses the seeds derived from
``(S, i)``, so a simulation cut into chunks (``play_chunk``) and merged gives exactly
the numbers of one run (``simulate``), however many workers shared it.

Wins are counted per seat and per turn-order position (``Ruleset.turn_order``): in a game whose
rulebook decides at the table who moves first (a roll-off), seat 0 is not the first mover.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from engine.core.errors import InvalidOptions
from engine.core.registry import get_ruleset
from engine.core.result import Result
from engine.core.rng import Rng, derive_seed
from engine.core.ruleset import Ruleset

#: A game that takes more steps than this has a bug (a loop with no progress).
MAX_STEPS = 1_000_000
#: A game calls its ``check`` before its first step and then every this many steps.
CHECK_EVERY = 64


@dataclass(slots=True)
class GameOutcome:
    result: Result
    turns: int
    #: the final state (what a caller may still want to read of the game, e.g. who was eliminated)
    state: object = None
    #: the seats in turn-order position (``Ruleset.turn_order`` of the final state); None: not known
    turn_order: list[int] | None = None


def score_bucket(score: int) -> int:
    """``score`` rounded down to two significant digits (57 -> 57, 1234 -> 1200, 123456 -> 120000), so
    a distribution of scores stays small whatever their range, and chunks still merge exactly."""
    if -100 < score < 100:
        return score
    digits = len(str(abs(score)))
    step = 10 ** (digits - 2)
    return score // step * step


def game_seed(seed: int, index: int) -> int:
    return derive_seed(seed, index)


class Observer:
    """What ``play_out`` tells a watcher of the game besides ``observe``: ``start`` before the first
    action, with every seat's ``choose`` and generator (a watcher may copy them to replay another
    choice with the same randomness), then ``before`` each decision and ``after`` its action. A game
    played without one (every simulation that does not ask for drama) pays for none of it."""

    def start(self, state, choose: list, rngs: list[Rng]) -> None:
        """The game is set up; ``choose[seat]`` and ``rngs[seat]`` are what the loop plays each seat with."""

    def before(self, state, decision) -> None:
        """``decision`` is about to be chosen; the seat's generator is as it stands before the choice."""

    def after(self, state, seat: int, action: dict) -> None:
        """``seat`` played ``action``; ``state`` is the new version."""


def play_game(ruleset: Ruleset, players: int, bots: list[str], options: dict | None, seed: int,
              check: Callable[[], None] | None = None, observe: Callable[[object], None] | None = None,
              observer: Observer | None = None) -> GameOutcome:
    """Play one game to the end with one bot per seat.

    ``check`` is called now and then during the game (see ``CHECK_EVERY``); whatever it raises
    stops the game, so a caller can cancel it or hold it to a time budget. ``observe(state)`` is
    called after every action (the experiments follow the standings turn by turn with it);
    ``observer`` (an ``Observer``) sees each decision before and after it is chosen (the drama measures).
    """
    state = ruleset.new_game(players, options, seed)
    # The loop runs once per action (thousands of times a game in Hitchiker): what it calls is looked up once.
    choose = [ruleset.bot(name).choose for name in bots]
    bots_seed = derive_seed(seed, 1)  # each seat's RNG: derive_seed(seed, 1, seat), the common prefix once
    rngs = [Rng(derive_seed(bots_seed, seat)) for seat in range(players)]
    play_out(ruleset, state, choose, rngs, check, observe, observer, seed)
    result = ruleset.result(state)
    if result is None:
        raise RuntimeError(f"{ruleset.id} game with seed {seed} has no decisions and no result")
    return GameOutcome(result, ruleset.turns(state), state, ruleset.turn_order(state))


def play_out(ruleset: Ruleset, state, choose: list, rngs: list[Rng], check: Callable[[], None] | None = None,
             observe: Callable[[object], None] | None = None, observer: Observer | None = None,
             seed: int | None = None) -> None:
    """Play ``state`` on to its end in place, seat ``s`` choosing with ``choose[s]`` and ``rngs[s]``:
    the loop of ``play_game``, and of a replay from a copied state and copied generators."""
    pending, play = ruleset.pending, ruleset.play
    if observer is not None:
        observer.start(state, choose, rngs)
    for step in range(MAX_STEPS):
        if check is not None and step % CHECK_EVERY == 0:
            check()
        decisions = pending(state)
        if not decisions:
            return
        decision = decisions[0]
        seat = decision.seat
        if observer is None:
            # The bot picked one of the offered options, so ``apply(..., check=False)``, which is ``play``.
            play(state, seat, choose[seat](state, decision, rngs[seat]))
        else:
            observer.before(state, decision)
            action = choose[seat](state, decision, rngs[seat])
            play(state, seat, action)
            observer.after(state, seat, action)
        if observe is not None:
            observe(state)
    raise RuntimeError(f"{ruleset.id} game with seed {seed} did not end in {MAX_STEPS} steps")


def outright_winner(result: Result) -> int | None:
    """The seat that won alone, or None for a shared win."""
    return None if result.is_draw else result.winners[0]


@dataclass
class PositionTally:
    """Outright wins by turn-order position (``wins[0]``: the first mover's) and how often each seat
    moved first, over ``games``. Part of a ``Tally``, and counted apart from its games: a tally written
    before positions were counted (a chunk recorded by an older worker) merges in with none."""

    players: int
    games: int = 0
    wins: list[int] = field(default_factory=list)
    #: per seat: games in which it was the first mover
    first_movers: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.wins = self.wins or [0] * self.players
        self.first_movers = self.first_movers or [0] * self.players

    def add(self, result: Result, turn_order: list[int]) -> None:
        self.games += 1
        self.first_movers[turn_order[0]] += 1
        winner = outright_winner(result)
        if winner is not None:
            self.wins[turn_order.index(winner)] += 1

    def merge(self, other: PositionTally) -> None:
        self.games += other.games
        self.wins = [a + b for a, b in zip(self.wins, other.wins, strict=True)]
        self.first_movers = [a + b for a, b in zip(self.first_movers, other.first_movers, strict=True)]

    def to_dict(self) -> dict:
        return {"games": self.games, "wins": self.wins, "first_movers": self.first_movers}

    @classmethod
    def from_dict(cls, players: int, data: dict | None) -> PositionTally:
        """``data`` as ``to_dict`` wrote it; None (a tally of the format before positions): no games."""
        if data is None:
            return cls(players)
        return cls(players, data["games"], list(data["wins"]), list(data["first_movers"]))


@dataclass
class Tally:
    """Mergeable partial statistics of some games of one simulation."""

    players: int
    bots: list[str]
    games: int = 0
    wins: list[int] = field(default_factory=list)
    draws: int = 0
    turn_cap_hits: int = 0
    #: game length (turns) -> number of games, so chunks merge exactly
    turns: dict[int, int] = field(default_factory=dict)
    score_sums: list[int] = field(default_factory=list)
    #: final score (every seat's, by ``score_bucket``) -> number of seat-games
    scores: dict[int, int] = field(default_factory=dict)
    seconds: float = 0.0
    #: the ruleset's rules version the games were played under (0: none counted yet)
    rules_version: int = 0
    #: wins by turn-order position, over the games whose turn order is known
    positions: PositionTally | None = None

    def __post_init__(self) -> None:
        self.wins = self.wins or [0] * self.players
        self.score_sums = self.score_sums or [0] * self.players
        self.positions = self.positions or PositionTally(self.players)

    def add(self, outcome: GameOutcome) -> None:
        result = outcome.result
        self.games += 1
        winner = outright_winner(result)
        if winner is None:
            self.draws += 1
        else:
            self.wins[winner] += 1
        if outcome.turn_order is not None:
            self.positions.add(result, outcome.turn_order)
        self.turn_cap_hits += result.turn_cap_hit
        self.turns[outcome.turns] = self.turns.get(outcome.turns, 0) + 1
        for seat, score in enumerate(result.scores):
            self.score_sums[seat] += score
            bucket = score_bucket(score)
            self.scores[bucket] = self.scores.get(bucket, 0) + 1

    def merge(self, other: Tally) -> None:
        if self.rules_version and other.rules_version and self.rules_version != other.rules_version:
            raise ValueError(f"cannot merge games of rules version {self.rules_version} and {other.rules_version}")
        self.rules_version = self.rules_version or other.rules_version
        self.games += other.games
        self.wins = [a + b for a, b in zip(self.wins, other.wins, strict=True)]
        self.draws += other.draws
        self.turn_cap_hits += other.turn_cap_hits
        for length, count in other.turns.items():
            self.turns[length] = self.turns.get(length, 0) + count
        self.score_sums = [a + b for a, b in zip(self.score_sums, other.score_sums, strict=True)]
        for bucket, count in other.scores.items():
            self.scores[bucket] = self.scores.get(bucket, 0) + count
        self.seconds += other.seconds
        self.positions.merge(other.positions)

    def to_dict(self) -> dict:
        return {
            "players": self.players,
            "bots": self.bots,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "turn_cap_hits": self.turn_cap_hits,
            "turns": {str(k): v for k, v in sorted(self.turns.items())},
            "score_sums": self.score_sums,
            "scores": {str(k): v for k, v in sorted(self.scores.items())},
            "seconds": self.seconds,
            "rules_version": self.rules_version,
            "positions": self.positions.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: dict) -> Tally:
        return cls(
            players=data["players"],
            bots=list(data["bots"]),
            games=data["games"],
            wins=list(data["wins"]),
            draws=data["draws"],
            turn_cap_hits=data["turn_cap_hits"],
            turns={int(k): v for k, v in data["turns"].items()},
            score_sums=list(data["score_sums"]),
            scores={int(k): v for k, v in data.get("scores", {}).items()},  # absent in older records
            seconds=data["seconds"],
            rules_version=data.get("rules_version", 0),
            positions=PositionTally.from_dict(data["players"], data.get("positions")),  # absent before turn order
        )


def seat_bots(bots: list[str], players: int) -> list[str]:
    """One bot name per seat; a shorter list repeats its last name."""
    if not bots:
        bots = ["random"]
    if len(bots) > players:
        raise InvalidOptions(f"{len(bots)} bots for {players} players")
    return bots + [bots[-1]] * (players - len(bots))


def play_chunk(
    ruleset_id: str, players: int, bots: list[str], options: dict | None, seed: int, start: int, count: int,
    check: Callable[[int], None] | None = None,
) -> Tally:
    """Games ``start`` .. ``start + count - 1`` of the simulation with this seed.

    ``check(index)`` is each game's ``check`` (see ``play_game``), told which game is playing.
    """
    ruleset = get_ruleset(ruleset_id)
    bots = seat_bots(bots, players)
    tally = Tally(players, bots, rules_version=ruleset.rules_version)
    began = time.perf_counter()
    for index in range(start, start + count):
        game_check = None if check is None else functools.partial(check, index)
        tally.add(play_game(ruleset, players, bots, options, game_seed(seed, index), game_check))
    tally.seconds = time.perf_counter() - began
    return tally


def wilson_interval(successes: int, trials: int, z: float = 1.959964) -> list[float]:
    """95% Wilson score interval for a proportion."""
    if trials == 0:
        return [0.0, 1.0]
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return [round(max(0.0, centre - half), 6), round(min(1.0, centre + half), 6)]


def _percentile(histogram: dict[int, int], fraction: float) -> int:
    """The smallest length with at least ``fraction`` of games at or below it."""
    total = sum(histogram.values())
    needed = max(1, math.ceil(fraction * total))
    running = 0
    for length in sorted(histogram):
        running += histogram[length]
        if running >= needed:
            return length
    return 0


def summarize(ruleset_id: str, seed: int, tally: Tally, wall_seconds: float | None = None) -> dict:
    """The statistics ``rulehouse simulate --json`` prints."""
    games = tally.games
    seconds = wall_seconds if wall_seconds is not None else tally.seconds
    lengths = tally.turns
    per_bot: dict[str, dict] = {}
    for seat, name in enumerate(tally.bots):
        entry = per_bot.setdefault(name, {"seats": 0, "games": 0, "wins": 0})
        entry["seats"] += 1
        entry["games"] += games
        entry["wins"] += tally.wins[seat]
    for entry in per_bot.values():
        entry["win_rate"] = round(entry["wins"] / entry["games"], 6) if entry["games"] else 0.0
        entry["win_rate_ci95"] = wilson_interval(entry["wins"], entry["games"])
    return {
        "ruleset": ruleset_id,
        "rules_version": tally.rules_version or get_ruleset(ruleset_id).rules_version,
        "games": games,
        "players": tally.players,
        "bots": tally.bots,
        "seed": seed,
        "wins": tally.wins,
        **win_rates(tally.wins, games),
        "bot_stats": per_bot,
        "draws": tally.draws,
        "turn_cap_hits": tally.turn_cap_hits,
        "turns": {
            "mean": round(sum(k * v for k, v in lengths.items()) / games, 3) if games else 0.0,
            "median": _percentile(lengths, 0.5),
            "p90": _percentile(lengths, 0.9),
            "max": max(lengths) if lengths else 0,
            "histogram": {str(k): v for k, v in sorted(lengths.items())},
        },
        "positions": position_summary(tally.positions),
        "mean_scores": [round(s / games, 3) if games else 0.0 for s in tally.score_sums],
        "score_histogram": {str(k): v for k, v in sorted(tally.scores.items())},
        "seconds": round(seconds, 4),
        "games_per_s": round(games / seconds, 2) if seconds > 0 else None,
    }


def position_summary(positions: PositionTally) -> dict:
    """Win rates by turn-order position, each with its Wilson interval, over the games that counted them."""
    return {"games": positions.games, "wins": positions.wins, **win_rates(positions.wins, positions.games),
            "first_movers": positions.first_movers}


def win_rates(wins: list[int], games: int) -> dict:
    """``win_rates`` and ``win_rate_ci95`` (Wilson) of these win counts over ``games``."""
    return {"win_rates": [round(w / games, 6) if games else 0.0 for w in wins],
            "win_rate_ci95": [wilson_interval(w, games) for w in wins]}


def simulate(
    ruleset_id: str, games: int, players: int, bots: list[str], options: dict | None = None, seed: int = 0
) -> dict:
    """Play ``games`` games in this process and return their statistics."""
    tally = play_chunk(ruleset_id, players, bots, options, seed, 0, games)
    return summarize(ruleset_id, seed, tally)
