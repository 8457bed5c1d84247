"""States sampled all along seeded random games of a ruleset, for engine-wide checks."""

from __future__ import annotations

from collections.abc import Iterator

from engine.core.rng import Rng, derive_seed
from engine.core.ruleset import Ruleset


def sampled_states(ruleset: Ruleset, games: int, every: int = 3, options: dict | None = None,
                   seed: int = 0) -> Iterator[tuple[object, int]]:
    """(state, seat of its first pending decision) every ``every`` actions of ``games`` random games,
    over every player count in turn; each state is a fresh object the caller may keep or change."""
    counts = list(range(ruleset.min_players, ruleset.max_players + 1))
    bot = ruleset.bot("random")
    for game in range(games):
        players = counts[game % len(counts)]
        state = ruleset.new_game(players, options, derive_seed(seed, game))
        rng = Rng(derive_seed(seed, game, 1))
        step = 0
        while decisions := ruleset.pending(state):
            decision = rng.choice(decisions)
            if step % every == 0:
                yield ruleset.from_dict(ruleset.to_dict(state)), decisions[0].seat
            ruleset.apply(state, decision.seat, bot.act(None, decision, rng), check=False)
            step += 1
