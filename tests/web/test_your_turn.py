""""Your turn": a seat's table says so in the tab's title while its decision is pending, and the lobby marks
which of this browser's games wait for it (one read per listed game, then again every few seconds for the
games that may still change: the marks come and go without a reload)."""

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


def play_until(base: str, game: dict, seat: int, done) -> None:
    """``seat`` plays its first options (through the API, as its player's page would) until ``done(waiting_for)``."""
    headers = {"Authorization": f"Bearer {game['seats'][seat]['token']}"}
    url = f"{base}/v1/games/{game['id']}"
    for _ in range(50):
        if done(waiting_for(base, game["id"])):
            return
        pending = requests.get(f"{url}/decisions", headers=headers, timeout=10).json()
        answer = requests.post(f"{url}/actions", json=pending["decisions"][0]["options"][0],
                               headers={**headers, "If-Match": f'"{pending["version"]}"'}, timeout=10)
        assert answer.status_code == 200, answer.text
    raise AssertionError(f"seat {seat} never got there")


def test_the_lobbys_your_turn_marks_come_and_go_as_the_games_move_without_a_reload(service, browser):
    driver, base = browser, service.url
    # Bea (whose link this browser does not hold) plays first, then Ann (whose seat it holds).
    game = create(base, [{"name": "Bea"}, {"name": "Ann"}], seed=7)
    assert waiting_for(base, game["id"]) == [0]
    gone = create(base, [{"name": "Ann"}, {"name": "Bo", "bot": "heuristic"}], seed=8)
    deleted = requests.delete(f"{base}/v1/games/{gone['id']}", timeout=10,
                              headers={"Authorization": f"Bearer {gone['creator_token']}"})
    assert deleted.status_code == 204
    driver.get(f"{base}/")
    wait_data(driver, "turnsMarked", "true")  # this first page has listed (none of) this browser's games
    driver.execute_script("""
        const seat = (number, token) => ({ [number]: { name: 'Ann', token } });
        localStorage.setItem('rulehouse.games', JSON.stringify({
          [arguments[0]]: { ruleset: 'monopoly-cars2', created: '2026-01-02', seats: seat(1, arguments[1]) },
          [arguments[2]]: { ruleset: 'monopoly-cars2', created: '2026-01-01', seats: seat(0, arguments[3]) } }));""",
                          game["id"], game["seats"][1]["token"], gone["id"], gone["seats"][0]["token"])
    before = len(service.recorder.paths)
    driver.get(f"{base}/")
    wait_data(driver, "turnsMarked", "true")
    driver.execute_script("window.sameLobby = true;")  # gone if the page is ever loaded again
    item = f'#mine li[data-game="{game["id"]}"]'

    def mark(d) -> tuple[str | None, str]:
        found = d.find_element(By.CSS_SELECTOR, item)
        return found.get_attribute("data-your-turn"), found.find_element(By.CSS_SELECTOR, ".game-status").text

    assert mark(driver)[0] == "false" and not driver.title.startswith("▶")
    gone_item = driver.find_element(By.CSS_SELECTOR, f'#mine li[data-game="{gone["id"]}"]')
    assert gone_item.get_attribute("data-status") == "gone"

    play_until(base, game, 0, lambda waiting: 1 in waiting)  # Bea's move: now Ann's turn
    wait(driver, lambda d: mark(d) == ("true", "▶ your turn"), timeout=30, message="the mark never came")
    assert driver.title.startswith("▶ Your turn (1) · ")
    assert driver.find_element(By.ID, "mine-turns").text == "· 1 waits for you"

    play_until(base, game, 1, lambda waiting: 1 not in waiting)  # Ann played (from her table): Bea's turn again
    wait(driver, lambda d: mark(d)[0] == "false", timeout=30, message="the mark never went")
    assert "your turn" not in mark(driver)[1] and not driver.title.startswith("▶")
    assert driver.find_element(By.ID, "mine-turns").text == ""
    assert driver.execute_script("return window.sameLobby === true;")  # never reloaded
    # The deleted game, whose status never changes again, was read once (the running one again and again).
    reads = [path for path in service.recorder.paths[before:] if path.startswith("/v1/games/") and path.count("/") == 3]
    assert reads.count(f"/v1/games/{gone['id']}?") == 1
    assert console_errors(driver) == []
