"""A table's advice at a laptop's width (1280 px) and a phone's (390 px): a seat of a game with hints on asks for a
hint and sees the suggested move marked on its own buttons, then its public hint count (every ruleset); the live
win-chances chart shows for a seat that turns it on, for a spectator where the creator allowed it, and not where it
did not."""

from __future__ import annotations

import json

import pytest
import requests
from selenium.webdriver.common.by import By

from tests.web.pages import BOT_GAMES, body_data, console_errors, enabled_actions, viewport, wait, wait_data

WIDTHS = (1280, 390)


def new_game(base: str, seed: int, ruleset: str = "whipcash", players: int = 2, **options) -> dict:
    """Ann (a person, seat 0) against heuristic bots (Bob, Cy, ...), at Whipca$h unless told."""
    bots = [{"name": name, "bot": "heuristic"} for name in ("Bob", "Cy", "Di", "Ed")[: players - 1]]
    body = {"ruleset": ruleset, "seed": seed, "seats": [{"name": "Ann"}, *bots], **options}
    created = requests.post(f"{base}/v1/games", json=body, timeout=10)
    assert created.status_code == 201, created.text
    return created.json()


def seat_page(driver, base: str, game: dict) -> None:
    driver.get(f"{base}/table/{game['id']}#seat=0&token={game['seats'][0]['token']}")
    wait(driver, lambda d: enabled_actions(d), message="Ann's move never came")


def ask_a_hint_and_play_it(driver, base: str, game: dict, hints_before: int) -> None:
    """On Ann's page, her move pending: asks a hint, finds it marked on her own button (the search's action), plays
    it, and sees her public hint count go up by one."""
    count = '#seats li[data-seat="0"] .badge.hints'

    def hints_shown(number: int) -> str:
        return f"{number} hint" + ("" if number == 1 else "s")

    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, count).text == hints_shown(hints_before))
    wait(driver, lambda d: enabled_actions(d) and d.find_element(By.ID, "ask-hint").is_displayed(),
         message="Ann's move (and its hint button) never came")
    driver.find_element(By.ID, "ask-hint").click()
    marked = wait(driver, lambda d: [(button.get_attribute("data-action"), button.is_displayed()) for button
                                     in d.find_elements(By.CSS_SELECTOR, "#decisions button.action.hinted")],
                  message="no hint was marked")
    version = body_data(driver, "version")
    assert body_data(driver, "hintVersion") == version
    hint = requests.get(f"{base}/v1/games/{game['id']}/hint",
                        headers={"Authorization": f"Bearer {game['seats'][0]['token']}"}, timeout=10).json()
    assert hint["version"] == int(version)
    action, displayed = marked[0]
    assert displayed
    if action:  # a button of its own (a ranged form's button is marked with its inputs filled)
        assert json.loads(action) == hint["action"]
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#decisions button.action.hinted").click() or True)
    # The hint counts once the game has moved on from its version: the seats list shows it to everyone.
    wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, count).text == hints_shown(hints_before + 1))


@pytest.mark.parametrize("ruleset", sorted(BOT_GAMES))
def test_a_seat_asks_for_a_hint_sees_it_on_its_button_and_its_hint_count(service, browser, ruleset):
    """One game per ruleset: Ann's first hint at 1280 px, her next one (the next version) at 390."""
    driver = browser
    players, _ = BOT_GAMES[ruleset]
    game = new_game(service.url, seed=7, ruleset=ruleset, players=players, hints=True)
    for hints_before, width in enumerate(WIDTHS):
        with viewport(driver, width, 844 if width < 600 else 800):
            seat_page(driver, service.url, game)
            ask_a_hint_and_play_it(driver, service.url, game, hints_before)
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
