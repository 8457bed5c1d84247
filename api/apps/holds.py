"""What an app holds against its count-limited quotas, taken atomically; no Flask here.

A *hold set* is what one count-limited quota of one app counts (``api.apps.quotas`` names them):
``app:{<app>}:<set>``, a sorted set of holders (a game, a tournament, a simulation, ...), beside
``…:weights`` (a holder that counts for more than one: a tournament's tables, a simulation's chunks)
and ``…:extra`` (the sum of the weights beyond one each), so that what the set holds,
``ZCARD + extra``, is read in O(1). Every key of an app's hold sets carries the app's hash tag.

``take`` adds holders to one or more of an app's sets in one script, all or none, and only when every
set stays within its bound: requests released together never pass a quota, whichever process serves
them. A holder a set holds already adds nothing to it (a rated player of a second game), and the asks of
one request on one set are bounded together (a rated game's new players). A holder is taken *before*
its thing is made (its score: when; a pending holder), because the thing may live on another server (a
game, on the games' Redis, maybe a cluster), ``confirm``ed once the thing exists (score 0), and
``release``d when it ends (given back at once) or, where nothing signals its end (a game that finished
or expired), by the reconciliation of ``api.apps.quotas``, which also ``reweigh``s a holder to what it
still holds (the chunks not yet played).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import redis

#: The hold set of an app's rated players (``api.competition.rated_players``), kept for good.
RATED_PLAYERS = "rated-players"
#: Hold sets are kept this long after the last take (past any thing's life: retention is at most 90 days).
HOLD_TTL = 91 * 24 * 3600

#: KEYS: per ask, its set's holders, weights and extra. ARGV: now, then per ask: allowed, weight, holder, ttl
#: (seconds the set is kept after this take; 0: for good). What each set would add is counted first, per
#: set: the weights of its asks whose holder it does not hold yet (a holder asked twice counts once), so
#: several asks on one set in one request are bounded together and a holder held already adds nothing.
#: {0, 0, 0} when every holder was taken (one held already is pending again, from now: a thing is being
#: made for it); else {the 1-based first ask of the set that would pass its bound, what it holds, what the
#: request would add to it}.
_TAKE = """
local now, asks = tonumber(ARGV[1]), #KEYS / 3
local adding, seen = {}, {}
for i = 0, asks - 1 do
  local holders, holder = KEYS[1 + 3 * i], ARGV[4 + 4 * i]
  seen[holders] = seen[holders] or {}
  if not seen[holders][holder] then
    seen[holders][holder] = true
    if not redis.call('ZSCORE', holders, holder) then
      adding[holders] = (adding[holders] or 0) + tonumber(ARGV[3 + 4 * i])
    end
  end
end
for i = 0, asks - 1 do
  local holders, allowed = KEYS[1 + 3 * i], tonumber(ARGV[2 + 4 * i])
  local more = adding[holders] or 0
  if more > 0 then
    local held = redis.call('ZCARD', holders) + tonumber(redis.call('GET', KEYS[3 + 3 * i]) or '0')
    if held + more > allowed then return {i + 1, held, more} end
  end
end
for i = 0, asks - 1 do
  local holders, weights, extra = KEYS[1 + 3 * i], KEYS[2 + 3 * i], KEYS[3 + 3 * i]
  local weight, holder, ttl = tonumber(ARGV[3 + 4 * i]), ARGV[4 + 4 * i], tonumber(ARGV[5 + 4 * i])
  if redis.call('ZSCORE', holders, holder) then
    redis.call('ZADD', holders, 'XX', 'GT', now, holder)
  else
    redis.call('ZADD', holders, now, holder)
    if weight ~= 1 then
      redis.call('HSET', weights, holder, weight)
      redis.call('INCRBY', extra, weight - 1)
    end
  end
  for _, key in ipairs({holders, weights, extra}) do
    if ttl > 0 then redis.call('EXPIRE', key, ttl) else redis.call('PERSIST', key) end
  end
end
return {0, 0, 0}
"""

#: KEYS: holders, weights, extra. ARGV: the holders to release. The number released.
_RELEASE = """
local released = 0
for _, holder in ipairs(ARGV) do
  if redis.call('ZREM', KEYS[1], holder) == 1 then
    local weight = redis.call('HGET', KEYS[2], holder)
    if weight then
      redis.call('HDEL', KEYS[2], holder)
      redis.call('INCRBY', KEYS[3], 1 - tonumber(weight))
    end
    released = released + 1
  end
end
return released
"""

#: KEYS: holders, weights, extra. ARGV: holder, weight. Counts a held holder for ``weight`` from now on.
_REWEIGH = """
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 0 end
local old, new = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '1'), tonumber(ARGV[2])
if new == 1 then redis.call('HDEL', KEYS[2], ARGV[1]) else redis.call('HSET', KEYS[2], ARGV[1], new) end
redis.call('INCRBY', KEYS[3], new - old)
return 1
"""


def holders_key(app_id: str, hold_set: str) -> str:
    return f"app:{{{app_id}}}:{hold_set}"


def _keys(app_id: str, hold_set: str) -> list[str]:
    holders = holders_key(app_id, hold_set)
    return [holders, f"{holders}:weights", f"{holders}:extra"]


@dataclass(frozen=True, slots=True)
class Ask:
    """``holder`` to be taken in ``hold_set``, counting ``weight``, if the set then holds at most ``allowed``."""

    hold_set: str
    holder: str
    allowed: int
    weight: int = 1
    #: Seconds the set is kept after the take; 0: for good (a set whose holders live as long as they are held).
    ttl: int = HOLD_TTL


@dataclass(frozen=True, slots=True)
class Refused:
    """The ask that would have passed its bound, what its set held, and what the request would have added."""

    ask: Ask
    held: int
    asked: int


class Holds:
    """One app's hold sets on the control Redis (a client that decodes responses)."""

    def __init__(self, client: redis.Redis, app_id: str) -> None:
        self.redis, self.app_id = client, app_id
        self._take, self._release = client.register_script(_TAKE), client.register_script(_RELEASE)
        self._reweigh = client.register_script(_REWEIGH)

    def take(self, *asks: Ask) -> Refused | None:
        """Take every ask's holder, or none of them: None when taken, else the first ask refused."""
        keys: list[str] = []
        args: list[str | int] = [repr(time.time())]
        for ask in asks:
            keys += _keys(self.app_id, ask.hold_set)
            args += [ask.allowed, ask.weight, ask.holder, ask.ttl]
        refused, held, asked = self._take(keys=keys, args=args)
        return None if refused == 0 else Refused(asks[refused - 1], int(held), int(asked))

    def confirm(self, hold_set: str, holder: str) -> None:
        """The holder's thing exists: from now on, its absence means it ended (no longer pending)."""
        self.redis.zadd(holders_key(self.app_id, hold_set), {holder: 0}, xx=True)

    def release(self, hold_set: str, *holders: str) -> int:
        """Give back what ``holders`` held (those still held); how many were."""
        return int(self._release(keys=_keys(self.app_id, hold_set), args=list(holders))) if holders else 0

    def reweigh(self, hold_set: str, holder: str, weight: int) -> None:
        """Count ``holder`` (if still held) for ``weight`` from now on."""
        self._reweigh(keys=_keys(self.app_id, hold_set), args=[holder, weight])

    def holders(self, hold_set: str) -> list[tuple[str, float | None]]:
        """Every holder of the set, with when it was taken while pending (None once confirmed)."""
        return [(holder, score or None)
                for holder, score in self.redis.zrange(holders_key(self.app_id, hold_set), 0, -1, withscores=True)]

    def held(self, hold_set: str) -> int:
        holders, _, extra = _keys(self.app_id, hold_set)
        pipe = self.redis.pipeline(transaction=True)
        pipe.zcard(holders)
        pipe.get(extra)
        count, more = pipe.execute()
        return int(count) + int(more or 0)
