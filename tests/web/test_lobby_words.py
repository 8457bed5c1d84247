"""Words, not codes, where a player reads the lobby, a player's page and a tournament's (issue 43): the
bots by their names (the search bot once, with its levels, never "mcts-2"), seats by name and counted from 1
(never "seat 0"), a game known only from a seat link named from its view (never "A game"), games and
tournaments by their game's title and format (never "toy-race" or "round_robin")."""

from __future__ import annotations

import re

import pytest
import requests
from selenium.webdriver.common.by import By

from tests.web.pages import console_errors, off_screen, viewport, wait, wait_data
from tests.workers.toy_race import registered

#: the search bots of every ruleset, as the lobby lists them (an en dash between the levels)
SEARCH_BOTS = "Search bot (levels 1\u20135)"
#: what the engine calls things, never for a player to read
CODES = re.compile(r"mcts|\bseat 0\b|\bA game\b|bot:|round_robin|toy-race", re.IGNORECASE)


def _main_text(driver) -> str:
    return driver.find_element(By.ID, "main").text


def _game_item(driver, game_id: str):
    return driver.find_element(By.CSS_SELECTOR, f'#mine li[data-game="{game_id}"]')


def test_the_lobby_names_bots_seats_and_games_in_words(service, browser):
    driver, base = browser, service.url
    # Ann against a named heuristic bot and an unnamed level-2 search bot (a bot seat without a name).
    made = requests.post(f"{base}/v1/games", json={"ruleset": "whipcash", "seats": [
        {"name": "Ann"}, {"name": "Robo", "bot": "heuristic"}, {"bot": "mcts-2"}]}, timeout=10).json()
    game_id, token = made["id"], made["seats"][0]["token"]
    driver.get(f"{base}/")
    wait_data(driver, "ready", "true")
    # What a table opened from Ann's seat link keeps (table.js): her seat's token, no ruleset, no names.
    driver.execute_script("""localStorage.setItem('rulehouse.games', JSON.stringify(
        { [arguments[0]]: { seats: { 0: { token: arguments[1] } } } }));""", game_id, token)

    # The unnamed bot as its table names it (the service calls it "mcts-2 bot").
    expected_name = "Whipca$h: Ann, Robo, Seat 3 · Search bot, level 2"
    for width, height in ((1280, 900), (390, 844)):
        with viewport(driver, width, height):
            driver.get(f"{base}/")
            wait_data(driver, "ready", "true")
            wait(driver, lambda d: _game_item(d, game_id).find_element(By.CSS_SELECTOR, ".game-name").text
                 == expected_name, message="the game known from a seat link was not named from its view")
            item = _game_item(driver, game_id)
            plays = [link.text for link in item.find_elements(By.CSS_SELECTOR, "a.play-seat")]
            assert plays == ["play as Ann (seat 1)"]
            bots = {item.get_attribute("data-ruleset"): item.find_element(By.CSS_SELECTOR, ".ruleset-bots").text
                    for item in driver.find_elements(By.CSS_SELECTOR, "#rulesets li[data-ruleset]")}
            assert bots["whipcash"] == f"Heuristic bot, {SEARCH_BOTS}, Random bot"
            assert all(SEARCH_BOTS in named and "Random bot" in named for named in bots.values()), bots
            # The links panel names the seat as the list does.
            item.find_element(By.CSS_SELECTOR, "button.show-links").click()
            wait(driver, lambda d: d.find_element(By.ID, "created-panel").is_displayed())
            assert [link.text for link in driver.find_elements(By.CSS_SELECTOR, "#created-seats a.play-link")] \
                == ["Play as Ann (seat 1)"]
            assert not (codes := CODES.findall(_main_text(driver))), codes
            assert not (gone := off_screen(driver)), gone
    # Kept in this browser: the next lobby names the game before reading it.
    stored = driver.execute_script("return JSON.parse(localStorage.getItem('rulehouse.games'))[arguments[0]];", game_id)
    assert stored["ruleset"] == "whipcash" and stored["names"] == ["Ann", "Robo", "Seat 3 · Search bot, level 2"]
    assert stored["seats"]["0"] == {"token": token, "name": "Ann"}
    assert console_errors(driver) == []


@pytest.fixture
def toy_race():
    with registered() as ruleset:  # the workers know the toy race; the service in this process too
        yield ruleset


def test_tournament_and_player_pages_name_the_game_and_the_format(service, browser, toy_race):
    driver, base = browser, service.url
    made = requests.post(f"{base}/v1/tournaments", json={
        "ruleset": "toy-race", "format": "round_robin", "table_size": 2, "options": {"goal": 6}, "rated": True,
        "entrants": ["bot:random#1", "bot:random#2", "bot:random#3", "bot:random#4"]}, timeout=10)
    assert made.status_code == 201, made.text
    driver.get(f"{base}/tournament/{made.json()['id']}")
    wait_data(driver, "status", "finished", timeout=90)
    assert driver.find_element(By.ID, "tournament-title").text == "Round robin tournament of Toy race"
    assert driver.find_element(By.ID, "tournament-status").text.startswith("finished · 4 entrants")
    entrants = [row.find_elements(By.TAG_NAME, "td")[1].text
                for row in driver.find_elements(By.CSS_SELECTOR, "#standings tbody tr")]
    assert sorted(entrants) == ["Random bot #1", "Random bot #2", "Random bot #3", "Random bot #4"]
    assert not (codes := CODES.findall(_main_text(driver))), codes

    with viewport(driver, 390, 844):
        driver.get(f"{base}/player/{requests.utils.quote('bot:random#1', safe='')}")
        wait_data(driver, "ready", "true")
        links = [link.text for link in driver.find_elements(By.CSS_SELECTOR, "#player-games a.game-link")]
        assert links and all(text == "Toy race · finished" for text in links), links
        rating = driver.find_element(By.CSS_SELECTOR, "#player-ratings tr[data-ruleset='toy-race'] a")
        assert rating.text == "Toy race"
        assert driver.find_element(By.ID, "player-title").text == "Random bot #1"
        # The player's id (what the API and the leaderboard link by) stays in small print: left out.
        body = _main_text(driver).replace(driver.find_element(By.ID, "player-id").text, "")
        assert not (codes := CODES.findall(body)), codes
        assert not (gone := off_screen(driver)), gone
    assert console_errors(driver) == []
