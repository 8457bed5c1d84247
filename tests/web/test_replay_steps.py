"""The replay's board and the events it names agree: at seeded-random steps of finished games of every
ruleset, the board drawn is the view at that step's version (``GET /v1/games/{id}/views/{version}``) and the
highlighted events are that version's, and going back and forth redraws it."""

from __future__ import annotations

import random

import requests
from selenium.webdriver.common.by import By

from tests.web.pages import BOT_GAMES, body_data, console_errors, finished_bot_game, wait

STEPS = 10


def drawn_from_api(driver, game: dict, version: int) -> str:
    """The board the pages' own drawing gives for the API's spectator view at ``version``, as text."""
    return driver.execute_async_script("""
        const [game, version, done] = arguments;
        Promise.all([import('/web/static/js/boards/index.js'), import('/web/static/js/parts.js')])
          .then(async ([boards, parts]) => {
            const past = await (await fetch(`/v1/games/${game.id}/views/${version}`)).json();
            const info = await parts.rulesetInfo(game.ruleset);
            const ctx = parts.contextFor({ ...game, view: past.view }, info);
            done(boards.drawBoard(game.ruleset, past.view, ctx, info.data).textContent);
          }, (error) => done(`failed: ${error}`));""", game, version)


def page_state(driver) -> dict:
    """What the replay shows, read at one instant."""
    return driver.execute_script("""
        const log = [...document.querySelectorAll('#log li')];
        return {board: document.getElementById('board').textContent,
                stale: document.getElementById('board').classList.contains('stale'),
                version: Number(document.body.dataset.drawnVersion),
                current: log.filter((li) => li.classList.contains('current')).map((li) => li.dataset.cursor),
                shown: log.filter((li) => !li.hidden).map((li) => li.dataset.cursor),
                named: [...document.querySelectorAll('#current li')].length,
                seats: document.getElementById('seats').textContent,
                pawns: [...document.querySelectorAll('#board .space .pawn')].map(
                  (pawn) => [Number(pawn.dataset.seat), Number(pawn.closest('.space').dataset.index)])};""")


def assert_step_agrees(driver, case: dict, step: int) -> None:
    version = case["versions"][step]
    wait(driver, lambda d: body_data(d, "drawnStep") == str(step) or d.find_element(By.ID, "problem").text,
         message=f"step {step} never drawn")
    assert driver.find_element(By.ID, "problem").text == ""
    state = page_state(driver)
    assert state["version"] == version and not state["stale"]
    assert state["board"] == drawn_from_api(driver, case["game"], version), (case["game"]["ruleset"], step)
    events = case["events"]
    this_move = [entry["cursor"] for entry in events if entry["version"] == version]
    assert state["current"] == this_move
    assert state["named"] == max(1, len(this_move))  # step 0 without events says "before its first move"
    assert state["shown"] == [entry["cursor"] for entry in events if entry["version"] <= version]
    assert "thinking" not in state["seats"]  # a past position: nobody is thinking now
    view = requests.get(f"{case['base']}/v1/games/{case['game']['id']}/views/{version}", timeout=10).json()
    if view["waiting_for"]:
        assert "to decide" in state["seats"]
    players = (view["view"] or {}).get("players", [])
    if state["pawns"]:  # a ring board: each pawn stands where the view puts its seat
        for seat, index in state["pawns"]:
            assert players[seat]["position"] == index, (seat, index)


def test_replay_board_and_events_agree_with_the_views_at_random_steps(service, browser):
    driver = browser
    rng = random.Random(43)
    cases = [finished_bot_game(service.url, ruleset, seed) for seed, ruleset in enumerate(sorted(BOT_GAMES), start=7)]
    chosen = [case for case in cases for _ in range(2)] + [rng.choice(cases) for _ in range(STEPS - 2 * len(cases))]
    picks = [(case, rng.randrange(len(case["versions"]))) for case in chosen]
    assert len(picks) == STEPS
    for case, step in picks:
        driver.get(f"{service.url}/replay/{case['game']['id']}?step={step}")
        assert_step_agrees(driver, case, step)
    # Back and forth redraws the board (the newcomer's "back from 8 to 5 left the board unchanged").
    case, step = max(picks, key=lambda pick: pick[1])
    driver.get(f"{service.url}/replay/{case['game']['id']}?step={step}")
    assert_step_agrees(driver, case, step)
    boards = {step: page_state(driver)["board"]}
    for button, expected in (("prev", step - 1), ("prev", step - 2), ("next", step - 1), ("last", None)):
        driver.find_element(By.ID, button).click()
        expected = len(case["versions"]) - 1 if expected is None else expected
        assert_step_agrees(driver, case, expected)
        boards[expected] = page_state(driver)["board"]
    assert len(set(boards.values())) >= 3, "stepping showed the same board at most steps"
    assert console_errors(driver) == []
