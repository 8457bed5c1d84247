"""The hints of a game's seats (api/hints) and their win chances (api/win_chances): each asked once per
seat and version, counted in the game's hash (``ASK_HINT_SCRIPT``), kept under keys that expire with the
version (api/play/game_keys.py)."""

from __future__ import annotations

import redis
from redis.cluster import RedisCluster

from api.play.game_keys import asked_key, game_key, hint_key, win_chances_key
from api.play.scripts import ASK_HINT_SCRIPT, KEEP_ANSWER_SCRIPT, SAVE_HINT_SCRIPT


class HintStore:
    """A seat's hints: the id of the job computing one, then its JSON. ``game_ttl``: how long a key asked at
    a version may live (it is never revived once gone)."""

    def __init__(self, client: redis.Redis | RedisCluster, game_ttl: int) -> None:
        self.redis = client
        self.game_ttl = game_ttl
        self._ask = client.register_script(ASK_HINT_SCRIPT)
        self._save = client.register_script(SAVE_HINT_SCRIPT)

    def ask(self, game_id: str, seat: int, version: int, job_id: str) -> tuple[str, str | None]:
        """Count and mark a hint of ``seat`` at ``version`` (``ASK_HINT_SCRIPT``): (outcome, its value)."""
        reply = self._ask(keys=[game_key(game_id), hint_key(game_id, seat, version), asked_key(game_id)],
                          args=[seat, version, self.game_ttl * 1000, job_id])
        return reply[0], (reply[1] if len(reply) > 1 else None)

    def get(self, game_id: str, seat: int, version: int) -> str | None:
        """The hint's stored value: its JSON once computed, the computing job's id before, None if never asked."""
        return self.redis.get(hint_key(game_id, seat, version))

    def save(self, game_id: str, seat: int, version: int, value: str, *, replacing: str | None = None) -> bool:
        """Store a computed hint (its JSON), or with ``replacing`` (the id of a job that was lost) the id
        of the job that now computes it, unless the hint changed meanwhile; only while the hint is asked
        (its key lives as long as its version and is never revived). False if nothing was stored."""
        keys, args = [hint_key(game_id, seat, version)], [value, replacing or ""]
        return bool(self._save(keys=keys, args=args))


class WinChancesStore:
    """A view's win chances at a version: a seat's counted like a hint, the spectator view's kept once."""

    def __init__(self, client: redis.Redis | RedisCluster, game_ttl: int) -> None:
        self.redis = client
        self.game_ttl = game_ttl
        self._ask_hint = client.register_script(ASK_HINT_SCRIPT)
        self._keep_answer = client.register_script(KEEP_ANSWER_SCRIPT)

    def ask(self, game_id: str, seat: int | None, version: int, chances: str) -> tuple[str, str | None]:
        """Keep ``chances`` (their JSON) as the answer of ``seat`` (None: the spectator view) at ``version``, a
        seat's counted like a hint (``ASK_HINT_SCRIPT``; ``KEEP_ANSWER_SCRIPT`` for the spectator view):
        (outcome, the answer kept before, if any)."""
        keys = [game_key(game_id), win_chances_key(game_id, seat, version), asked_key(game_id)]
        if seat is None:
            reply = self._keep_answer(keys=keys, args=[version, self.game_ttl * 1000, chances])
        else:
            reply = self._ask_hint(keys=keys, args=[seat, version, self.game_ttl * 1000, chances])
        return reply[0], (reply[1] if len(reply) > 1 else None)

    def kept(self, game_id: str, seat: int | None, version: int) -> str | None:
        """The JSON of ``seat``'s (None: the spectator view's) win chances at ``version`` if asked already."""
        return self.redis.get(win_chances_key(game_id, seat, version))
