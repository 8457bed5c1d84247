"""The stores' Lua scripts (api/play/store.py and the small stores beside it run them): each is one
atomic step on one game's keys, which share the game's hash tag, so a script may touch them all on a
Redis Cluster too."""

#: Check the version, write the state and the decision marks, append the action and its events,
#: remember the idempotent outcome, refresh the TTLs and publish a wake-up: all or nothing. A
#: stored outcome for the Idempotency-Key wins over the version check: a retry racing its own
#: first attempt is a replay of it, not a stale write.
#: The TTLs (the game's, its events' and its chat's) are refreshed when the game finishes and
#: otherwise at most every ``TTL_REFRESH_SECONDS`` (a tenth of the TTL if shorter; the hash's
#: ``refreshed`` says when): three EXPIREs on every move were a quarter of a bot move's commands,
#: and a game then expires at most that much sooner than a TTL after its last write.
#: With ARGV[10] = '1' the committing bot job plays on (api/service/jobs/bot_runs.py): ``bot_run`` names the new
#: version as one that job answers for, in the same HSET, so no other write marks it.
#: KEYS: 1 the game, 2 its events, 3 its chat (whose TTL follows the game's), 4 the idempotency record if any.
#: ARGV: 1 expected version, 2 state, 3 status, 4 updated, 5 TTL, 6 wake channel, 7 idempotency
#: TTL, 8 idempotency record, 9 marks JSON, 10 '1' when the committing bot job plays on, 11 the action
#: log entry, 12... events, and the refresh interval in seconds as the very last.
COMMIT_SCRIPT = """
local game = redis.call('HMGET', KEYS[1], 'version', 'refreshed', 'ttl', 'finished_ttl')
local current = game[1]
if not current then return {'missing'} end
if KEYS[4] and redis.call('EXISTS', KEYS[4]) == 1 then return {'duplicate', current} end
if current ~= ARGV[1] then return {'stale', current} end
local version = tostring(tonumber(current) + 1)
local finished = ARGV[3] == 'finished'
local ttl = tonumber((finished and game[4] or game[3]) or ARGV[5])
local now = tonumber(ARGV[4])
local refresh = finished or not game[2] or now - tonumber(game[2]) >= math.min(tonumber(ARGV[#ARGV]), ttl / 10)
local fields = {'version', version, 'state', ARGV[2], 'status', ARGV[3], 'updated', ARGV[4], 'marks', ARGV[9]}
if refresh then
  fields[#fields + 1] = 'refreshed'
  fields[#fields + 1] = ARGV[4]
end
if ARGV[10] == '1' then
  fields[#fields + 1] = 'bot_run'
  fields[#fields + 1] = version
end
redis.call('HSET', KEYS[1], unpack(fields))
local ids = {}
for i = 11, #ARGV - 1 do
  local kind = 'e'
  if i == 11 then kind = 'a' end
  ids[#ids + 1] = redis.call('XADD', KEYS[2], '*', 'k', kind, 'v', version, 'd', ARGV[i])
end
if refresh then
  redis.call('EXPIRE', KEYS[1], ttl)
  redis.call('EXPIRE', KEYS[2], ttl)
  redis.call('EXPIRE', KEYS[3], ttl)
end
if KEYS[4] then
  redis.call('HSET', KEYS[4], 'r', ARGV[8], 'v', version, 'c', table.concat(ids, ',', 2))
  redis.call('EXPIRE', KEYS[4], ARGV[7])
end
redis.call('PUBLISH', ARGV[6], version)
local reply = {'ok', version}
for i = 2, #ids do reply[#reply + 1] = ids[i] end
return reply
"""
#: The longest a move leaves the game's TTLs unrefreshed (``COMMIT_SCRIPT``).
TTL_REFRESH_SECONDS = 60

#: Count a hint of seat ARGV[1] at version ARGV[2] (once per seat and version) and mark it asked
#: (KEYS[2], for as long as the game lives at this version: its PTTL, else ARGV[3] ms) with the id
#: ARGV[4] of the job that will compute it, named in the game's set of asked keys KEYS[3] (which its
#: deletion deletes). Answers {'missing'}, {'off'} (hints are off),
#: {'stale', version}, {'ready', hint JSON}, {'computing', job id} (asked already), or {'queued'}:
#: the caller queues job ARGV[4].
#: Counts: ``hints`` is "n0,n1,..." per seat; ``hints_pending`` the seats that asked at version
#: ``hints_at``, added to ``hints`` by the first ask of a later version. So the counts a reader sees
#: at a version (``hints`` plus the pending ones of an earlier version) never change while the game
#: stays there, and a game's ETag stays its version.
ASK_HINT_SCRIPT = """
local fields = redis.call('HMGET', KEYS[1], 'version', 'hints', 'hints_at', 'hints_pending')
local version, counts, at, pending = fields[1], fields[2], fields[3] or '', fields[4] or ''
if not version then return {'missing'} end
if not counts then return {'off'} end
if version ~= ARGV[2] then return {'stale', version} end
local asked = redis.call('GET', KEYS[2])
if asked then
  if string.sub(asked, 1, 1) == '{' then return {'ready', asked} end
  return {'computing', asked}
end
local seats = {}
for n in string.gmatch(counts, '[0-9]+') do seats[#seats + 1] = tonumber(n) end
local function count(seat)
  for i = #seats + 1, seat + 1 do seats[i] = 0 end
  seats[seat + 1] = seats[seat + 1] + 1
end
if at ~= version then
  for seat in string.gmatch(pending, '[0-9]+') do count(tonumber(seat)) end
  pending = ''
end
if not string.find(',' .. pending .. ',', ',' .. ARGV[1] .. ',', 1, true) then
  pending = pending == '' and ARGV[1] or (pending .. ',' .. ARGV[1])
end
redis.call('HSET', KEYS[1], 'hints', table.concat(seats, ','), 'hints_at', version, 'hints_pending', pending)
local ttl = redis.call('PTTL', KEYS[1])
if ttl <= 0 then ttl = tonumber(ARGV[3]) end
redis.call('SET', KEYS[2], ARGV[4], 'PX', ttl)
redis.call('SADD', KEYS[3], KEYS[2])
redis.call('PEXPIRE', KEYS[3], ttl)
return {'queued'}
"""

#: Keep the answer ARGV[3] asked of the game KEYS[1] at version ARGV[1] (the spectator view's win chances,
#: KEYS[2]) unless one is kept already, for as long as the game lives at this version (its PTTL, else
#: ARGV[2] ms), named in the game's set of asked keys KEYS[3]. Answers {'missing'}, {'stale', version},
#: {'ready', the answer kept before} or {'queued'} (this one is kept): the outcomes of ``ASK_HINT_SCRIPT``,
#: which counts a seat's ask too.
KEEP_ANSWER_SCRIPT = """
local version = redis.call('HGET', KEYS[1], 'version')
if not version then return {'missing'} end
if version ~= ARGV[1] then return {'stale', version} end
local kept = redis.call('GET', KEYS[2])
if kept then return {'ready', kept} end
local ttl = redis.call('PTTL', KEYS[1])
if ttl <= 0 then ttl = tonumber(ARGV[2]) end
redis.call('SET', KEYS[2], ARGV[3], 'PX', ttl)
redis.call('SADD', KEYS[3], KEYS[2])
redis.call('PEXPIRE', KEYS[3], ttl)
return {'queued'}
"""

#: Store ARGV[1] as the hint KEYS[1] if it is asked (and, with ARGV[2], still names job ARGV[2]).
SAVE_HINT_SCRIPT = """
local current = redis.call('GET', KEYS[1])
if not current or (ARGV[2] ~= '' and current ~= ARGV[2]) then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'KEEPTTL')
return 1
"""

#: Store the analysis KEYS[1] (ARGV[1]) if its stored value is still the job id ARGV[2], keeping its TTL,
#: and, unless ARGV[3] is empty, the seats' costs KEYS[2] (ARGV[3]) with the same TTL. Answers 1 or 0.
SAVE_ANALYSIS_SCRIPT = """
local current = redis.call('GET', KEYS[1])
if not current or current ~= ARGV[2] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'KEEPTTL')
if ARGV[3] ~= '' then
  local ttl = redis.call('PTTL', KEYS[1])
  -- a millisecond less: SET PX counts from a clock read after PTTL's, and the costs must not outlive the analysis
  if ttl > 1 then redis.call('SET', KEYS[2], ARGV[3], 'PX', ttl - 1)
  elseif ttl > 0 then redis.call('SET', KEYS[2], ARGV[3], 'PX', 1)
  else redis.call('SET', KEYS[2], ARGV[3]) end
end
return 1
"""

#: Mark the analysis KEYS[2] of the game KEYS[1] asked, by the job ARGV[1], if the game is finished and
#: nobody asked yet; it expires with the game. Answers {'missing'}, {'unfinished', status}, {'asked', the
#: stored value: a job id or the analysis JSON} or {'queued'}.
ASK_ANALYSIS_SCRIPT = """
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return {'missing'} end
if status ~= 'finished' then return {'unfinished', status} end
local current = redis.call('GET', KEYS[2])
if current then return {'asked', current} end
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then redis.call('SET', KEYS[2], ARGV[1], 'PX', ttl) else redis.call('SET', KEYS[2], ARGV[1]) end
return {'queued'}
"""

#: Post a table chat message (api/chat) if the game exists, has chat on, the token field ARGV[1] still
#: names seat ARGV[2] (not left, not handed to a bot meanwhile), and the seat posted fewer than ARGV[5]
#: messages in the last ARGV[4] seconds (KEYS[3]: their times; ARGV[3] now, ARGV[6] a unique member).
#: The chat (KEYS[2]) keeps its last ARGV[7] messages and the game's TTL; ARGV[8] is the message, ARGV[9]
#: the wake channel. Answers {'ok', cursor}, {'missing'}, {'off'}, {'token'} or {'fast', seconds to wait}.
POST_CHAT_SCRIPT = """
local game = redis.call('HMGET', KEYS[1], 'version', 'chat', ARGV[1])
if not game[1] then return {'missing'} end
if game[2] == '0' then return {'off'} end
if game[3] ~= ARGV[2] then return {'token'} end
local now, window, limit = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now - window)
if redis.call('ZCARD', KEYS[3]) >= limit then
  local oldest = redis.call('ZRANGE', KEYS[3], 0, 0, 'WITHSCORES')
  return {'fast', tostring(tonumber(oldest[2]) + window - now)}
end
redis.call('ZADD', KEYS[3], now, ARGV[6])
redis.call('PEXPIRE', KEYS[3], math.ceil(window * 1000))
local cursor = redis.call('XADD', KEYS[2], 'MAXLEN', ARGV[7], '*', 'd', ARGV[8])
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
redis.call('PUBLISH', ARGV[9], 'chat')
return {'ok', cursor}
"""

#: Turn a game's chat on (ARGV[1] = '1') or off ('0') and wake its streams: 1, or 0 when there is no game.
SET_CHAT_SCRIPT = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'chat', ARGV[1])
redis.call('PUBLISH', ARGV[2], 'chat')
return 1
"""

#: Takes a game out of the index of games with bot seats (``BOT_GAMES_KEY``), or puts its next look at
#: ARGV[3], only if nobody pushed it past ARGV[2] (api/service/jobs/bots.py's sweep). Sent by EVAL.
#: KEYS: 1 the index. ARGV: 1 the game, 2 the look that is due, 3 the next look ('': none).
RESCHEDULE_BOT_CHECK_SCRIPT = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score or tonumber(score) > tonumber(ARGV[2]) then return 0 end
if ARGV[3] == '' then redis.call('ZREM', KEYS[1], ARGV[1]) else redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1]) end
return 1
"""
