"""At a laptop's width (1280 px) and a phone's (390 px), the leaderboard page lists a rated game's players; a
player's page, reached from it, lists their game."""

from __future__ import annotations

import requests
from selenium.webdriver.common.by import By

from api.apps.app_store import PUBLISHABLE, AppKeys
from api.ground.config import settings
from api.play.store import GameStore
from tests.processes import wait_for
from tests.web.pages import BOT_GAMES, console_errors, fill, in_first_screen, off_screen, viewport, wait, wait_data

RULESET = "whipcash"
#: a laptop's width and a phone's (CSS pixels)
WIDTHS = (1280, 390)


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

    for width in WIDTHS:
        with viewport(driver, width, 844 if width < 600 else 800):
            driver.get(f"{service.url}/leaderboard/{RULESET}")
            wait_data(driver, "ready", "true")
            rows = driver.find_elements(By.CSS_SELECTOR, "#ratings tbody tr")
            assert [row.get_attribute("data-player") for row in rows] == [entry["player"] for entry in rated]
            assert {row.get_attribute("data-player") for row in rows} == {seat["player"] for seat in seats}
            first = rows[0].find_elements(By.TAG_NAME, "td")
            assert first[2].text == f"{rated[0]['ordinal']:.2f}" and first[4].text == f"± {rated[0]['sigma']:.2f}"
            assert all(in_first_screen(driver, row.find_element(By.TAG_NAME, "a")) for row in rows)
            assert not (gone := off_screen(driver)), gone  # nothing off the screen, on a phone too

            rows[0].find_element(By.TAG_NAME, "a").click()  # the player's page: its rating and its game
            wait(driver, lambda d: "/player/" in d.current_url)
            wait_data(driver, "ready", "true")
            assert driver.find_element(By.ID, "player-title").text == rated[0]["player"]
            assert driver.find_element(By.CSS_SELECTOR, f"#player-ratings tr[data-ruleset='{RULESET}']")
            game_link = driver.find_element(By.CSS_SELECTOR, f"#player-games li[data-game='{game_id}'] a")
            assert game_link.is_displayed() and game_link.get_attribute("href").endswith(f"/replay/{game_id}")
            assert not (gone := off_screen(driver)), gone
            assert console_errors(driver) == []


def test_a_player_page_with_the_publishable_key_asks_for_the_secret_one(make_service, browser, redis_db_url):
    service = make_service(REQUIRE_API_KEYS=True)
    keys = AppKeys(GameStore.from_settings(settings({"REDIS_URL": redis_db_url})).redis)
    app_id, secret = keys.create_app("League")
    browser_key = keys.create_key(app_id, PUBLISHABLE, (service.url,))
    driver = browser
    driver.get(f"{service.url}/")
    driver.find_element(By.CSS_SELECTOR, "#key-panel summary").click()
    fill(driver.find_element(By.ID, "api-key"), browser_key)
    driver.find_element(By.ID, "key-submit").click()
    wait_data(driver, "ready", "true")
    driver.get(f"{service.url}/player/ann")
    # The publishable key may not list a player's games: the page says so and opens the key panel.
    wait(driver, lambda d: d.find_element(By.ID, "problem").is_displayed())
    assert driver.find_element(By.ID, "key-panel").get_attribute("open") is not None
    assert "secret key" in driver.find_element(By.ID, "key-needed").text
    fill(driver.find_element(By.ID, "api-key"), secret)  # the secret key: the page reads the player (unknown: 404)
    driver.find_element(By.ID, "key-submit").click()
    wait(driver, lambda d: "no player" in d.find_element(By.ID, "problem").text)
