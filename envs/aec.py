"""Every seat a learning agent: a ruleset as a PettingZoo AEC environment.

Agents are ``seat_0`` .. ``seat_{n-1}``. The agent to act is the seat of the engine's first pending
decision, so Cash 'n Guns' face-down choices (pending for several seats at once) come one seat after
another in the engine's own order; each seat chooses from its own view only, as at the table.

``observe(agent)`` is ``{"observation": Box, "action_mask": int8 vector}``, as PettingZoo's classic games
give it; the mask is the agent's legal slots when it is the agent to act, all zeros otherwise. Each
``infos`` of the agent to act holds ``view`` (the seat's own view, a dict; ``last()`` returns it), and at
the end every agent's holds its ``view`` and the ``result``. Rewards come at the end.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from engine.core.ruleset import Ruleset
from envs.table import DEFAULT_PLAYERS, OBSERVATION_BOUND, RewardFn, Table, reward_fn


class RulehouseAECEnv(AECEnv):
    """``ruleset`` as an AEC environment at a table of ``players`` seats (``options``: the game's options)."""

    metadata = {"render_modes": ["ansi", "human"], "name": "rulehouse_v0", "is_parallelizable": False,
                "render_fps": 4}

    def __init__(self, ruleset: str | Ruleset, players: int = DEFAULT_PLAYERS, options: dict | None = None,
                 reward: str | RewardFn = "shared", render_mode: str | None = None) -> None:
        super().__init__()
        self.table = Table(ruleset, players, options)
        self.metadata = {**self.metadata, "name": f"rulehouse_{self.table.ruleset.id.replace('-', '_')}_v0"}
        self.reward = reward_fn(reward)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.possible_agents = [f"seat_{seat}" for seat in range(players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        size = len(self.table.feature_names)
        observation = spaces.Box(-OBSERVATION_BOUND, OBSERVATION_BOUND, (size,), np.float32)
        mask = spaces.Box(0, 1, (len(self.table.catalogue),), np.int8)
        self.observation_spaces = {agent: spaces.Dict({"observation": observation, "action_mask": mask})
                                   for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(len(self.table.catalogue)) for agent in self.possible_agents}
        self._rng = np.random.default_rng()

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game; ``seed`` is the engine's seed (the game's dice and cards), drawn at random if None."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            engine_seed = seed
        else:
            engine_seed = int(self._rng.integers(0, 2**63))
        self.table.reset(engine_seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._after_play()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat[agent]
        table = self.table
        if agent == self.agent_selection and not self.terminations.get(agent, True):
            mask = table.mask(seat)
        else:
            mask = np.zeros(len(table.catalogue), dtype=np.int8)
        return {"observation": table.observe(seat), "action_mask": mask}

    def step(self, action: int | dict | None) -> None:
        """Play ``action`` for the agent to act: a slot index (``IllegalAction`` if the mask excludes it), or an
        engine action body (a bot's move, checked by the engine). ``None`` for an agent whose game is over."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.table.play(self._seat[agent], action)
        self._after_play()
        if self.render_mode == "human":
            self.render()

    def _after_play(self) -> None:
        table = self.table
        result = table.result()
        for agent in self.agents:
            self.rewards[agent] = 0.0
            self.infos[agent] = {}
        if result is None:
            # Only the agent to act gets its view (what ``last()`` returns): a view for every seat after
            # every step would cost more than the step.
            self.agent_selection = agent = self.possible_agents[table.next_seat()]
            self.infos[agent] = {"view": table.view(self._seat[agent])}
        else:
            for agent in self.agents:
                self.rewards[agent] = self.reward(result, self._seat[agent])
                self.terminations[agent] = True
                self.infos[agent] = {"view": table.view(self._seat[agent]), "result": result.to_dict()}
            self.agent_selection = self.agents[0]
        self._accumulate_rewards()

    def render(self) -> str | None:
        text = self.table.render()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def env(ruleset: str, **kwargs: Any) -> RulehouseAECEnv:
    """PettingZoo's usual constructor name: ``envs.aec.env("whipcash", players=3)``."""
    return RulehouseAECEnv(ruleset, **kwargs)
