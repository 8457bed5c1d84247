"""Whatever an agent gets wrong comes back as a tool error that says why (and what is on offer now),
never a crash; and what a seat may not see stays unseen through observe."""

from __future__ import annotations

import asyncio

from tests.mcp.conftest import call, refused, stdio_client


def test_wrong_option_stale_move_illegal_action_and_unknown_game_are_tool_errors(service):
    async def session():
        async with stdio_client(service) as client:
            created = await call(client, "create_game", ruleset="monopoly-cars2",
                                 seats=[{"agent": True, "name": "Ann"}, {"bot": "heuristic"}],
                                 options={"turn_cap": 40}, seed=2)
            game_id = created["game_id"]
            assert (await call(client, "wait_for_turn", game_id=game_id, timeout=30))["ready"]
            seen = await call(client, "observe", game_id=game_id)
            decision = seen["decisions"][0]
            first = decision["options"][0]["id"]
            errors = {"wrong option": await refused(client, "act", game_id=game_id,
                                                    option=f"{decision['decision_id']}:no_such_thing")}
            errors["neither"] = await refused(client, "act", game_id=game_id)
            errors["illegal"] = await refused(client, "act", game_id=game_id, action={"type": "no_such_action"})
            await call(client, "act", game_id=game_id, option=first)
            errors["stale"] = await refused(client, "act", game_id=game_id, option=first)
            errors["unknown game"] = await refused(client, "observe", game_id="0000000000000000")
            errors["unknown record"] = await refused(client, "record", game_id="0000000000000000")
            return decision, errors

    decision, errors = asyncio.run(session())
    assert f"no option '{decision['decision_id']}:no_such_thing' is on offer" in errors["wrong option"]
    assert "On offer now: " + decision["options"][0]["id"] in errors["wrong option"]
    assert "give either option" in errors["neither"]
    assert "refused by the rules" in errors["illegal"] and "no_such_action" in errors["illegal"]
    assert f"stale: option {decision['options'][0]['id']}" in errors["stale"]
    assert "no seat in game 0000000000000000" in errors["unknown game"]
    assert "not found" in errors["unknown record"].lower()


def test_a_session_acts_only_with_its_own_seats(service):
    async def sessions():
        async with stdio_client(service) as ann, stdio_client(service) as bob:
            created = await call(ann, "create_game", ruleset="monopoly-cars2",
                                 seats=[{"agent": True, "name": "Ann"}, {"open": True}], seed=3)
            game_id = created["game_id"]
            joined = await call(bob, "join_game", game_id=game_id, invite=created["invites"][0]["invite"],
                                name="Bob")
            assert joined["seat"] == 1
            seen = await call(ann, "observe", game_id=game_id)
            mover = seen["waiting_for"][0]["seat"]
            sessions = {0: ann, 1: bob}
            mine = await call(sessions[mover], "observe", game_id=game_id)
            option = mine["decisions"][0]["options"][0]["id"]
            intruder = sessions[1 - mover]
            return mover, {
                "observe": await refused(intruder, "observe", game_id=game_id, seat=mover),
                "act": await refused(intruder, "act", game_id=game_id, seat=mover, option=option),
                "option": await refused(intruder, "act", game_id=game_id, option=option),
                "games": await call(intruder, "my_games"),
            }

    mover, found = asyncio.run(sessions())
    other = 1 - mover
    assert f"seat {mover} of game" in found["observe"]
    assert f"is not this session's: it holds [{other}]" in found["observe"]
    assert f"seat {mover} of game" in found["act"] and f"it holds [{other}]" in found["act"]
    assert f"is not pending for seat {other}" in found["option"]
    assert [entry["seats"] for entry in found["games"]] == [[other]]


def test_a_cash_n_guns_seat_never_sees_another_seats_bullet_or_hand(service):
    """Twins: the same seed, and seat 1 loads a different bullet card; seat 0 observes both alike."""

    async def twin(client, bullet_index: int) -> tuple[dict, dict]:
        created = await call(client, "create_game", ruleset="cash-n-guns", seats=[{"agent": True}] * 4, seed=9)
        game_id = created["game_id"]
        other = await call(client, "observe", game_id=game_id, seat=1)
        bullets = other["decisions"][0]["options"]
        labels = sorted({option["label"] for option in bullets})
        chosen = next(option for option in bullets if option["label"] == labels[bullet_index])
        await call(client, "act", game_id=game_id, seat=1, option=chosen["id"])
        mine = await call(client, "observe", game_id=game_id, seat=0)
        theirs = await call(client, "observe", game_id=game_id, seat=1)
        return mine, theirs

    async def session():
        async with stdio_client(service) as client:
            return await twin(client, 0), await twin(client, -1)

    (mine_a, theirs_a), (mine_b, theirs_b) = asyncio.run(session())
    for seen in (mine_a, mine_b, theirs_a, theirs_b):
        seen.pop("game_id")
    assert theirs_a != theirs_b  # seat 1 itself sees what it loaded and what it kept
    assert mine_a == mine_b
    assert mine_a["decisions"] and mine_a["decisions"][0]["secret"]
