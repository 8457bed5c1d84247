"""Who moved first, second... in a game, as the table saw it: each game's opening events (Monopoly's
``first_player``, Whipca$h's ``turn_order``, Hitchiker's ``turn_order_rolled``) and the rulebook's
rotation, written out here, so that tests of the win rates by turn order do not lean on
``Ruleset.turn_order``, the code they check."""

from __future__ import annotations

from engine.core.registry import get_ruleset
from engine.core.result import Result


def rotation(first: int, players: int) -> list[int]:
    return [(first + step) % players for step in range(players)]


def order_the_table_saw(ruleset_id: str, players: int, options: dict | None, seed: int) -> list[int]:
    """Who moved first, second... as the game's opening events tell it (Cash 'n Guns: the oldest
    player, seat 0, starts at the Godfather's desk and the loot goes clockwise)."""
    ruleset = get_ruleset(ruleset_id)
    events = {e.type: e.data for e in ruleset.setup_events(ruleset.new_game(players, options, seed))}
    if ruleset_id == "monopoly-cars2":
        return rotation(events["first_player"]["seat"], players)
    if ruleset_id == "whipcash":
        return list(events["turn_order"]["order"])
    if ruleset_id == "hitchiker":
        return rotation(events["turn_order_rolled"]["first"], players)
    return rotation(0, players)


def won(result: Result, seat: int) -> int:
    return int(result.winners == [seat])
