"""The lobby's create form: hints and spectators' win chances, exclusive with rated; games by a readable
name; a copy button per seat link; the developer panels folded away."""

from __future__ import annotations

import requests
from selenium.webdriver.common.by import By

from tests.web.pages import console_errors, create_in_lobby, wait, wait_data


def _checked(driver, element_id: str) -> bool:
    return driver.find_element(By.ID, element_id).is_selected()


def test_hints_and_spectators_chances_reach_the_game_and_exclude_rated(service, browser):
    driver = browser
    driver.get(f"{service.url}/")
    wait_data(driver, "ready", "true")
    assert not driver.find_element(By.ID, "api-key").is_displayed()  # the app key: folded away
    assert driver.find_element(By.ID, "key-panel").tag_name == "details"
    for box in ("create-hints", "create-spectator-chances"):  # rated clears the helps, a help clears rated
        driver.find_element(By.ID, box).click()
        driver.find_element(By.ID, "create-rated").click()
        assert _checked(driver, "create-rated") and not _checked(driver, box)
        driver.find_element(By.ID, box).click()
        assert _checked(driver, box) and not _checked(driver, "create-rated")
    driver.find_element(By.ID, "create-hints").click()  # rated cleared it: both helps on now
    assert _checked(driver, "create-hints") and _checked(driver, "create-spectator-chances")

    game_id = create_in_lobby(driver, service.url, "whipcash", [("person", "Ann"), ("bot:heuristic", "Robo")],
                              keep_form=True)
    game = requests.get(f"{service.url}/v1/games/{game_id}", timeout=10).json()
    assert (game["hints"], game["win_chances"], game["rated"]) == (True, "spectators", False)

    copy = driver.find_element(By.CSS_SELECTOR, "#created-seats li button.copy")  # a copy button per seat link
    copy.click()
    wait(driver, lambda d: copy.get_attribute("data-copied") == "true")
    assert copy.text == "copied"

    driver.get(f"{service.url}/")  # the game listed by its title and seats, not its id
    wait_data(driver, "ready", "true")
    name = driver.find_element(By.CSS_SELECTOR, f'#mine li[data-game="{game_id}"] .game-name').text
    assert name == "Whipca$h: Ann, Robo"
    assert console_errors(driver) == []


def test_a_rated_game_from_the_lobby_names_its_players(service, browser):
    driver = browser
    driver.get(f"{service.url}/")
    wait_data(driver, "ready", "true")
    driver.find_element(By.ID, "create-rated").click()
    game_id = create_in_lobby(driver, service.url, "whipcash", [("person", "ann"), ("bot:heuristic", "Robo")],
                              keep_form=True)
    game = requests.get(f"{service.url}/v1/games/{game_id}", timeout=10).json()
    assert game["rated"] is True and game["hints"] is False
    assert [seat["player"] for seat in game["seats"]] == ["ann", "bot:heuristic#2"]
