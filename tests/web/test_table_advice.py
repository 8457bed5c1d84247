"""A table's advice at a laptop's width (1280 px) and a phone's (390 px): a seat of a game with hints on asks for a
hint and sees the suggested move marked on its own buttons, then its public hint count; the live win-chances chart
shows for a seat that turns it on, for a spectator where the creator allowed it, and not where it did not."""

from __future__ import annotations

import json

import pytest
import requests
from selenium.webdriver.common.by import By

from tests.web.pages import body_data, console_errors, enabled_actions, viewport, wait, wait_data

WIDTHS = (1280, 390)


def new_game(base: str, seed: int, **options) -> dict:
    """Ann (a person, seat 0) against a heuristic bot at Whipca$h."""
    body = {"ruleset": "whipcash", "seed": seed, "seats": [{"name": "Ann"}, {"name": "Bob", "bot": "heuristic"}],
            **options}
    created = requests.post(f"{base}/v1/games", json=body, timeout=10)
    assert created.status_code == 201, created.text
    return created.json()


def seat_page(driver, base: str, game: dict) -> None:
    driver.get(f"{base}/table/{game['id']}#seat=0&token={game['seats'][0]['token']}")
    wait(driver, lambda d: enabled_actions(d), message="Ann's move never came")


@pytest.mark.parametrize("width", WIDTHS)
def test_a_seat_asks_for_a_hint_sees_it_on_its_button_and_its_hint_count(service, browser, width):
    driver = browser
    game = new_game(service.url, seed=7, hints=True)
    with viewport(driver, width, 844 if width < 600 else 800):
        seat_page(driver, service.url, game)
        count = '#seats li[data-seat="0"] .badge.hints'
        wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, count).text == "0 hints")
        wait(driver, lambda d: d.find_element(By.ID, "ask-hint").is_displayed())
        driver.find_element(By.ID, "ask-hint").click()
        marked = wait(driver, lambda d: [(button.get_attribute("data-action"), button.is_displayed()) for button
                                         in d.find_elements(By.CSS_SELECTOR, "#decisions button.action.hinted")],
                      message="no hint was marked")
        version = body_data(driver, "version")
        assert body_data(driver, "hintVersion") == version
        hint = requests.get(f"{service.url}/v1/games/{game['id']}/hint",
                            headers={"Authorization": f"Bearer {game['seats'][0]['token']}"}, timeout=10).json()
        assert hint["version"] == int(version)
        action, displayed = marked[0]
        assert displayed
        if action:  # a button of its own (a ranged form's button is marked with its inputs filled)
            assert json.loads(action) == hint["action"]
        wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#decisions button.action.hinted").click() or True)
        # The hint counts once the game has moved on from its version: the seats list shows it to everyone.
        wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, count).text == "1 hint")
        assert console_errors(driver) == []


@pytest.mark.parametrize("width", WIDTHS)
def test_the_live_chances_chart_shows_where_allowed_and_not_elsewhere(service, browser, width):
    driver = browser
    shown = new_game(service.url, seed=3, win_chances="spectators")
    private = new_game(service.url, seed=3)
    hinted = new_game(service.url, seed=3, hints=True)
    with viewport(driver, width, 844 if width < 600 else 800):
        # A spectator where the creator allowed it: the chart at once, at the game's version.
        driver.get(f"{service.url}/table/{shown['id']}")
        wait_data(driver, "status", "active")
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#win-chances svg polyline.line"),
             message="the spectator's chart never showed")
        assert driver.find_element(By.ID, "win-chances-panel").is_displayed()
        assert len(driver.find_elements(By.CSS_SELECTOR, "#win-chances svg polyline.line")) == 2
        assert "Ann" in driver.find_element(By.ID, "win-chances-words").text
        assert int(body_data(driver, "chancesVersion")) <= int(body_data(driver, "version"))
        # A spectator where it did not: no chart (the page drew the game, and asked nothing).
        driver.get(f"{service.url}/table/{private['id']}")
        wait_data(driver, "status", "active")
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board *"))
        assert not driver.find_element(By.ID, "win-chances-panel").is_displayed()
        assert body_data(driver, "chancesVersion") is None
        # A seat where hints are on: its chart once it asks (each version it watches counts as a hint).
        seat_page(driver, service.url, hinted)
        assert not driver.find_elements(By.CSS_SELECTOR, "#win-chances svg")
        driver.find_element(By.ID, "show-chances").click()
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#win-chances svg polyline.line"),
             message="the seat's chart never showed")
        assert body_data(driver, "chancesVersion") == body_data(driver, "version")
        assert console_errors(driver) == []
