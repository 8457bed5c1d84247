"""Due-time indexes that a sweep drains completely: the rated games waiting for their rating and the
running tournaments (api/competition/sweep.py).

Each is a sorted set scored by when a sweep should next look at the member. A sweep *claims* what is
due in batches: one script takes the earliest due members and moves them ``recheck`` seconds ahead
(so another worker's sweep does not take them too, and a sweep that dies leaves them due again then),
and the sweep looks at each; what is done leaves the index, what still waits comes round again after
``recheck``. Every member is looked at within ``recheck`` plus the time the due members ahead of it
take, however many members of other apps the index holds: no member waits behind a fixed window of
the oldest ones.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

import redis

log = logging.getLogger("rulehouse.competition")

#: ZRANGEBYSCORE what is due (at most ARGV[2] members) and move each to ARGV[3], in one step
CLAIM_SCRIPT = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
for _, member in ipairs(due) do
    redis.call('ZADD', KEYS[1], 'XX', ARGV[3], member)
end
return due
"""


def claim(client: redis.Redis, key: str, count: int, recheck: float, now: float | None = None) -> list[str]:
    """The earliest due members of ``key`` (at most ``count``), each now due again ``recheck`` seconds on."""
    now = time.time() if now is None else now
    return [_text(member) for member in client.eval(CLAIM_SCRIPT, 1, key, repr(now), count, repr(now + recheck))]


def drain(client: redis.Redis, key: str, look: Callable[[list[str]], int], *, batch: int, recheck: float,
          max_batches: int) -> int:
    """Claim and ``look`` at the due members of ``key``, a batch at a time, until none is due (or
    ``max_batches`` were looked at: the rest are the next sweep's, first in line); what ``look`` says it
    did, summed. ``look`` takes a member out of the index when it is done with it."""
    done = 0
    for _ in range(max_batches):
        members = claim(client, key, batch, recheck)
        if members:
            try:
                done += look(members)
            except Exception:  # one batch's failure stops neither the sweep nor the others: they come round again
                log.exception("sweep of %s failed on a batch", key)
        if len(members) < batch:
            break
    return done


def _text(value: str | bytes) -> str:
    return value.decode() if isinstance(value, bytes) else value
