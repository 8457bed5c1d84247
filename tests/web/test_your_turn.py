""""Your turn": a seat's table says so in the tab's title while its decision is pending, and the lobby marks
which of this browser's games wait for it (one read per listed game)."""

from __future__ import annotations

import requests
from selenium.webdriver.common.by import By

from tests.processes import wait_for
from tests.web.pages import body_data, console_errors, finished_bot_game, wait, wait_data


def create(base: str, seats: list[dict], seed: int) -> dict:
    return requests.post(f"{base}/v1/games", json={"ruleset": "monopoly-cars2", "seed": seed, "seats": seats},
                         timeout=10).json()


def waiting_for(base: str, game_id: str) -> list[int]:
    return requests.get(f"{base}/v1/games/{game_id}", timeout=10).json()["waiting_for"]


def test_the_tab_and_the_lobby_say_which_games_wait_for_you(service, browser):
    driver, base = browser, service.url
    # Ann alone against a bot: once the bot has moved, the game waits for her.
    alone = create(base, [{"name": "Ann"}, {"name": "Bo", "bot": "heuristic"}], seed=1)
    wait_for(lambda: waiting_for(base, alone["id"]) == [0])
    # Ann in seat 1 after Bea, whose link this browser does not hold: Ann's turn only if the game says so.
    second = create(base, [{"name": "Bea"}, {"name": "Ann"}], seed=2)
    finished = finished_bot_game(base, "monopoly-cars2", seed=4)

    driver.get(f"{base}/table/{alone['id']}#seat=0&token={alone['seats'][0]['token']}")
    wait(driver, lambda d: body_data(d, "yourTurn") == "true", message="the table never said it is Ann's turn")
    assert driver.title.startswith("▶ Your turn · ")
    driver.get(f"{base}/table/{second['id']}#seat=1&token={second['seats'][1]['token']}")
    wait(driver, lambda d: body_data(d, "version") is not None)
    expected_second = 1 in waiting_for(base, second["id"])
    wait_data(driver, "yourTurn", str(expected_second).lower())
    assert driver.title.startswith("▶ Your turn") == expected_second
    driver.get(f"{base}/table/{alone['id']}")  # a spectator has no turn
    wait(driver, lambda d: body_data(d, "version") is not None)
    assert body_data(driver, "yourTurn") == "false" and not driver.title.startswith("▶")

    # The lobby: this browser holds Ann's seats of both games and the finished game's creator token.
    driver.execute_script("""
        const games = JSON.parse(localStorage.getItem('rulehouse.games') || '{}');
        games[arguments[0]] = { ruleset: 'monopoly-cars2', created: '2026-01-01', creator_token: 'x', seats: {} };
        localStorage.setItem('rulehouse.games', JSON.stringify(games));""", finished["game"]["id"])
    before = len(service.recorder.paths)
    driver.get(f"{base}/")
    wait_data(driver, "turnsMarked", "true")
    marks = {item.get_attribute("data-game"): (item.get_attribute("data-your-turn"), item.get_attribute("data-status"))
             for item in driver.find_elements(By.CSS_SELECTOR, "#mine li[data-game]")}
    assert marks == {alone["id"]: ("true", "active"), second["id"]: (str(expected_second).lower(), "active"),
                     finished["game"]["id"]: ("false", "finished")}
    turn = driver.find_element(By.CSS_SELECTOR, f'#mine li[data-game="{alone["id"]}"] .your-turn')
    assert "your turn" in turn.text
    waiting = 1 + expected_second
    assert driver.find_element(By.ID, "mine-turns").text == f"· {waiting} wait{'s' if waiting == 1 else ''} for you"
    assert driver.title.startswith(f"▶ Your turn ({waiting})")
    # One read per listed game, no more.
    reads = [path for path in service.recorder.paths[before:] if path.startswith("/v1/games/") and path.count("/") == 3]
    assert sorted(reads) == sorted(f"/v1/games/{game_id}?" for game_id in marks)
    assert console_errors(driver) == []
