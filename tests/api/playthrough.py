"""Play a game over HTTP while a local engine copy of the same game checks every answer.

The local copy starts from the same ruleset, options and seed, and applies every
action the service accepts; after each action the service's version, events, views,
decisions and result must be exactly what the engine says for that seat.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.core.decisions import Decision
from engine.core.registry import get_ruleset
from engine.core.rng import Rng
from tests.api.helpers import act, auth, create_game


@dataclass
class Playthrough:
    game_id: str
    tokens: list[str]
    state: object
    actions: list[tuple[int, dict]] = field(default_factory=list)
    finished: bool = False


def visible_events(events, seat: int | None) -> list[dict]:
    return [event.to_dict() for event in events if event.visible(seat)]


def check_views(client, ruleset, play: Playthrough, version: int) -> None:
    """Each seat's and a spectator's HTTP view and decisions equal the engine's, and nothing more."""
    pending = ruleset.pending(play.state)
    for seat, token in [*enumerate(play.tokens), (None, None)]:
        game = client.get(f"/v1/games/{play.game_id}", headers=auth(token))
        assert game.status_code == 200
        body = game.get_json()
        assert game.headers["ETag"] == (f'"{version}"' if seat is None else f'"{version}.{seat}"')
        assert body["version"] == version
        assert body["seat"] == seat
        assert body["view"] == ruleset.view(play.state, seat)
        assert body["waiting_for"] == sorted({d.seat for d in pending})
        decisions = client.get(f"/v1/games/{play.game_id}/decisions", headers=auth(token)).get_json()
        assert [{k: v for k, v in d.items() if k != "id"} for d in decisions["decisions"]] == [
            d.to_dict() for d in pending if d.seat == seat]


def play_over_http(client, ruleset_id: str, players: int, *, seed: int = 11, options: dict | None = None,
                   max_steps: int = 100_000, check_every: int = 1) -> Playthrough:
    ruleset = get_ruleset(ruleset_id)
    created = create_game(client, ruleset_id, [{"name": f"p{i}"} for i in range(players)], seed=seed,
                          options=options)
    play = Playthrough(created["id"], [seat["token"] for seat in created["seats"]],
                       ruleset.new_game(players, options, seed))
    bot = ruleset.bot("random")
    rng = Rng(seed + 1)
    version = 0
    for step in range(max_steps):
        if step % check_every == 0:
            check_views(client, ruleset, play, version)
        pending = ruleset.pending(play.state)
        if not pending:
            break
        seat = rng.choice(sorted({d.seat for d in pending}))
        listed = client.get(f"/v1/games/{play.game_id}/decisions", headers=auth(play.tokens[seat])).get_json()
        decision = Decision.from_dict(rng.choice(listed["decisions"]))
        action = bot.act(None, decision, rng)
        reply = act(client, play.game_id, play.tokens[seat], action, version)
        assert reply.status_code == 200, reply.get_json()
        body = reply.get_json()
        expected_events = ruleset.apply(play.state, seat, action)
        play.actions.append((seat, action))
        version += 1
        assert body["version"] == version
        assert reply.headers["ETag"] == f'"{version}.{seat}"'
        assert [entry["event"] for entry in body["events"]] == visible_events(expected_events, seat)
        assert all(entry["version"] == version for entry in body["events"])
        result = ruleset.result(play.state)
        assert body["status"] == ("active" if result is None else "finished")
        assert body["result"] == (None if result is None else result.to_dict())
    else:
        return play
    check_views(client, ruleset, play, version)
    play.finished = True
    final = client.get(f"/v1/games/{play.game_id}").get_json()
    assert final["status"] == "finished"
    assert final["result"] == ruleset.result(play.state).to_dict()
    return play


def read_all_events(client, game_id: str, token: str | None, limit: int = 7) -> list[dict]:
    """The whole caller-visible log through the paged endpoint (a small page size, to exercise paging)."""
    entries, cursor = [], "0"
    while True:
        page = client.get(f"/v1/games/{game_id}/events?after={cursor}&limit={limit}", headers=auth(token))
        assert page.status_code == 200
        body = page.get_json()
        assert len(body["events"]) <= limit
        entries.extend(body["events"])
        if body["next"] == cursor:
            return entries
        cursor = body["next"]
