"""Live event streams (``GET /v1/games/{id}/stream``).

A stream holds no Redis connection of its own: ``hub.StreamHub`` keeps one pub/sub
connection per process, subscribed to every game's wake-up channel, and wakes the streams
of a game when its version changes; each stream then reads what is new with one short
pipelined read from the shared connection pool (``live.stream_lines``). The hub also keeps
the per-client count of open streams in Redis (``STREAMS_PER_CLIENT``), refreshing the
leases of its own streams in one batch, so a process that dies frees its clients' slots
within a lease.
"""
