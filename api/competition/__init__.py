"""Players, ratings and tournaments of an app (docs/competition.md): the service around
``engine/competition``. Flask-free except ``routes`` and ``tournament_routes``.

Keys (all on the control Redis, read and written by ``api.competition.player_store`` and
``api.competition.tournament_store``, each under its app's ``app:{<id>}`` prefix so one
app's players never reach another's). A player is known to its app while it has games kept there or a
rating (no set of players grows beside them; older versions kept ``app:{<app>}:players``, read no more):

- ``app:{<app>}:player:<player>:games``    sorted set: the player's games (score: creation time), member
                                            ``<game id>:<seat>``; a deleted game's entries go with it, an
                                            expired game's when read or swept; the key goes with its last entry
- ``app:{<app>}:player:<player>:results``  list of the player's latest rated results (JSON), newest first
- ``app:{<app>}:ratings:<ruleset>``        hash player -> JSON ``{mu, sigma, games}``
- ``app:{<app>}:board:<ruleset>``          sorted set player -> ordinal (the leaderboard's order)
- ``app:{<app>}:rated:<game>``             present once the game's ratings are counted (a game is rated once)
- ``competition:lists-due``               due-time index (``api.competition.due``) ``<app> <player>``:
                                            when a player's list may hold an expired game
                                            (``api.competition.player_lists``)
- ``competition:pending``                  due-time index (``api.competition.due``): rated games not yet
                                            rated, member ``<app> <game id>``, scored by when the sweep
                                            looks next; it rates those that finished without the
                                            finishing move rating them (or whose duplicate round ended)
- ``tournament:{<id>}`` / ``app:{<app>}:tournaments`` / ``tournaments:running`` / ``closed:{<game>}``:
  see ``api.competition.tournaments``
"""
