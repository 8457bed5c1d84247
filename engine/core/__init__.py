"""The contract every ruleset implements, and the pieces they share."""

from engine.core.decisions import Decision
from engine.core.errors import IllegalAction, InvalidOptions
from engine.core.events import Event
from engine.core.registry import all_rulesets, get_ruleset
from engine.core.result import Result
from engine.core.rng import Rng
from engine.core.ruleset import Ruleset

__all__ = [
    "Decision",
    "Event",
    "IllegalAction",
    "InvalidOptions",
    "Result",
    "Rng",
    "Ruleset",
    "all_rulesets",
    "get_ruleset",
]
