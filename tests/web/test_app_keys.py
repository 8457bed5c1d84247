"""The web table where the service requires app keys: it plays with a browser-safe (publishable) key."""

from __future__ import annotations

import requests
from selenium.webdriver.common.by import By

from api.apps.app_store import PUBLISHABLE, AppKeys
from api.ground.config import settings
from api.play.store import GameStore
from tests.web.pages import body_data, click_action, console_errors, enabled_actions, fill, wait, wait_data


def test_a_table_plays_with_a_publishable_key_entered_in_the_lobby(make_service, browser, redis_db_url):
    service = make_service(REQUIRE_API_KEYS=True)
    keys = AppKeys(GameStore.from_settings(settings({"REDIS_URL": redis_db_url})).redis)
    app_id, secret = keys.create_app("Table")
    browser_key = keys.create_key(app_id, PUBLISHABLE, (service.url,))
    game = requests.post(f"{service.url}/v1/games", headers={"X-Api-Key": secret}, timeout=10, json={
        "ruleset": "monopoly-cars2", "seed": 1, "seats": [{"name": "Ann"}, {"name": "Bo", "bot": "random"}]}).json()
    driver = browser
    driver.get(f"{service.url}/")
    driver.find_element(By.CSS_SELECTOR, "#key-panel summary").click()  # folded away: for developers
    fill(driver.find_element(By.ID, "api-key"), browser_key)
    driver.find_element(By.ID, "key-submit").click()
    wait_data(driver, "ready", "true")
    driver.get(f"{service.url}/table/{game['id']}#seat=0&token={game['seats'][0]['token']}")
    wait(driver, lambda d: body_data(d, "live") == "true" and enabled_actions(d))
    before = click_action(driver)  # finds the button again if a redraw replaced it (no stale element)
    wait(driver, lambda d: int(body_data(d, "version")) > before)
    calls = [key for path, key in service.recorder.api_keys if path.startswith(f"/v1/games/{game['id']}")]
    assert len(calls) >= 4 and set(calls) == {browser_key}  # the stream, reads and the move
    assert driver.find_element(By.ID, "problem").is_displayed() is False
    assert console_errors(driver) == []
