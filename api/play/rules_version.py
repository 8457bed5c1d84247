"""Rules versions of stored games: a game goes on only under the rules it was created under.

Every ruleset has a ``rules_version`` (``engine.core.ruleset.Ruleset``), bumped by any change
that can change a game's outcome. A game keeps the version it was created under; replaying
its state or its actions under other rules could decide it differently from what its players
saw, so the service refuses such a game (``RulesVersionGone``: 410, ``rules-version``) instead of
migrating it.
"""

from __future__ import annotations

from api.play.errors import RulesVersionGone
from api.play.game_record import GameRecord
from engine.core.ruleset import Ruleset


def is_current(ruleset: Ruleset, record: GameRecord) -> bool:
    """Whether the game was created under the rules ``ruleset`` plays now (background jobs skip it if not)."""
    return record.rules_version == ruleset.rules_version


def ensure_current(ruleset: Ruleset, record: GameRecord) -> None:
    """Raise ``RulesVersionGone`` unless ``record`` was created under ``ruleset``'s rules."""
    if not is_current(ruleset, record):
        raise RulesVersionGone(
            f"game {record.id} was created under {ruleset.id} rules version {record.rules_version}; this service "
            f"plays version {ruleset.rules_version} and does not replay a game under other rules. "
            "Start a new game (the old one expires by itself, or its creator may delete it).",
            rules_version=record.rules_version,
            current_rules_version=ruleset.rules_version,
        )
