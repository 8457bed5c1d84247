"""The "was it luck?" page of a finished game of every ruleset at a laptop's width (1280 px) and a phone's (390 px):
it waits for the analysis (the 202's progress), then draws each seat's win chance along the game (each move a link to
the replay at its step), the luck-skill split, a key moment in words and each seat's costliest move; the finished
table and the replay link to it."""

from __future__ import annotations

import pytest
import requests
from selenium.webdriver.common.by import By

from api.apps.app_store import PUBLISHABLE, AppKeys
from api.ground.config import settings
from api.play.store import GameStore
from tests.processes import wait_for
from tests.web.pages import (
    BOT_GAMES,
    body_data,
    console_errors,
    fill,
    finished_bot_game,
    off_screen,
    viewport,
    wait,
    wait_data,
)

#: an analysis plays out every option of every move: a short game's takes seconds, on a loaded machine more
ANALYSIS_TIMEOUT = 300


@pytest.mark.parametrize("ruleset", sorted(BOT_GAMES))
def test_the_analysis_page_draws_the_chances_the_split_and_a_key_moment_and_links_to_the_replay(
        service, browser, ruleset):
    driver = browser
    case = finished_bot_game(service.url, ruleset, seed=5)
    game_id = case["game"]["id"]
    names = [seat["name"] for seat in case["game"]["seats"]]
    with viewport(driver, 1280, 800):
        driver.get(f"{service.url}/table/{game_id}")
        wait_data(driver, "status", "finished")
        link = wait(driver, lambda d: d.find_elements(By.ID, "over-analysis"))[0]
        assert link.is_displayed() and link.get_attribute("href") == f"{service.url}/analysis/{game_id}"
        link.click()
        wait(driver, lambda d: body_data(d, "analysis") in ("pending", "ready"))
        wait_data(driver, "analysis", "ready", timeout=ANALYSIS_TIMEOUT)
    analysis = requests.get(f"{service.url}/v1/games/{game_id}/analysis", timeout=10).json()
    assert analysis["status"] == "ready"
    for width in (1280, 390):
        with viewport(driver, width, 844 if width < 600 else 800):
            driver.get(f"{service.url}/analysis/{game_id}")
            wait_data(driver, "analysis", "ready", timeout=60)
            chart = driver.find_element(By.CSS_SELECTOR, "#chances svg.chances")
            assert chart.is_displayed()
            assert len(chart.find_elements(By.CSS_SELECTOR, "polyline.line")) == len(names)
            columns = chart.find_elements(By.CSS_SELECTOR, "a.column")
            assert len(columns) == len(analysis["chances"])
            bars = driver.find_elements(By.CSS_SELECTOR, "#split svg rect.part")
            assert bars and {bar.get_attribute("data-part") for bar in bars} <= {"skill", "luck", "others", "drift"}
            split_words = [line.text for line in driver.find_elements(By.CSS_SELECTOR, "#split-words li")]
            assert [line.split(":")[0] for line in split_words] == names and all("mostly" in w for w in split_words)
            moments = driver.find_elements(By.CSS_SELECTOR, "#moments li")
            assert len(moments) == len(analysis["key_moments"]) > 0
            first = analysis["key_moments"][0]
            assert moments[0].text.startswith(names[first["affected"]]) and "at move" in moments[0].text
            costly = [line.text for line in driver.find_elements(By.CSS_SELECTOR, "#costly li")]
            for name, part, line in zip(names, analysis["split"], costly, strict=True):
                assert line.startswith(name), line
                assert ("the best was" in line) == (part["costliest_move"] is not None), line
            if width < 600:
                assert not (outside := off_screen(driver)), outside
            assert console_errors(driver) == []
    # A move on the chart opens the replay at its step: the board drawn there is that version's.
    with viewport(driver, 1280, 800):
        driver.get(f"{service.url}/analysis/{game_id}")
        wait_data(driver, "analysis", "ready", timeout=60)
        middle = len(analysis["chances"]) // 2
        columns = driver.find_elements(By.CSS_SELECTOR, "#chances a.column")
        assert len(columns) == len(analysis["chances"])
        column = columns[middle]
        column.click()
        wait(driver, lambda d: "/replay/" in d.current_url, message="the chart's move did not open the replay")
        step = int(driver.current_url.rsplit("step=", 1)[1])
        versions = case["versions"]
        assert versions[step] <= middle and (step + 1 == len(versions) or versions[step + 1] > middle)
        wait(driver, lambda d: body_data(d, "drawnStep") == str(step))
        back = driver.find_element(By.ID, "to-analysis")
        assert back.is_displayed() and back.get_attribute("href") == f"{service.url}/analysis/{game_id}"


def test_the_page_starts_and_reads_an_analysis_with_a_publishable_key_where_keys_are_required(
        make_service, browser, redis_db_url):
    """An analysis counts against the app of the key that asks it first: the page's publishable key counts
    against its own app's search work (a publishable key's own quotas are the pages' lobby and play)."""
    service = make_service(REQUIRE_API_KEYS=True)
    keys = AppKeys(GameStore.from_settings(settings({"REDIS_URL": redis_db_url})).redis)
    app_id, secret = keys.create_app("Analyst")
    browser_key = keys.create_key(app_id, PUBLISHABLE, (service.url,))
    headers = {"X-Api-Key": secret}
    seats = [{"name": f"Bot {seat + 1}", "bot": "heuristic"} for seat in range(2)]
    game = requests.post(f"{service.url}/v1/games", headers=headers, timeout=10, json={
        "ruleset": "monopoly-cars2", "seed": 2, "seats": seats, "options": {"turn_cap": 8}}).json()
    url = f"{service.url}/v1/games/{game['id']}"
    wait_for(lambda: requests.get(url, headers=headers, timeout=10).json()["status"] == "finished", timeout=120)
    driver = browser
    driver.get(f"{service.url}/")
    driver.find_element(By.CSS_SELECTOR, "#key-panel summary").click()  # the lobby folds the app key away
    fill(driver.find_element(By.ID, "api-key"), browser_key)
    driver.find_element(By.ID, "key-submit").click()
    wait_data(driver, "ready", "true")
    driver.get(f"{service.url}/analysis/{game['id']}")
    wait_data(driver, "analysis", "ready", timeout=ANALYSIS_TIMEOUT)
    assert not driver.find_element(By.ID, "key-panel").is_displayed()
    assert driver.find_elements(By.CSS_SELECTOR, "#chances svg polyline.line")
    asked = [key for path, key in service.recorder.api_keys if path.startswith(f"/v1/games/{game['id']}/analysis")]
    assert asked and set(asked) == {browser_key}
    driver.execute_script("localStorage.removeItem('rulehouse.apiKey');")  # the next tests' pages send no key


def test_while_the_analysis_waits_for_its_workers_the_page_shows_its_progress_and_draws_it_when_ready(
        service, workers, browser):
    driver = browser
    case = finished_bot_game(service.url, "whipcash", seed=4)
    game_id = case["game"]["id"]
    workers.stop()  # nobody takes the analysis job: it stays queued, and the API answers 202
    driver.get(f"{service.url}/analysis/{game_id}")
    wait_data(driver, "analysis", "pending")
    assert driver.find_element(By.ID, "pending-panel").is_displayed()
    assert driver.find_element(By.ID, "progress").is_displayed()
    assert "queued" in driver.find_element(By.ID, "progress-text").text
    assert not driver.find_element(By.ID, "chances-panel").is_displayed()
    workers.start(1)  # the page asks again by itself, and draws the analysis once it is ready
    wait_data(driver, "analysis", "ready", timeout=ANALYSIS_TIMEOUT)
    assert not driver.find_element(By.ID, "pending-panel").is_displayed()
    assert driver.find_elements(By.CSS_SELECTOR, "#chances svg polyline.line")
    assert console_errors(driver) == []
