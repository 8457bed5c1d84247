"""The table chat (api/chat): a stream of its own beside the game's events, whose ids are the chat's
cursors, and each seat's recent posting times (api/play/game_keys.py); a message changes no version."""

from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass

import redis
from redis.cluster import RedisCluster

from api.play.game_keys import chat_key, chat_rate_key, game_key, token_digest, wake_channel
from api.play.scripts import POST_CHAT_SCRIPT, SET_CHAT_SCRIPT
from api.play.stream_reads import entries_after


@dataclass(slots=True)
class ChatPost:
    outcome: str  # "ok", "missing", "off" (chat is off), "token" (the token no longer names the seat), "fast"
    cursor: str | None = None
    #: for "fast": seconds until the seat may post again
    retry_after: float = 0.0


class ChatStore:
    def __init__(self, client: redis.Redis | RedisCluster) -> None:
        self.redis = client
        self._post = client.register_script(POST_CHAT_SCRIPT)
        self._set = client.register_script(SET_CHAT_SCRIPT)

    def post(self, game_id: str, seat: int, token: str, message: dict, *, per_window: int,
             window_seconds: float, kept: int) -> ChatPost:
        """Append ``message`` to the game's chat for ``seat`` (``POST_CHAT_SCRIPT``): at most ``per_window``
        messages of a seat in ``window_seconds``; the chat keeps its last ``kept``."""
        keys = [game_key(game_id), chat_key(game_id), chat_rate_key(game_id, seat)]
        args = [f"t:{token_digest(token)}", str(seat), repr(time.time()), repr(float(window_seconds)), per_window,
                secrets.token_hex(8), kept, json.dumps(message, separators=(",", ":")), wake_channel(game_id)]
        reply = self._post(keys=keys, args=args)
        if reply[0] == "ok":
            return ChatPost("ok", reply[1])
        if reply[0] == "fast":
            return ChatPost("fast", retry_after=max(0.0, float(reply[1])))
        return ChatPost(reply[0])

    def set_enabled(self, game_id: str, enabled: bool) -> bool:
        """Turn the game's chat on or off (its streams hear of it); False when there is no such game."""
        return bool(self._set(keys=[game_key(game_id)], args=["1" if enabled else "0", wake_channel(game_id)]))

    def messages(self, game_id: str, after: str, count: int) -> tuple[list[tuple[str, dict]], str | None]:
        """Up to ``count`` chat messages after cursor ``after`` (exclusive) as (cursor, message), and the
        cursor of the last one (None when there was nothing after)."""
        entries, _ = entries_after(self.redis, chat_key(game_id), after, count)
        return _chat_messages(entries), (entries[-1][0] if entries else None)

    def messages_and_setting(self, game_id: str, after: str, count: int,
                             ) -> tuple[list[tuple[str, dict]], str | None, bool | None]:
        """``messages`` and whether chat is on (None: the game is gone) in one round trip (a chat stream's look)."""
        entries, (version, chat) = entries_after(self.redis, chat_key(game_id), after, count, game_id,
                                                 ["version", "chat"])
        return (_chat_messages(entries), (entries[-1][0] if entries else None),
                None if version is None else chat != "0")


def _chat_messages(entries) -> list[tuple[str, dict]]:
    return [(cursor, json.loads(fields["d"])) for cursor, fields in entries]
