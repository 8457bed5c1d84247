"""What one MCP session holds: its app key, and the seat tokens its games gave it.

A token lives here only; the tools name a game (and, where the session holds several seats of it,
a seat number), never a token, so a token never passes through the model. Everything else is asked
of the service through the SDK each time: the service stays the authority.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any

from rulehouse_sdk.client import Client, decision_tag
from rulehouse_sdk.errors import IllegalAction, InvalidRequest, RulehouseError, StaleVersion
from rulehouse_sdk.mcp.options import OptionRefused, chosen_action, decision_of, offered, option_id
from rulehouse_sdk.mcp.words import Words

#: the longest a ``wait_for_turn`` call may wait (seconds): a tool call should come back
MAX_WAIT_SECONDS = 120.0
POLL_SECONDS = (0.1, 1.0)


class TableError(Exception):
    """A tool error for the agent: the message says why, and what it can do now."""


@dataclass
class Table:
    """One session's view of the service."""

    client: Client
    #: game id -> seat number -> token
    seats: dict[str, dict[int, str]] = field(default_factory=dict)
    #: game id -> creator token (a game this session created)
    creators: dict[str, str] = field(default_factory=dict)
    _labels: dict[str, dict[str, Any]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    # -- seats --------------------------------------------------------------------

    def keep(self, game_id: str, seat: int, token: str) -> None:
        with self._lock:
            self.seats.setdefault(game_id, {})[seat] = token

    def seat_client(self, game_id: str, seat: int | None) -> tuple[int, Client]:
        held = self.seats.get(game_id, {})
        if not held:
            raise TableError(f"this session holds no seat in game {game_id}: create a game with an agent "
                             "seat, or join one with an invite")
        if seat is None:
            if len(held) > 1:
                raise TableError(f"this session holds seats {sorted(held)} in game {game_id}: say which (seat)")
            seat = next(iter(held))
        if seat not in held:
            raise TableError(f"seat {seat} of game {game_id} is not this session's: it holds {sorted(held)}")
        return seat, self.client.with_token(held[seat])

    def viewer(self, game_id: str) -> Client:
        """A seat of this session's in the game, else its creator token, else a spectator."""
        held = self.seats.get(game_id, {})
        token = next(iter(held.values()), None) or self.creators.get(game_id)
        return self.client.with_token(token)

    # -- words ----------------------------------------------------------------------

    def words(self, ruleset: str, game: dict[str, Any] | None = None) -> Words:
        if ruleset not in self._labels:
            self._labels[ruleset] = self.client.get_labels(ruleset)
        names = [seat_name(seat, index) for index, seat in enumerate((game or {}).get("seats", []))]
        return Words(self._labels[ruleset], names)

    # -- observe, act, wait -------------------------------------------------------------

    def observe(self, game_id: str, seat: int | None) -> dict[str, Any]:
        seat, client = self.seat_client(game_id, seat)
        game = client.get_game(game_id)
        pending = client.get_decisions(game_id)
        words = self.words(game["ruleset"], game)
        return {
            "game_id": game_id, "ruleset": game["ruleset"], "status": game["status"], "version": pending["version"],
            "seat": seat, "you": words.seat(seat),
            "seats": [{"seat": index, "name": words.seat(index), "bot": entry.get("bot")}
                      for index, entry in enumerate(game["seats"])],
            "waiting_for": [{"seat": index, "name": words.seat(index)} for index in pending["waiting_for"]],
            "deadline": pending["deadline"],
            "decisions": [described(decision, words) for decision in pending["decisions"]],
            "view": game["view"], "result": game["result"],
        }

    def act(self, game_id: str, seat: int | None, option: str | None, amounts: dict[str, int] | None,
            action: dict[str, Any] | None) -> dict[str, Any]:
        if (option is None) == (action is None):
            raise TableError("give either option (an option id from observe) or action (an action body)")
        seat, client = self.seat_client(game_id, seat)
        pending = client.get_decisions(game_id)
        game = client.get_game(game_id)
        words = self.words(game["ruleset"], game)
        decisions = pending["decisions"]
        if option is not None:
            decision = next((d for d in decisions if d["id"] == decision_of(option)), None)
            if decision is None:
                raise TableError(self._refusal(f"stale: option {option} is no longer on offer (its decision "
                                               f"{decision_of(option)} is not pending for seat {seat})",
                                               decisions, words))
            try:
                body = chosen_action(decision, option, amounts, words)
            except OptionRefused as refused:
                raise TableError(self._refusal(str(refused), decisions, words)) from refused
        else:
            if not decisions:
                raise TableError(self._refusal("you have no decision pending", decisions, words))
            decision = next((d for d in decisions if any(o["type"] == action.get("type") for o in d["options"])),
                            decisions[0])
            body = action
        try:
            outcome = client.submit_action(game_id, body, if_match=decision_tag(decision))
        except StaleVersion as stale:
            fresh = client.get_decisions(game_id)["decisions"]
            raise TableError(self._refusal(f"stale: decision {decision['id']} is no longer pending (the game "
                                           f"moved on to version {stale.version})", fresh, words)) from stale
        except (IllegalAction, InvalidRequest) as refused:
            fresh = client.get_decisions(game_id)["decisions"]
            raise TableError(self._refusal(f"refused by the rules: {reason(refused)}", fresh, words)) from refused
        return {"accepted": words.action(body), "action": body, "version": outcome["version"],
                "status": outcome["status"], "result": outcome["result"],
                "events": [entry["event"] for entry in outcome["events"]]}

    def wait_for_turn(self, game_id: str, seat: int | None, timeout: float) -> dict[str, Any]:
        seat, client = self.seat_client(game_id, seat)
        deadline = time.monotonic() + max(0.0, min(timeout, MAX_WAIT_SECONDS))
        pause = POLL_SECONDS[0]
        while True:
            pending = client.get_decisions(game_id)
            if pending["decisions"]:
                return {"ready": True, "why": "a decision is pending: observe it, then act",
                        "version": pending["version"]}
            # Nobody to wait for: the game is over (or waits for open seats); only then ask which.
            status = client.get_game(game_id)["status"] if not pending["waiting_for"] else "active"
            if status in ("finished", "aborted"):
                return {"ready": True, "why": f"the game is {status}", "version": pending["version"]}
            if time.monotonic() >= deadline:
                return {"ready": False, "why": "still the other seats' turn: call wait_for_turn again",
                        "waiting_for": pending["waiting_for"], "version": pending["version"]}
            time.sleep(min(pause, max(0.0, deadline - time.monotonic())))
            pause = min(pause * 1.5, POLL_SECONDS[1])

    def hint(self, game_id: str, seat: int | None, wait: float) -> dict[str, Any]:
        """The service's hint, with the option id (and label) of the move it suggests."""
        seat, client = self.seat_client(game_id, seat)
        found = dict(client.get_hint(game_id, wait=wait))
        decision = next((d for d in client.get_decisions(game_id)["decisions"] if d["id"] == found.get("decision")),
                        None)
        if decision is not None and found.get("action"):
            game = client.get_game(game_id)
            words = self.words(game["ruleset"], game)
            ranged = frozenset((decision.get("ranges") or {}).get(found["action"]["type"], {}))
            found["option"] = option_id(decision["id"], found["action"], ranged)
            found["label"] = words.action(found["action"])
        return found

    @staticmethod
    def _refusal(why: str, decisions: list[dict[str, Any]], words: Words) -> str:
        now = [option for decision in decisions for option in offered(decision, words)]
        if not now:
            return f"{why}. You have no decision pending now: call wait_for_turn."
        listed = "; ".join(f"{option['id']} = {option['label']}" for option in now)
        return f"{why}. On offer now: {listed}"


def described(decision: dict[str, Any], words: Words) -> dict[str, Any]:
    return {"decision_id": decision["id"], "kind": decision["kind"], "heading": words.decision(decision["kind"]),
            "secret": bool(decision.get("secret")), "options": offered(decision, words)}


def seat_name(seat: dict[str, Any], index: int) -> str:
    name = seat.get("name")
    bot = seat.get("bot")
    if name and not str(name).startswith("bot:") and name != f"{bot} bot":
        return str(name)
    return f"Seat {index + 1}" + (f" ({bot} bot)" if bot else "")


def reason(error: RulehouseError) -> str:
    """The service's refusal in one line, for a tool error, with its reason code where it has one."""
    return f"{error} (reason: {error.reason})" if error.reason else str(error)
