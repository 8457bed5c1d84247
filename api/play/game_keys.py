"""The Redis keys of one game, spelled once: a function ``x_key(game_id, ...)`` each.

``game:{<id>}`` is a hash (ruleset, the ruleset's rules version, state JSON, version, status,
seats, seed, options, timestamps, the optional decision_timeout, the owning app, the app's own
``ttl`` and ``finished_ttl`` when it set a retention, listed, the decision marks of
api/play/preconditions.py, the hint counts of a game with hints on (``hints``, ``hints_at``,
``hints_pending``: see ``ASK_HINT_SCRIPT``), ``chat`` (``1`` on, ``0`` off; absent in games older than
chat: on), ``win_chances`` (``spectators`` when spectators may ask for a live game's win chances; absent:
seats only, api/win_chances), ``rated`` (``1`` in a rated game) and ``tournament`` (the id of the
tournament whose table it is; docs/competition.md), ``refreshed`` (when a move last refreshed the TTLs:
``COMMIT_SCRIPT``), ``bot_run`` (the last version a bot job committed saying it plays on: api/service/jobs/bot_runs.py),
one ``t:<sha256>`` field per token naming its seat and one ``i:<sha256>`` per invite of api/seats);
``game:{<id>}:events`` is a stream whose entries are either an accepted action (``k=a``: the action
log used for replays, never shown to clients) or an engine event (``k=e``, with its visibility).
Stream ids are the clients' event cursors. ``game:{<id>}:idem:<seat>:<sha256>`` keeps an
idempotent action's outcome for 24 h. ``game:{<id>}:hint:<seat>:<version>`` is a hint (api/hints):
the id of the job computing it, then its JSON; it expires with the game's version, and so does
``game:{<id>}:chances:<seat>:<version>``, a view's win chances (``spectator`` for the spectator view's);
``game:{<id>}:asked`` names those keys, which the game's deletion deletes with it.
``game:{<id>}:analysis:v<format>`` is a finished game's analysis (api/analysis) of the current analysis
format (``engine.analysis.game.ANALYSIS_FORMAT``; an older format's is never read, only deleted with the game):
the id of the job computing it, then its JSON; it expires with the game, and so does ``...:analysis:v<format>:costs``,
stored with a ready analysis: each seat's ``[decisions, cost]`` (what a player's ``move_cost`` reads,
api/competition, without reading the whole analysis); ``...:analysis:v<format>:progress`` is the running job's
progress (api/analysis/computing.py). ``game:{<id>}:chat`` is the table chat (api/chat), a stream
of its own whose ids are the chat's cursors; it expires with the game
(every write of the game refreshes its TTL too, a move at most every ``TTL_REFRESH_SECONDS``), and
``game:{<id>}:rematch`` keeps a finished game's rematch, the answer its creation gave, sealed with a key
derived from the creator token (api/play/rematch_store.py), and
``game:{<id>}:chat:rate:<seat>`` holds the times of a seat's recent messages (``POST_CHAT_SCRIPT``). The ``{<id>}``
hash tag keeps a game's keys in one Redis Cluster slot, so the compare-and-set script may touch
them all.

The keys of the hints, win chances, analysis and chat are spelled here beside the game's own (and
read and written by their small stores, api/play/hint_store.py and its siblings) because they live
and die with the game: its deletion and its TTL refreshes name them.
"""

from __future__ import annotations

import hashlib

from engine.analysis.game import ANALYSIS_FORMAT


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def game_key(game_id: str) -> str:
    return f"game:{{{game_id}}}"


def events_key(game_id: str) -> str:
    return f"game:{{{game_id}}}:events"


def wake_channel(game_id: str) -> str:
    return f"game:{{{game_id}}}:wake"


#: every game's wake channel, for one pattern subscription (api/streams/hub.py)
WAKE_PATTERN = "game:{*}:wake"


def chat_key(game_id: str) -> str:
    return f"game:{{{game_id}}}:chat"


def chat_rate_key(game_id: str, seat: int) -> str:
    return f"game:{{{game_id}}}:chat:rate:{seat}"


def bot_current_key(game_id: str) -> str:
    """The id of the bot job now responsible for the game's pending bot move."""
    return f"game:{{{game_id}}}:bot"


#: Sorted set of games with bot seats; score: when api.service.jobs.bots.sweep should next look at the game.
BOT_GAMES_KEY = "bots:games"
#: Held (2 s) by the one worker whose bot sweep runs now.
BOT_SWEEP_LOCK_KEY = "bots:sweeping"


def hint_key(game_id: str, seat: int, version: int) -> str:
    return f"game:{{{game_id}}}:hint:{seat}:{version}"


def win_chances_key(game_id: str, seat: int | None, version: int) -> str:
    """A seat's win chances at a version (api/win_chances), counted like a hint by ``ASK_HINT_SCRIPT``; the
    spectator view's (``seat`` None), kept by ``KEEP_ANSWER_SCRIPT``."""
    return f"game:{{{game_id}}}:chances:{'spectator' if seat is None else seat}:{version}"


def rematch_key(game_id: str) -> str:
    """A finished game's rematch: the answer its creation gave (api/play/rematch_store.py)."""
    return f"game:{{{game_id}}}:rematch"


def asked_key(game_id: str) -> str:
    """The names of the game's hint and win-chances keys (one per seat and version asked), for its deletion."""
    return f"game:{{{game_id}}}:asked"


def analysis_key(game_id: str, analysis_format: int = ANALYSIS_FORMAT) -> str:
    """A finished game's analysis (api/analysis): the computing job's id, then the analysis JSON. The key
    names the format: an analysis made by an older method is never read, the game is analysed anew."""
    return f"game:{{{game_id}}}:analysis" + (f":v{analysis_format}" if analysis_format > 1 else "")


def analysis_costs_key(game_id: str, analysis_format: int = ANALYSIS_FORMAT) -> str:
    """Each seat's ``[decisions, cost]`` of a game's ready analysis (JSON), beside the analysis (same format)."""
    return f"{analysis_key(game_id, analysis_format)}:costs"


def analysis_progress_key(game_id: str) -> str:
    """The running analysis job's progress (api/analysis/computing.py), beside the analysis."""
    return f"{analysis_key(game_id)}:progress"


def analysis_keys(game_id: str) -> list[str]:
    """Every key of the game's analyses, of every format (format 1's had no version in the key)."""
    return [key for analysis_format in range(1, ANALYSIS_FORMAT + 1) for key in (
        analysis_key(game_id, analysis_format), analysis_costs_key(game_id, analysis_format))] + \
        [analysis_progress_key(game_id)]


def idempotency_key(game_id: str, seat: int, key: str) -> str:
    return f"game:{{{game_id}}}:idem:{seat}:{token_digest(key)}"
