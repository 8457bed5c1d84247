"""One seat a learning agent, the others Rulehouse bots: a ruleset as a Gymnasium environment.

Registered as ``rulehouse/<ruleset>-v0`` (``gymnasium.make("rulehouse/whipcash-v0", seat=1)``). The
agent's observation is the seat's numeric encoding (a ``Box``); ``info`` holds ``view`` (the seat's own
view, a dict), ``action_mask`` (its legal slots) and, at the end, ``result``. The other seats are played
by ``opponents`` (a bot name, or one per seat), each with the generator ``engine.simulate`` gives that
seat, in the engine's pending order, until the agent has a decision or the game is over.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from engine.core.bot import Bot
from engine.core.errors import IllegalAction, InvalidOptions
from engine.core.rng import Rng
from engine.core.ruleset import Ruleset
from envs.table import DEFAULT_PLAYERS, OBSERVATION_BOUND, RewardFn, Table, reward_fn

#: the bot the other seats play unless told
DEFAULT_OPPONENT = "heuristic"


class RulehouseEnv(gym.Env):
    """``ruleset``'s seat ``seat`` at a table of ``players``; the other seats play ``opponents``."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}

    def __init__(self, ruleset: str | Ruleset, players: int = DEFAULT_PLAYERS, seat: int = 0,
                 opponents: str | list[str] = DEFAULT_OPPONENT, options: dict | None = None,
                 reward: str | RewardFn = "shared", illegal: str = "terminate", illegal_reward: float = -1.0,
                 render_mode: str | None = None) -> None:
        self.table = Table(ruleset, players, options)
        if illegal not in ("terminate", "raise"):
            raise ValueError("illegal must be 'terminate' or 'raise'")
        self.illegal = illegal
        self.illegal_reward = illegal_reward
        if not 0 <= seat < players:
            raise InvalidOptions(f"seat {seat} is not at a table of {players}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.seat = seat
        names = [opponents] * players if isinstance(opponents, str) else list(opponents)
        if len(names) != players:
            raise InvalidOptions(f"opponents: one bot name per seat ({players}), the agent's own ignored")
        self.bots: list[Bot | None] = [None if s == seat else self.table.ruleset.bot(names[s]) for s in range(players)]
        self._bot_rngs: list[Rng] = []
        self.reward = reward_fn(reward)
        size = len(self.table.feature_names)
        self.observation_space = spaces.Box(-OBSERVATION_BOUND, OBSERVATION_BOUND, (size,), np.float32)
        self.action_space = spaces.Discrete(len(self.table.catalogue))

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        """A new game; ``seed`` is the engine's seed (as ``rulehouse simulate``'s game seeds), else drawn."""
        super().reset(seed=seed)
        engine_seed = seed if seed is not None else int(self.np_random.integers(0, 2**63))
        self.table.reset(engine_seed)
        self._bot_rngs = [self.table.bot_rng(s) for s in range(self.table.players)]
        self._play_bots()
        return self._observation()

    def step(self, action: int | dict) -> tuple[np.ndarray, float, bool, bool, dict]:
        """Play ``action`` (a slot index, or an engine action body), then the bots until the agent's next
        decision. A slot the mask excludes (or a body the engine refuses) ends the episode with
        ``illegal_reward`` and the engine's reason in ``info["illegal"]`` (``illegal="raise"``: raises
        ``IllegalAction``); the game itself is left as it was."""
        try:
            self.table.play(self.seat, action)
        except IllegalAction as error:
            if self.illegal == "raise":
                raise
            observation, info = self._observation()
            info["illegal"] = {"reason": error.reason, "message": error.message}
            return observation, self.illegal_reward, True, False, info
        self._play_bots()
        observation, info = self._observation()
        result = self.table.result()
        reward = 0.0 if result is None else self.reward(result, self.seat)
        if self.render_mode == "human":
            self.render()
        return observation, reward, result is not None, False, info

    def _play_bots(self) -> None:
        table = self.table
        ruleset, seat, bots, rngs = table.ruleset, self.seat, self.bots, self._bot_rngs
        while True:
            pending = table.pending()
            if not pending or pending[0].seat == seat:
                return
            decision = pending[0]
            other = decision.seat
            action = bots[other].choose(table.state, decision, rngs[other])
            ruleset.play(table.state, other, action)  # a bot picks among the offered options
            table.changed()
            table.actions += 1

    def _observation(self) -> tuple[np.ndarray, dict]:
        table = self.table
        view = table.view(self.seat)
        info: dict[str, Any] = {"view": view, "action_mask": table.mask(self.seat)}
        result = table.result()
        if result is not None:
            info["result"] = result.to_dict()
        return table.observe(self.seat, view), info

    def action_masks(self) -> np.ndarray:
        """The legal slots now (the name sb3-contrib's MaskablePPO looks for)."""
        return self.table.mask(self.seat)

    def render(self) -> str | None:
        text = self.table.render()
        if self.render_mode == "human":
            print(text)
            return None
        return text
