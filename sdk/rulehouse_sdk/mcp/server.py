"""The MCP server: Rulehouse's tools for an agent, over the public HTTP API through the SDK.

Each MCP session has a ``Table`` of its own (its app key and seat tokens): over stdio the one
session of the process, with the app key from ``--api-key`` or ``RULEHOUSE_API_KEY``; over
streamable HTTP one per MCP session, with the app key of its requests' ``X-Api-Key`` header.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Annotated, Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from rulehouse_sdk.client import Client
from rulehouse_sdk.errors import NotFound, RulehouseError
from rulehouse_sdk.mcp.table import MAX_WAIT_SECONDS, Table, TableError, reason

INSTRUCTIONS = """Play Rulehouse's board games (the service referees: it holds the rules, the dice and the
hidden cards). Find a game with list_rulesets and read_rules; start one with create_game (your seats and
bot seats) or take an open seat with join_game. Then loop: wait_for_turn, observe (your view and the
options on offer, each with an id and a label), act with one option id. Your seat's credentials stay
with this session: you never see or pass a token."""

GameId = Annotated[str, Field(description="The game's id (from create_game, join_game or my_games).")]
#: the longest the service waits on a search (hint) or an analysis before answering "pending"
ANALYSIS_WAIT_SECONDS = 10

SeatNumber = Annotated[int | None, Field(description="Which of your seats in this game (counted from 0); "
                                                     "leave out when you hold only one.")]


#: the header an HTTP client names its session by (its seats are its app key's and this session's)
SESSION_HEADER = "x-rulehouse-session"


class Tables:
    """One ``Table`` per MCP session.

    Over stdio the process serves one session: one table. Over streamable HTTP the 2026-07-28
    protocol has no sessions of its own: a client is known by its app key (``X-Api-Key``) together
    with the session it names, ``X-Rulehouse-Session`` (any string its host configures: two agents of
    one app tell their seats apart by it) or else its ``Mcp-Session-Id`` (older protocol versions).
    The key is always part of it, so naming another client's session never reaches that client's
    seats with another key; requests with neither key nor session share the keyless table.
    """

    def __init__(self, make_client: Callable[[str | None], Client], *, per_request: bool) -> None:
        self.make_client = make_client
        self.per_request = per_request
        self._tables: dict[tuple[str, str], Table] = {}
        self._lock = threading.Lock()

    def of(self, ctx: Context) -> Table:
        request = ctx.request_context.request
        headers = getattr(request, "headers", None) if self.per_request else None
        api_key = headers.get("x-api-key") if headers is not None else None
        session = (headers.get(SESSION_HEADER) or headers.get("mcp-session-id")) if headers is not None else None
        key = (api_key or "", session or "")
        with self._lock:
            if key not in self._tables:
                self._tables[key] = Table(self.make_client(api_key))
            return self._tables[key]


def answered(call: Callable[[], Any]) -> Any:
    """``call()``, with the service's refusals as tool errors that say why."""
    try:
        return call()
    except TableError as refused:
        raise ToolError(str(refused)) from refused
    except NotFound as missing:
        raise ToolError(f"not found: {reason(missing)}") from missing
    except RulehouseError as error:
        raise ToolError(reason(error)) from error


def build_server(base_url: str, *, api_key: str | None = None, client_options: dict[str, Any] | None = None,
                 from_headers: bool = False) -> MCPServer:
    """The server for the service at ``base_url``. ``from_headers`` (HTTP): each session's app key is the
    ``X-Api-Key`` header of its requests; else ``api_key`` for every session (stdio)."""

    def make_client(header_key: str | None) -> Client:
        return Client(base_url, api_key=header_key if from_headers else api_key, **(client_options or {}))

    tables = Tables(make_client, per_request=from_headers)
    # WARNING: a refused move is the agent's business (its tool error), not a line in the log
    server = MCPServer("rulehouse", instructions=INSTRUCTIONS, log_level="WARNING")

    @server.tool()
    def list_rulesets(ctx: Context) -> list[dict[str, Any]]:
        """The games this service referees: id, title, players, and the bots that can fill a seat."""
        table = tables.of(ctx)
        found = answered(table.client.list_rulesets)["rulesets"]
        return [{key: entry[key] for key in ("id", "title", "min_players", "max_players", "bots")} for entry in found]

    @server.tool()
    def read_rules(ctx: Context, ruleset: Annotated[str, Field(description="A ruleset id from list_rulesets.")]
                   ) -> dict[str, Any]:
        """A ruleset's rules in prose (markdown), its action types and the options a game may set."""
        table = tables.of(ctx)
        described = answered(lambda: table.client.get_ruleset(ruleset))
        text = answered(lambda: table.client.get_rules_doc(ruleset))
        options = {name: spec.get("description", "") for name, spec in
                   described["options_schema"].get("properties", {}).items()}
        return {"id": ruleset, "title": described["title"], "players": [described["min_players"],
                described["max_players"]], "bots": described["bots"], "action_types": described["action_types"],
                "options": options, "rules": text}

    @server.tool()
    def create_game(
        ctx: Context,
        ruleset: Annotated[str, Field(description="A ruleset id from list_rulesets.")],
        seats: Annotated[list[dict[str, Any]], Field(description=(
            'One entry per seat, in order: {"agent": true, "name": "..."} a seat this session plays; '
            '{"bot": "heuristic"} a seat a bot plays (a bot name from list_rulesets); {"open": true} a seat '
            "someone else takes with an invite."))],
        options: Annotated[dict[str, Any] | None, Field(description="The game's options (read_rules lists them), "
                                                                    'e.g. {"turn_cap": 20}.')] = None,
        seed: Annotated[int | None, Field(description="A seed: the same seed and moves give the same game.")] = None,
        hints: Annotated[bool | None, Field(description="Whether seats may ask for hints.")] = None,
        chat: Annotated[bool | None, Field(description="Whether the table chat is on.")] = None,
    ) -> dict[str, Any]:
        """Create a game. The seats marked agent are yours (this session keeps their credentials); bot
        seats are played by the service; open seats wait for someone with their invite."""
        table = tables.of(ctx)
        requested = []
        for index, seat in enumerate(seats):
            if seat.get("agent"):
                requested.append({"name": seat.get("name") or f"Agent {index + 1}"})
            elif seat.get("bot"):
                requested.append({"bot": seat["bot"], **({"name": seat["name"]} if seat.get("name") else {})})
            elif seat.get("open"):
                requested.append({"open": True})
            else:
                raise ToolError(f"seat {index}: say agent, bot or open")
        created = answered(lambda: table.client.create_game(ruleset, requested, options=options, seed=seed,
                                                            hints=hints, chat=chat))
        table.creators[created["id"]] = created["creator_token"]
        mine = []
        for seat in created["seats"]:
            if seat["token"]:
                table.keep(created["id"], seat["seat"], seat["token"])
                mine.append(seat["seat"])
        return {"game_id": created["id"], "status": created["status"], "your_seats": mine,
                "invites": created["invites"], "seats": [{key: seat[key] for key in ("seat", "name", "bot", "open")}
                                                         for seat in created["seats"]]}

    @server.tool()
    def join_game(ctx: Context, game_id: GameId,
                  invite: Annotated[str, Field(description="The open seat's invite.")],
                  name: Annotated[str, Field(description="Your name at the table.")]) -> dict[str, Any]:
        """Take an open seat of a game with its invite; the seat is then this session's."""
        table = tables.of(ctx)
        joined = answered(lambda: table.client.join_game(game_id, name, invite=invite))
        table.keep(game_id, joined["seat"], joined["token"])
        return {"game_id": game_id, "seat": joined["seat"], "version": joined["version"]}

    @server.tool()
    def my_games(ctx: Context) -> list[dict[str, Any]]:
        """The games this session holds seats in, and which seats."""
        table = tables.of(ctx)
        return [{"game_id": game_id, "seats": sorted(held)} for game_id, held in table.seats.items()]

    @server.tool()
    def observe(ctx: Context, game_id: GameId, seat: SeatNumber = None) -> dict[str, Any]:
        """Your seat's view of the game (only what it may see), the seats, whom the game waits for, and
        your pending decisions: each with a heading and its options, each option with an id to pass to act
        and a label in words. A ranged option (an amount) lists its parameters with their min and max."""
        table = tables.of(ctx)
        return answered(lambda: table.observe(game_id, seat))

    @server.tool()
    def act(
        ctx: Context, game_id: GameId,
        option: Annotated[str | None, Field(description="An option id from observe.")] = None,
        amounts: Annotated[dict[str, int] | None, Field(description=(
            'For a ranged option: each parameter\'s value, e.g. {"amount": 300}.'))] = None,
        action: Annotated[dict[str, Any] | None, Field(description=(
            "Instead of option: an action body the rules accept, e.g. {\"type\": \"roll\"}."))] = None,
        seat: SeatNumber = None,
    ) -> dict[str, Any]:
        """Play one of your pending options (or an action body). A move that is no longer on offer or that
        the rules refuse comes back as an error with the reason and the options on offer now."""
        table = tables.of(ctx)
        return answered(lambda: table.act(game_id, seat, option, amounts, action))

    @server.tool()
    def wait_for_turn(
        ctx: Context, game_id: GameId, seat: SeatNumber = None,
        timeout: Annotated[float, Field(description=f"Seconds to wait at most (up to {MAX_WAIT_SECONDS:g}).",
                                        ge=0, le=MAX_WAIT_SECONDS)] = 30.0,
    ) -> dict[str, Any]:
        """Wait until your seat has a decision pending or the game ends (ready true), or timeout seconds
        pass (ready false: call again)."""
        table = tables.of(ctx)
        return answered(lambda: table.wait_for_turn(game_id, seat, timeout))

    @server.tool()
    def chat(ctx: Context, game_id: GameId,
             text: Annotated[str | None, Field(description="A message to post; leave out to read.")] = None,
             seat: SeatNumber = None) -> dict[str, Any]:
        """Post a message to the table chat as your seat, or read the latest messages."""
        table = tables.of(ctx)

        def talk() -> dict[str, Any]:
            _, client = table.seat_client(game_id, seat)
            if text is not None:
                return {"posted": client.post_chat_message(game_id, text)}
            return {"messages": client.get_chat(game_id, limit=50)["messages"]}

        return answered(talk)

    @server.tool()
    def hint(ctx: Context, game_id: GameId, seat: SeatNumber = None) -> dict[str, Any]:
        """The service's suggestion for your pending decision, where the game allows hints: the action,
        its option id and label. Status "pending": the search is still running, ask again."""
        table = tables.of(ctx)
        return answered(lambda: table.hint(game_id, seat, ANALYSIS_WAIT_SECONDS))

    @server.tool()
    def win_chances(ctx: Context, game_id: GameId, seat: SeatNumber = None) -> dict[str, Any]:
        """Each seat's estimated chance to win from here, where the game allows it."""
        table = tables.of(ctx)
        return answered(lambda: table.seat_client(game_id, seat)[1].get_win_chances(game_id))

    @server.tool()
    def record(ctx: Context, game_id: GameId) -> dict[str, Any]:
        """A finished game's full record: seats, seed, every action and the result."""
        table = tables.of(ctx)
        return answered(lambda: table.viewer(game_id).get_record(game_id))

    @server.tool()
    def analysis(ctx: Context, game_id: GameId) -> dict[str, Any]:
        """A finished game's analysis: each seat's win chance at every version, each decision's cost and
        the key moments. The first ask starts it: status "pending" means ask again in a few seconds."""
        table = tables.of(ctx)
        return answered(lambda: table.viewer(game_id).get_analysis(game_id, wait=ANALYSIS_WAIT_SECONDS))

    return server
