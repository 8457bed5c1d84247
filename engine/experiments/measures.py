"""Play every variant of an experiment on the same seeds and keep mergeable tallies of what a
designer asks: the simulation's ``Tally`` plus closeness, lead changes, the halfway standing,
eliminations, and for each variant its games paired with the base's games of the same seeds.

Game ``i`` of every variant uses the seeds of ``(seed, i)`` (``engine.simulate.game_seed``), so a
chunk that plays games ``start .. start + count - 1`` of every variant keeps each pair together and
the paired sums below merge exactly, however the games are cut into chunks.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from engine.core.registry import get_ruleset
from engine.core.ruleset import Ruleset
from engine.experiments.design import Variant
from engine.experiments.drama import SKILL_EVERY, DramaTally, play_drama_game, skill_lineup
from engine.experiments.sums import NOBODY, Moments, PairedSums, lead_changes
from engine.simulate import GameOutcome, Tally, game_seed, play_game


class StandingsTracker:
    """``play_game``'s ``observe``: the leader and the last seat by ``Ruleset.standings`` at the
    end of each turn (a turn is over when ``Ruleset.turns`` moves on); ``NOBODY`` for a tie."""

    __slots__ = ("eliminated", "elimination_turns", "eliminations", "lasts", "leaders", "standings", "turn",
                 "turns")

    def __init__(self, ruleset: Ruleset) -> None:
        # Bound once: this runs after every action of every game of an experiment.
        self.turns = ruleset.turns
        self.standings = ruleset.standings
        self.eliminations = ruleset.eliminated_seats
        self.turn = 0
        self.leaders: list[int] = []
        self.lasts: list[int] = []
        #: seats out so far, and the turn at which each went out
        self.eliminated = 0
        self.elimination_turns: list[int] = []

    def __call__(self, state) -> None:
        turn = self.turns(state)
        if turn == self.turn:
            return
        self.turn = turn
        self.count_eliminations(state, turn)
        standings = self.standings(state)
        if standings is None:
            return
        best, worst = max(standings), min(standings)
        self.leaders.append(_only(standings, best))
        self.lasts.append(_only(standings, worst))


    def count_eliminations(self, state, turn: int) -> None:
        out = self.eliminations(state)
        if out > self.eliminated:
            self.elimination_turns += [turn] * (out - self.eliminated)
            self.eliminated = out

    def finish(self, state) -> None:
        """The game is over: the last action may have eliminated seats within the final turn."""
        self.count_eliminations(state, self.turns(state))


def _only(standings: list[float], value: float) -> int:
    seat = standings.index(value)
    return seat if standings.count(value) == 1 else NOBODY


@dataclass
class VariantTally:
    """Mergeable statistics of some games of one variant (and their pairs with the base's)."""

    tally: Tally
    #: the winner's score minus the runner-up's, over games with one winner
    margin: Moments = field(default_factory=Moments)
    lead_changes: Moments = field(default_factory=Moments)
    #: games with an outright winner and an outright leader (last) at the halfway turn...
    halfway_leader_games: int = 0
    halfway_last_games: int = 0
    #: ...and how many of them that seat won
    halfway_leader_wins: int = 0
    halfway_last_wins: int = 0
    #: how the games ended (``Result.reason``) -> games
    reasons: dict[str, int] = field(default_factory=dict)
    #: games in which a seat was eliminated (``Ruleset.eliminated_seats``), and seats eliminated
    elimination_games: int = 0
    eliminated_seats: int = 0
    #: the turn of each game's first elimination, as a share of the game's length (0: at once, 1: at the end)
    first_elimination: Moments = field(default_factory=Moments)
    #: per seat, outright wins paired with the base's; then game length paired with the base's
    paired_wins: list[PairedSums] = field(default_factory=list)
    paired_turns: PairedSums = field(default_factory=PairedSums)
    #: per turn-order position, the outright wins of the seat there paired with the base's
    paired_positions: list[PairedSums] = field(default_factory=list)
    #: the drama measures (``engine.experiments.drama``) of an experiment that asks for them, else None
    drama: DramaTally | None = None

    def __post_init__(self) -> None:
        self.paired_wins = self.paired_wins or [PairedSums() for _ in range(self.tally.players)]
        self.paired_positions = self.paired_positions or [PairedSums() for _ in range(self.tally.players)]

    def add(self, outcome: GameOutcome, tracker: StandingsTracker) -> None:
        self.tally.add(outcome)
        result = outcome.result
        self.reasons[result.reason] = self.reasons.get(result.reason, 0) + 1
        tracker.finish(outcome.state)
        eliminated = len(tracker.elimination_turns)
        self.elimination_games += eliminated > 0
        self.eliminated_seats += eliminated
        if eliminated:
            self.first_elimination.add(tracker.elimination_turns[0] / max(1, outcome.turns))
        self.lead_changes.add(lead_changes(tracker.leaders))
        if result.is_draw:
            return
        winner = result.winners[0]
        scores = sorted(result.scores, reverse=True)
        if len(scores) > 1:
            self.margin.add(scores[0] - scores[1])
        if tracker.leaders:
            half = len(tracker.leaders) // 2
            if tracker.leaders[half] != NOBODY:
                self.halfway_leader_games += 1
                self.halfway_leader_wins += tracker.leaders[half] == winner
            if tracker.lasts[half] != NOBODY:
                self.halfway_last_games += 1
                self.halfway_last_wins += tracker.lasts[half] == winner

    def pair(self, outcome: GameOutcome, base: GameOutcome) -> None:
        for seat, sums in enumerate(self.paired_wins):
            sums.add(_won(outcome, seat), _won(base, seat))
        self.paired_turns.add(outcome.turns, base.turns)
        for position, sums in enumerate(self.paired_positions):
            sums.add(_won(outcome, outcome.turn_order[position]), _won(base, base.turn_order[position]))

    def merge(self, other: VariantTally) -> None:
        self.tally.merge(other.tally)
        self.margin.merge(other.margin)
        self.lead_changes.merge(other.lead_changes)
        self.first_elimination.merge(other.first_elimination)
        for name in ("halfway_leader_games", "halfway_last_games", "halfway_leader_wins", "halfway_last_wins",
                     "elimination_games", "eliminated_seats"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for reason, count in other.reasons.items():
            self.reasons[reason] = self.reasons.get(reason, 0) + count
        for mine, theirs in zip(self.paired_wins + self.paired_positions, other.paired_wins + other.paired_positions,
                                strict=True):
            mine.merge(theirs)
        self.paired_turns.merge(other.paired_turns)
        if other.drama is not None:
            if self.drama is None:
                self.drama = DramaTally()
            self.drama.merge(other.drama)

    def to_dict(self) -> dict:
        return {
            "tally": self.tally.to_dict(),
            "margin": self.margin.to_list(),
            "lead_changes": self.lead_changes.to_list(),
            "halfway": [self.halfway_leader_games, self.halfway_leader_wins, self.halfway_last_games,
                        self.halfway_last_wins],
            "reasons": self.reasons,
            "eliminations": [self.elimination_games, self.eliminated_seats],
            "first_elimination": self.first_elimination.to_list(),
            "paired_wins": [sums.to_list() for sums in self.paired_wins],
            "paired_turns": self.paired_turns.to_list(),
            "paired_positions": [sums.to_list() for sums in self.paired_positions],
            **({"drama": self.drama.to_dict()} if self.drama is not None else {}),
        }

    @classmethod
    def from_dict(cls, data: dict) -> VariantTally:
        leader_games, leader_wins, last_games, last_wins = data["halfway"]
        return cls(
            tally=Tally.from_dict(data["tally"]),
            margin=Moments.from_list(data["margin"]),
            lead_changes=Moments.from_list(data["lead_changes"]),
            halfway_leader_games=leader_games, halfway_leader_wins=leader_wins,
            halfway_last_games=last_games, halfway_last_wins=last_wins,
            reasons=dict(data["reasons"]),
            elimination_games=data["eliminations"][0], eliminated_seats=data["eliminations"][1],
            first_elimination=Moments.from_list(data["first_elimination"]),
            paired_wins=[PairedSums.from_list(sums) for sums in data["paired_wins"]],
            paired_turns=PairedSums.from_list(data["paired_turns"]),
            # absent from the tallies of chunks recorded before turn order was counted: no pairs
            paired_positions=[PairedSums.from_list(sums) for sums in data.get("paired_positions", [])],
            drama=DramaTally.from_dict(data["drama"]) if "drama" in data else None,
        )

    @classmethod
    def empty(cls, players: int, bots: list[str], rules_version: int = 0) -> VariantTally:
        return cls(Tally(players, bots, rules_version=rules_version))


def _won(outcome: GameOutcome, seat: int) -> int:
    winners = outcome.result.winners
    return int(len(winners) == 1 and winners[0] == seat)


def play_experiment_chunk(
    ruleset_id: str, players: int, variants: list[Variant], playing: list[int], seed: int, start: int, count: int,
    check: Callable[[int], None] | None = None, drama: bool = False,
) -> dict[int, VariantTally]:
    """Games ``start .. start + count - 1`` of each variant in ``playing`` (indexes into ``variants``;
    0, the base, whenever another variant plays, so every game has its pair). Variant -> tally.

    With ``drama``, every game is also read by its win chances (``engine.experiments.drama``), and one
    game in ``SKILL_EVERY`` of each variant is played again by the skill ladder's lineup."""
    ruleset = get_ruleset(ruleset_id)
    tallies = {v: VariantTally.empty(players, variants[v].bots, ruleset.rules_version) for v in playing}
    if drama:
        for v in playing:
            tallies[v].drama = DramaTally()
    seconds = dict.fromkeys(playing, 0.0)
    for index in range(start, start + count):
        game_check = None if check is None else functools.partial(check, index)
        outcomes, dramas = {}, {}
        for v in playing:
            began = time.perf_counter()
            tracker = StandingsTracker(ruleset)
            if drama:
                outcome, dramas[v] = play_drama_game(ruleset, players, variants[v].bots, variants[v].options,
                                                     game_seed(seed, index), game_check, tracker)
                _play_skill_game(ruleset, players, variants[v], seed, index, game_check, tallies[v].drama)
            else:
                outcome = play_game(ruleset, players, variants[v].bots, variants[v].options, game_seed(seed, index),
                                    game_check, tracker)
            tallies[v].add(outcome, tracker)
            if drama:
                tallies[v].drama.add(dramas[v])
                tallies[v].drama.seconds += time.perf_counter() - began
            seconds[v] += time.perf_counter() - began
            outcomes[v] = outcome
        if 0 in outcomes:
            for v in playing:
                tallies[v].pair(outcomes[v], outcomes[0])
                if drama:
                    tallies[v].drama.pair(dramas[v], dramas[0])
    for v in playing:
        tallies[v].tally.seconds = seconds[v]
    return tallies


def _play_skill_game(ruleset: Ruleset, players: int, variant: Variant, seed: int, index: int, check,
                     drama: DramaTally) -> None:
    """Game ``index``'s skill-ladder game of ``variant``'s options, if it is one (one in ``SKILL_EVERY``)."""
    if index % SKILL_EVERY:
        return
    bots, seat = skill_lineup(ruleset, players, index // SKILL_EVERY)
    result = play_game(ruleset, players, bots, variant.options, game_seed(seed, index), check).result
    drama.add_skill(result.winners == [seat])
