"""An app's rated players, counted in its ``rated_players`` quota (docs/apps.md, "Quotas"); no Flask here.

A player of a rated game (a person, or a bot by its ``bot:<bot>[#<tag>]``: each its own rating) keeps a
rating and a leaderboard place once a game of it is rated, for as long as the app is kept: what the
quota bounds. The hold set ``app:{<app>}:rated-players`` (``api.apps.holds``, kept for good like the
ratings) holds each of them:

- taken, pending, before a rated game or rated tournament is made, with its other holds in one script
  (``api.apps.quotas``: a player held already adds nothing, a request's new players are bounded together);
- held again, unbounded, when a rated game is indexed (``hold_indexed``): a later round of a tournament,
  or a game whose player a deletion let go between its take and its making, is counted whatever happened;
- let go (``release``), atomically with the look at what it still has, when it has no game left in its
  list and no rating in any ruleset (a deleted game, a list swept: ``api.competition.player_lists``), and
  when the request that took it never made its game (``reconcile``).
"""

from __future__ import annotations

import time

import redis

from api.apps.holds import RATED_PLAYERS, holders_key
from api.competition.competition_keys import player_games_key, ratings_key
from engine.core.registry import all_rulesets

#: Pending holders a reconciliation looks at, at most (they are as many as the rated creations in flight).
RECONCILE_BATCH = 1000

#: KEYS[1]: the hold set; then the app's ratings hash of each ruleset; then each player's games list.
#: ARGV[1]: how many ratings hashes; ARGV[2]: the highest score let go (0: confirmed holders only; a time:
#: pending since then or before too); then the players (in the order of their lists). How many went.
_RELEASE = """
local rulesets, bound, released = tonumber(ARGV[1]), tonumber(ARGV[2]), 0
for i = 3, #ARGV do
  local player = ARGV[i]
  local score = redis.call('ZSCORE', KEYS[1], player)
  if score and tonumber(score) <= bound and redis.call('EXISTS', KEYS[1 + rulesets + i - 2]) == 0 then
    local rated = false
    for k = 2, 1 + rulesets do
      if redis.call('HEXISTS', KEYS[k], player) == 1 then rated = true; break end
    end
    if not rated then
      redis.call('ZREM', KEYS[1], player)
      released = released + 1
    end
  end
end
return released
"""


def hold_set_key(app_id: str) -> str:
    return holders_key(app_id, RATED_PLAYERS)


def hold_indexed(pipe, app_id: str, players: list[str]) -> None:
    """In ``pipe``: the players of a rated game being indexed are held (those held already stay as they are)."""
    if players:
        pipe.zadd(hold_set_key(app_id), dict.fromkeys(players, 0), nx=True)


def release(client: redis.Redis, app_id: str, players: list[str], bound: float = 0) -> int:
    """Let go of those of ``players`` that have no game in their list and no rating, and whose hold is confirmed
    (``bound`` 0) or pending since ``bound`` or before; how many went."""
    if not players:
        return 0
    rulesets = list(all_rulesets())
    keys = [hold_set_key(app_id), *(ratings_key(app_id, ruleset) for ruleset in rulesets),
            *(player_games_key(app_id, player) for player in players)]
    return int(client.register_script(_RELEASE)(keys=keys, args=[len(rulesets), repr(float(bound)), *players]))


def give_back(client: redis.Redis, app_id: str, players: list[str]) -> None:
    """A rated game was not made after all: its players that have nothing else go (pending or not)."""
    release(client, app_id, players, bound=float("inf"))


def reconcile(client: redis.Redis, app_id: str, pending_seconds: float) -> None:
    """Let go of the players taken ``pending_seconds`` ago or more whose game never appeared (their request
    died), and confirm those whose game did."""
    stale = client.zrangebyscore(hold_set_key(app_id), "(0", time.time() - pending_seconds, start=0,
                                 num=RECONCILE_BATCH)
    if stale:
        release(client, app_id, stale, bound=time.time() - pending_seconds)
        client.zadd(hold_set_key(app_id), dict.fromkeys(stale, 0), xx=True)


class RatedPlayers:
    """The rated players' hold set as the app's quotas release it (``api.apps.quotas.Census``), on the control
    Redis; built once per game store (``store.beside(RatedPlayers)``)."""

    def __init__(self, client: redis.Redis) -> None:
        self.redis = client

    def give_back(self, app_id: str, players: list[str]) -> None:
        give_back(self.redis, app_id, players)

    def reconcile(self, app_id: str, pending_seconds: float) -> None:
        reconcile(self.redis, app_id, pending_seconds)
