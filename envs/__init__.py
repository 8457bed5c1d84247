"""Environments for learning agents: each ruleset as a PettingZoo AEC environment (``envs.aec``) and, the
other seats played by a Rulehouse bot, as a Gymnasium environment (``envs.single``) registered as
``rulehouse/<ruleset>-v0``. The engine plays in-process; docs/agents.md has the encodings.

Needs the ``rl`` extra (``pip install "rulehouse[rl]"``); the engine itself never imports this package.
"""

from __future__ import annotations

try:
    import gymnasium
    import pettingzoo  # noqa: F401  (checked here so that the message below names both)
except ImportError as error:  # pragma: no cover - depends on what is installed
    raise ImportError(f'envs needs Gymnasium and PettingZoo: pip install "rulehouse[rl]" ({error})') from None

from engine.core.registry import all_rulesets


def gym_id(ruleset_id: str) -> str:
    return f"rulehouse/{ruleset_id}-v0"


def register_all() -> list[str]:
    """Register every ruleset's Gymnasium environment (again, harmlessly); the ids registered."""
    ids = []
    for ruleset_id in all_rulesets():
        env_id = gym_id(ruleset_id)
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point="envs.single:RulehouseEnv", kwargs={"ruleset": ruleset_id})
        ids.append(env_id)
    return ids


register_all()
