"""The leaderboard page lists a rated game's players; a player's page, reached from it, lists their game."""

from __future__ import annotations

import requests
from selenium.webdriver.common.by import By

from tests.processes import wait_for
from tests.web.pages import BOT_GAMES, console_errors, wait, wait_data

RULESET = "whipcash"


def test_the_leaderboard_lists_a_rated_game_s_players_and_links_their_pages(service, browser):
    driver = browser
    players, options = BOT_GAMES[RULESET]
    seats = [{"name": f"Bot {seat + 1}", "bot": "heuristic", "player": f"bot:heuristic#{seat + 1}"}
             for seat in range(players)]
    made = requests.post(f"{service.url}/v1/games", json={"ruleset": RULESET, "seed": 4, "seats": seats,
                                                          "options": options, "rated": True}, timeout=10)
    assert made.status_code == 201, made.json()
    game_id = made.json()["id"]
    board = f"{service.url}/v1/ratings/{RULESET}"
    rated = wait_for(lambda: len(ratings := requests.get(board, timeout=10).json()["ratings"]) == players and ratings,
                     timeout=120)

    driver.get(f"{service.url}/leaderboard/{RULESET}")
    wait_data(driver, "ready", "true")
    rows = driver.find_elements(By.CSS_SELECTOR, "#ratings tbody tr")
    assert [row.get_attribute("data-player") for row in rows] == [entry["player"] for entry in rated]
    assert {row.get_attribute("data-player") for row in rows} == {seat["player"] for seat in seats}
    first = rows[0].find_elements(By.TAG_NAME, "td")
    assert first[2].text == f"{rated[0]['ordinal']:.2f}" and first[4].text == f"± {rated[0]['sigma']:.2f}"

    rows[0].find_element(By.TAG_NAME, "a").click()  # the player's page: its rating and its game
    wait(driver, lambda d: "/player/" in d.current_url)
    wait_data(driver, "ready", "true")
    assert driver.find_element(By.ID, "player-title").text == rated[0]["player"]
    assert driver.find_element(By.CSS_SELECTOR, f"#player-ratings tr[data-ruleset='{RULESET}']")
    assert driver.find_element(By.CSS_SELECTOR, f"#player-games li[data-game='{game_id}'] a").get_attribute(
        "href").endswith(f"/replay/{game_id}")
    assert console_errors(driver) == []
