"""The tournament page in a real browser: standings, rounds, and each game's replay."""

from __future__ import annotations

import pytest
import requests
from selenium.webdriver.common.by import By

from tests.web.pages import console_errors, off_screen, viewport, wait_data
from tests.workers.toy_race import registered


@pytest.fixture
def toy_race():
    with registered() as ruleset:  # the workers know the toy race; the service in this process too
        yield ruleset


def test_a_tournament_page_shows_standings_rounds_and_links_to_each_game(service, browser, toy_race):
    made = requests.post(f"{service.url}/v1/tournaments", json={
        "ruleset": "toy-race", "format": "round_robin", "table_size": 2, "options": {"goal": 6},
        "entrants": ["bot:random#1", "bot:random#2", "bot:random#3", "bot:random#4"]}, timeout=10)
    assert made.status_code == 201, made.text
    tournament_id = made.json()["id"]
    driver = browser
    driver.get(f"{service.url}/tournament/{tournament_id}")
    wait_data(driver, "status", "finished", timeout=90)
    rows = driver.find_elements(By.CSS_SELECTOR, "#standings tbody tr")
    assert [row.find_elements(By.TAG_NAME, "td")[0].text for row in rows] == ["1", "2", "3", "4"]
    final = requests.get(f"{service.url}/v1/tournaments/{tournament_id}", timeout=10).json()
    assert [row.get_attribute("data-entrant") for row in rows] == [s["entrant"] for s in final["standings"]]
    rounds = driver.find_elements(By.CSS_SELECTOR, "#rounds .round")
    assert [r.get_attribute("data-state") for r in rounds] == ["ended"] * 3
    links = driver.find_elements(By.CSS_SELECTOR, "#rounds a.game-link")
    games = [table["game"] for played in final["played"] for table in played["tables"]]
    assert [link.get_attribute("href").rsplit("/", 1)[1] for link in links] == games
    assert all("/replay/" in link.get_attribute("href") for link in links)
    assert console_errors(driver) == []
    with viewport(driver, 390, 844):  # a phone: the same standings and rounds, nothing off the screen
        driver.refresh()
        wait_data(driver, "status", "finished")
        assert len(driver.find_elements(By.CSS_SELECTOR, "#standings tbody tr")) == 4
        assert len(driver.find_elements(By.CSS_SELECTOR, "#rounds a.game-link")) == len(games)
        assert not (gone := off_screen(driver)), gone
