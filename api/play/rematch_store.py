"""A finished game's rematch (``POST /v1/games/{id}/rematch``): the answer its creation gave, kept under
``game:{<id>}:rematch`` beside the finished game so that asking again answers the same rematch.

The answer holds the rematch's new seat tokens and creator token, and the service keeps no token a Redis
reader could use (only digests, ``api.play.game_keys.token_digest``): so the answer is kept sealed
(Fernet: AES-128-CBC with an HMAC-SHA256) under a key derived (HKDF-SHA256) from the finished game's
creator token and its id. The creator token itself is never kept, only its digest, so only a caller who
presents it again reopens the answer; reading Redis is not enough."""

from __future__ import annotations

import base64
import json
import time

import redis
from cryptography.fernet import Fernet, InvalidToken
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from redis.cluster import RedisCluster

from api.play.game_keys import rematch_key

#: what the key holds while the first caller creates the rematch
_CREATING = "creating"

#: HKDF's fixed salt: a key for this one use (a version in it lets a later format derive other keys)
_SEAL_SALT = b"rulehouse rematch answer v1"


class UnreadableRematch(RuntimeError):
    """The kept answer does not open with the presented creator token (tampered with, or kept by a service
    with another sealing): never answered as another rematch, since that would start a second game."""


def sealing_key(creator_token: str, game_id: str) -> Fernet:
    """The key that seals ``game_id``'s rematch answer: derived from the creator token (which the service
    never keeps) and the game id (a key per game, should one creator token ever be reused)."""
    derived = HKDF(algorithm=hashes.SHA256(), length=32, salt=_SEAL_SALT,
                   info=f"game:{game_id}".encode()).derive(creator_token.encode())
    return Fernet(base64.urlsafe_b64encode(derived))


class RematchStore:
    """``ttl``: how long the answer is kept (a finished game's own TTL: it never outlives it by much)."""

    def __init__(self, client: redis.Redis | RedisCluster, ttl: int) -> None:
        self.redis = client
        self.ttl = ttl

    def claim(self, game_id: str) -> bool:
        """True if this caller is the first to create ``game_id``'s rematch (others wait: ``answer``); one
        ``SET NX``, so two calls at once never both create one."""
        return bool(self.redis.set(rematch_key(game_id), _CREATING, nx=True, ex=60))

    def keep(self, game_id: str, creator_token: str, created: dict) -> None:
        """Keep the rematch's creation answer, sealed with ``creator_token`` (its tokens included: only the
        creator token reads it again)."""
        plain = json.dumps(created, separators=(",", ":")).encode()
        sealed = sealing_key(creator_token, game_id).encrypt(plain).decode("ascii")
        self.redis.set(rematch_key(game_id), sealed, ex=self.ttl)

    def give_up(self, game_id: str) -> None:
        """The creation failed (a quota, a validation): the next call tries again."""
        self.redis.delete(rematch_key(game_id))

    def answer(self, game_id: str, creator_token: str, wait: float = 5.0) -> dict | None:
        """The kept answer, opened with ``creator_token``, waiting up to ``wait`` seconds while another call
        creates it; None if there is none (the creating call gave up, or took too long);
        ``UnreadableRematch`` if it does not open."""
        until = time.monotonic() + wait
        while True:
            value = self.redis.get(rematch_key(game_id))
            if value is None:
                return None
            if value != _CREATING:
                try:
                    return json.loads(sealing_key(creator_token, game_id).decrypt(value.encode("ascii")))
                except (InvalidToken, UnicodeEncodeError):
                    raise UnreadableRematch(f"game {game_id}'s kept rematch does not open") from None
            if time.monotonic() > until:
                return None
            time.sleep(0.05)
