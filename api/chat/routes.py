"""``/v1/games/{id}/chat``: read and post table chat messages, follow them live, turn chat on or off."""

from __future__ import annotations

import math

from flask.views import MethodView
from flask_smorest import Blueprint

from api.apps import ownership
from api.chat.schemas import (
    BOUNDS,
    KEPT_MESSAGES,
    MESSAGES_PER_WINDOW,
    WINDOW_SECONDS,
    ChatMessageSchema,
    ChatPageSchema,
    ChatPostSchema,
    ChatQuerySchema,
    ChatSettingsAnswerSchema,
    ChatSettingsSchema,
    ChatStreamQuerySchema,
)
from api.ground.times import iso_time
from api.http.helpers import bearer_token, caller_seat, json_response, load_game, required_token, store
from api.http.problems import ApiProblem, problem_response
from api.play.game_record import GameRecord
from api.play.store import GameStore
from api.streams import live

blp = Blueprint("chat", __name__, url_prefix="/v1/games",
                description="Table chat: short text messages of a game's seated players, on a stream of its own "
                            "beside the game's events.")

AUTH = [{"bearerAuth": []}, {}]
SEAT_TOKEN = [{"bearerAuth": []}]
NO_GAME = problem_response(404, "No such game (or it expired).")
BAD_TOKEN = problem_response(401, "The token is malformed or not one of this game's.")


def message_body(cursor: str, message: dict) -> dict:
    """A stored message as clients see it; its time is the chat cursor's (Redis stream ids are milliseconds)."""
    return {"cursor": cursor, "seat": message["seat"], "name": message.get("name"), "text": message["text"],
            "at": iso_time(int(cursor.split("-", 1)[0]) / 1000)}


def settings_line(enabled: bool, cursor: str) -> dict:
    return {"kind": "settings", "enabled": enabled, "cursor": cursor}


def _reader(game_id: str) -> GameRecord:
    """The game, for anyone who may watch it (a token, when sent, must be one of its own)."""
    record = load_game(game_id, bearer_token())
    caller_seat(record)
    return record


@blp.route("/<game_id>/chat")
class Chat(MethodView):
    @blp.doc(security=AUTH, operationId="get_chat")
    @blp.arguments(ChatQuerySchema, location="query")
    @blp.response(200, ChatPageSchema)
    @blp.alt_response(**BAD_TOKEN)
    @blp.alt_response(**NO_GAME)
    @blp.alt_response(**problem_response(422, "`after` or `limit` is invalid."))
    def get(self, query: dict, game_id: str):
        """Read the table chat

        The messages after the chat cursor `after`, oldest first, for anyone who may watch
        the game (no token needed). The chat keeps a game's last `bounds.kept` messages and
        expires with the game. It is not the event log: a message changes no version,
        `ETag` or deadline of the game, and is not in its record.
        """
        record = _reader(game_id)
        messages, last = store().chat.messages(game_id, query["after"], query["limit"])
        body = {"game_id": game_id, "enabled": record.chat,
                "messages": [message_body(cursor, message) for cursor, message in messages],
                "next": last or query["after"], "bounds": BOUNDS}
        return json_response(body, headers={"Cache-Control": "no-cache"})

    @blp.doc(security=SEAT_TOKEN, operationId="post_chat_message")
    @blp.arguments(ChatPostSchema, example={"text": "Nice bluff!"})
    @blp.response(201, ChatMessageSchema)
    @blp.alt_response(**problem_response(400, "The body is not valid JSON."))
    @blp.alt_response(**problem_response(401, "No token, or not one of this game's (a seat handed to a bot "
                                         "has no token any more)."))
    @blp.alt_response(**problem_response(403, "Chat is off (`reason`: `chat_disabled`), or the token is the "
                                         "creator's, which has no seat (`not_seated`)."))
    @blp.alt_response(**NO_GAME)
    @blp.alt_response(**problem_response(413, "The body is too large."))
    @blp.alt_response(**problem_response(415, "The body is not JSON."))
    @blp.alt_response(**problem_response(422, f"The text is blank, longer than {BOUNDS['max_length']} characters, "
                                         "or has characters a display name may not have (controls, separators, "
                                         "bidirectional, zero-width, private-use, unassigned)."))
    @blp.alt_response(**problem_response(429, f"The seat posted {MESSAGES_PER_WINDOW} messages in the last "
                                         f"{WINDOW_SECONDS} s (`chat-rate-limited`, `Retry-After`); or over the "
                                         "app's rate limit for moves (`too-many-requests`)."))
    def post(self, body: dict, game_id: str):
        """Post to the table chat

        A seated player's message, with the seat's token. The creator token has no seat,
        so it reads and sets the chat but does not post; spectators read. At most
        `messages_per_window` messages per seat in any `window_seconds` (see `bounds` of
        `GET /v1/games/{id}/chat`). Shown to everyone as plain text.
        """
        token = required_token()
        record = load_game(game_id, token)
        _role, seat = caller_seat(record)
        if seat is None:
            raise ApiProblem("forbidden", "the creator token has no seat: post with a seat token", reason="not_seated")
        if not record.chat:
            raise ApiProblem("forbidden", "this game's chat is off", reason="chat_disabled")
        message = {"seat": seat, "name": record.seats[seat]["name"], "text": body["text"]}
        posted = store().chat.post(game_id, seat, token, message, per_window=MESSAGES_PER_WINDOW,
                                   window_seconds=WINDOW_SECONDS, kept=KEPT_MESSAGES)
        if posted.outcome == "missing":
            raise ApiProblem("not-found", f"no game {game_id!r}")
        if posted.outcome == "off":
            raise ApiProblem("forbidden", "this game's chat is off", reason="chat_disabled")
        if posted.outcome == "token":  # the seat was left or handed to a bot since the token was read
            raise ApiProblem("unauthorized", "this token does not belong to this game",
                             headers={"WWW-Authenticate": 'Bearer error="invalid_token"'})
        if posted.outcome == "fast":
            wait = max(1, math.ceil(posted.retry_after))
            raise ApiProblem("chat-rate-limited", f"a seat posts at most {MESSAGES_PER_WINDOW} messages in "
                             f"{WINDOW_SECONDS} s; wait {wait} s", headers={"Retry-After": str(wait)})
        return json_response(message_body(posted.cursor, message), 201)


@blp.route("/<game_id>/chat/settings")
class ChatSettings(MethodView):
    @blp.doc(security=SEAT_TOKEN, operationId="set_chat")
    @blp.arguments(ChatSettingsSchema, example={"enabled": False})
    @blp.response(200, ChatSettingsAnswerSchema)
    @blp.alt_response(**problem_response(400, "The body is not valid JSON."))
    @blp.alt_response(**problem_response(401, "No token, or not one of this game's."))
    @blp.alt_response(**problem_response(403, "Only the creator token turns chat on or off, through the app that "
                                         "created the game (`not_owner`)."))
    @blp.alt_response(**NO_GAME)
    @blp.alt_response(**problem_response(415, "The body is not JSON."))
    @blp.alt_response(**problem_response(422, "The body does not fit its schema."))
    def post(self, body: dict, game_id: str):
        """Turn the table chat on or off

        The creator token turns the game's chat off (no more posts; what was said stays
        readable) or on again, at any time. Games start with chat on unless created with
        `chat: false`. Like a message, this changes no version or `ETag` of the game; the
        chat's live stream says it with a `settings` line.
        """
        record = load_game(game_id, required_token())
        role, _seat = caller_seat(record)
        ownership.require_creator(role, record.app, "turn chat on or off")
        if not store().chat.set_enabled(game_id, body["enabled"]):
            raise ApiProblem("not-found", f"no game {game_id!r}")
        return json_response({"game_id": game_id, "enabled": body["enabled"]})


class ChatMessages:
    """The chat after a cursor, for a live stream: its messages, and a ``settings`` line when chat is
    turned on or off; over when the game is gone (a finished game's chat goes on)."""

    def __init__(self, game_store: GameStore, game_id: str, cursor: str, enabled: bool) -> None:
        self.store, self.game_id, self.cursor, self.enabled = game_store, game_id, cursor, enabled

    def look(self) -> live.Found:
        messages, last, enabled = self.store.chat.messages_and_setting(self.game_id, self.cursor, live.PAGE)
        if enabled is None:
            return live.Found([], end=self.end("gone"))
        lines = []
        if enabled != self.enabled:
            self.enabled = enabled
            lines.append(live.line(settings_line(enabled, self.cursor)))
        if last is not None:
            self.cursor = last
            lines.extend(live.line({"kind": "message", **message_body(cursor, message)})
                         for cursor, message in messages)
        return live.Found(lines, read=last is not None)

    def end(self, reason: str) -> str:
        return live.line({"kind": "end", "reason": reason})


@blp.route("/<game_id>/chat/stream")
class ChatStream(MethodView):
    @blp.doc(security=AUTH, operationId="stream_chat", responses={"200": live.ndjson_answer(
        "NDJSON: one JSON object per line. First `{\"kind\": \"settings\", \"enabled\", "
        "\"cursor\"}`, then the messages after `after` as `{\"kind\": \"message\", \"cursor\", "
        "\"seat\", \"name\", \"text\", \"at\"}` lines and the new ones as they are posted, a "
        "`settings` line when the creator turns "
        "chat on or off, `{\"kind\": \"keepalive\"}` after each silent interval, and a last "
        "`{\"kind\": \"end\", \"reason\"}` when the game is gone, or the stream reached its time limit "
        "or lost Redis (resume with `after`).", "ChatStreamLine")})
    @blp.arguments(ChatStreamQuerySchema, location="query")
    @blp.alt_response(**BAD_TOKEN)
    @blp.alt_response(**NO_GAME)
    @blp.alt_response(**problem_response(429, "This client address already holds its limit of open streams."))
    def get(self, query: dict, game_id: str):
        """Follow the table chat live

        The chat's own stream, beside the game's (`GET /v1/games/{id}/stream`): the kept
        messages after `after` first, then each new one as it is posted. It goes on after
        the game is over, until the game is deleted or expires.
        """
        record = _reader(game_id)
        source = ChatMessages(store(), game_id, query["after"], record.chat)
        return live.live_response(game_id, [live.line(settings_line(record.chat, query["after"]))], source)
