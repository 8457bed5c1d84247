"""The chat's bounds, request bodies and answers."""

from __future__ import annotations

from marshmallow import Schema, ValidationError, fields, post_load, validate

from api.games.schemas import line_kind, line_union
from api.http.helpers import CURSOR_PATTERN
from api.seats.names import unsafe_character
from engine.core.strict import StrictBoolean, WholeRegexp

#: the longest message, in characters (Unicode code points)
MAX_TEXT_LENGTH = 280
#: a seat posts at most MESSAGES_PER_WINDOW messages in any WINDOW_SECONDS
MESSAGES_PER_WINDOW = 5
WINDOW_SECONDS = 10
#: a game's chat keeps its last KEPT_MESSAGES messages (older ones are dropped)
KEPT_MESSAGES = 200
#: messages per page of GET /v1/games/{id}/chat
MAX_PAGE = KEPT_MESSAGES
BOUNDS = {"max_length": MAX_TEXT_LENGTH, "messages_per_window": MESSAGES_PER_WINDOW,
          "window_seconds": WINDOW_SECONDS, "kept": KEPT_MESSAGES}


def plain_text(text: str) -> None:
    """One line of printable text, not blank, holding none of the characters a display name may not hold
    (``api.seats.names.unsafe_character``: line breaks and separators, bidirectional controls, zero-width,
    private-use, unassigned...)."""
    if not text.strip():
        raise ValidationError("say something: the text is blank")
    if (problem := unsafe_character(text)) is not None:
        raise ValidationError(f"one line of plain text: {problem}")


class ChatPostSchema(Schema):
    text = fields.String(required=True, validate=[validate.Length(min=1, max=MAX_TEXT_LENGTH), plain_text], metadata={
        "description": f"The message: 1 to {MAX_TEXT_LENGTH} characters of one line, shown as plain text (never as "
                       "HTML); leading and trailing spaces are dropped. It may not hold what a display name may "
                       "not: controls, separators, bidirectional, zero-width, private-use or unassigned "
                       "characters."})

    @post_load
    def _trimmed(self, data: dict, **_kwargs) -> dict:
        return {**data, "text": data["text"].strip()}


class ChatSettingsSchema(Schema):
    enabled = StrictBoolean(required=True, metadata={"description": "Whether the seats may post."})


class ChatSettingsAnswerSchema(Schema):
    game_id = fields.String(required=True)
    enabled = fields.Boolean(required=True)


class ChatQuerySchema(Schema):
    after = fields.String(load_default="0", validate=WholeRegexp(CURSOR_PATTERN), metadata={
        "description": "Chat cursor: the messages after this one (`0`: every message kept)."})
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=MAX_PAGE))


class ChatStreamQuerySchema(Schema):
    after = fields.String(load_default="0", validate=WholeRegexp(CURSOR_PATTERN), metadata={
        "description": "Chat cursor: the messages after it come first (`0`, the default: every message kept)."})


class ChatMessageSchema(Schema):
    cursor = fields.String(required=True, metadata={
        "description": "The message's place in the chat (not an event cursor): pass it as `after`."})
    seat = fields.Integer(required=True, metadata={"description": "The seat that posted it."})
    name = fields.String(required=True, allow_none=True, metadata={"description": "That seat's name then."})
    text = fields.String(required=True, metadata={"description": "Plain text: show it as text, never as HTML."})
    at = fields.String(required=True, metadata={"description": "ISO 8601 UTC time it was posted."})


class ChatBoundsSchema(Schema):
    max_length = fields.Integer(required=True, metadata={"description": "The longest message, in characters."})
    messages_per_window = fields.Integer(required=True, metadata={
        "description": "A seat posts at most this many messages in any `window_seconds`."})
    window_seconds = fields.Integer(required=True)
    kept = fields.Integer(required=True, metadata={"description": "Messages a game's chat keeps (its last ones)."})


class ChatPageSchema(Schema):
    game_id = fields.String(required=True)
    enabled = fields.Boolean(required=True, metadata={
        "description": "Whether the seats may post now (the creator turns it off and on)."})
    messages = fields.List(fields.Nested(ChatMessageSchema), required=True, metadata={"description": "Oldest first."})
    next = fields.String(required=True, metadata={
        "description": "The chat cursor to pass as `after` next time (unchanged when there was nothing new)."})
    bounds = fields.Nested(ChatBoundsSchema, required=True)


# -- the lines of the chat stream (documentation: the stream writes them itself) ---------------


class ChatStreamSettingsSchema(Schema):
    """The first line, and a line whenever the creator turns chat on or off."""

    kind = line_kind("settings")
    enabled = fields.Boolean(required=True)
    cursor = fields.String(required=True, metadata={
        "description": "The chat cursor the messages that follow come after (`after` in the first line)."})


class ChatStreamMessageSchema(ChatMessageSchema):
    """One message."""

    kind = line_kind("message")


class ChatStreamEndSchema(Schema):
    """The last line."""

    kind = line_kind("end")
    reason = fields.String(required=True, validate=validate.OneOf(["gone", "time_limit", "unavailable"]), metadata={
        "description": "`gone`: the game was deleted or expired; `time_limit`: the connection reached "
                       "`STREAM_MAX_SECONDS`; `unavailable`: the service lost Redis (for the last two, resume "
                       "with `after` = the last message's cursor)."})


SPEC_SCHEMAS = {"ChatStreamSettings": ChatStreamSettingsSchema, "ChatStreamMessage": ChatStreamMessageSchema,
                "ChatStreamEnd": ChatStreamEndSchema}
#: kind -> component; a keep-alive is the game stream's own
CHAT_LINE_KINDS = {"settings": "ChatStreamSettings", "message": "ChatStreamMessage",
                   "keepalive": "StreamKeepalive", "end": "ChatStreamEnd"}
#: One line of the chat stream, whichever its ``kind``.
CHAT_LINE = line_union(CHAT_LINE_KINDS)
