"""The table chat: short text messages of a game's seated players, read by anyone who may watch.

A room of its own, beside the game: messages go to a stream of their own (``game:{<id>}:chat``,
api/play/chat_store.py), never to the event log, so a message changes no version, ETag or deadline and is
not in the record; the chat expires with its game. Whether a game has chat is a setting of the
game (``GameRecord.chat``), chosen at creation and changed by the creator, that later features
(rated and tournament games) read like anyone else.
"""
