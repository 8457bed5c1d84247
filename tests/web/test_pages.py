"""The simulation page and the API reference in a real browser."""

from __future__ import annotations

from selenium.webdriver.common.by import By

from tests.web.pages import (
    body_data,
    console_errors,
    create_in_lobby,
    fill,
    off_screen,
    select,
    small_texts,
    viewport,
    wait,
    wait_data,
)


def test_simulation_page_runs_one_on_the_workers_and_charts_it(service, browser):
    driver = browser
    driver.get(f"{service.url}/simulate")
    wait_data(driver, "ready", "true")
    select(driver, "sim-ruleset", "monopoly-cars2")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#sim-options .option"))
    fill(driver.find_element(By.ID, "sim-players"), "3")
    driver.find_element(By.ID, "sim-games").click()  # leaves the players field: its change redraws the bots
    bots = wait(driver, lambda d: len(found := d.find_elements(By.CSS_SELECTOR, "#sim-bots select")) == 3 and found)
    select_bot = bots[0]
    select_bot.find_element(By.CSS_SELECTOR, "option[value=random]").click()
    fill(driver.find_element(By.ID, "sim-games"), "60")
    fill(driver.find_element(By.ID, "sim-seed"), "5")
    fill(driver.find_element(By.CSS_SELECTOR, "#sim-options .option[name=turn_cap]"), "300")
    driver.find_element(By.ID, "sim-submit").click()
    wait_data(driver, "chart", "drawn")
    assert driver.find_element(By.ID, "sim-status").text.startswith("finished: 60 of 60 games")
    bars = driver.find_elements(By.CSS_SELECTOR, "#sim-winrates rect.bar")
    assert len(bars) == 3
    labels = [label.text for label in driver.find_elements(By.CSS_SELECTOR, "#sim-winrates text.label")]
    assert labels == ["seat 0 (random)", "seat 1 (heuristic)", "seat 2 (heuristic)"]
    assert len(driver.find_elements(By.CSS_SELECTOR, "#sim-winrates line.whisker")) == 3
    positions = [label.text for label in driver.find_elements(By.CSS_SELECTOR, "#sim-positions text.label")]
    assert positions == ["1st (first mover)", "2nd", "3rd"]
    assert len(driver.find_elements(By.CSS_SELECTOR, "#sim-positions line.whisker")) == 3
    assert driver.find_elements(By.CSS_SELECTOR, "#sim-lengths rect.bar")
    summary = driver.find_element(By.ID, "sim-summary").text
    assert "60 games" in summary and "first mover's edge" in summary
    assert console_errors(driver) == []
    assert not (small := small_texts(driver, ".chart text")), small
    with viewport(driver, 390, 844):  # a phone: the form and the charts, nothing off the screen
        assert not (gone := off_screen(driver)), gone
        for chart in ("sim-winrates", "sim-positions", "sim-lengths"):
            box = driver.find_element(By.ID, chart).rect
            assert box["x"] >= 0 and box["x"] + box["width"] <= 390 and box["height"] > 60, (chart, box)
        # The charts are drawn again at the phone's width (the window's resize), their labels still readable.
        wait(driver, lambda d: not small_texts(d, ".chart text"), message="chart labels too small at 390 px")
        assert len(driver.find_elements(By.CSS_SELECTOR, "#sim-winrates rect.bar")) == 3


def test_docs_page_is_swagger_ui_served_offline(service, browser):
    driver = browser
    driver.get(f"{service.url}/docs")
    operations = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".opblock-summary-path"))
    paths = {operation.get_attribute("data-path") or operation.text for operation in operations}
    assert "/v1/games/{game_id}/actions" in {path.replace("\u200b", "") for path in paths}
    # Every request the page made went to this server.
    requested = driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name);")
    assert requested and all(url.startswith(service.url) for url in requested)
    assert console_errors(driver) == []


def test_every_api_request_of_the_pages_carries_the_configured_app_key(make_service, browser, redis_db_url):
    from api.apps.app_store import AppKeys
    from api.ground.config import settings
    from api.play.store import GameStore

    # A real key (an unknown one is refused); the local service does not require keys, so any works.
    _, secret = AppKeys(GameStore.from_settings(settings({"REDIS_URL": redis_db_url})).redis).create_app("Web")
    service = make_service(WEB_API_KEY=secret)
    driver = browser
    game_id = create_in_lobby(driver, service.url, "monopoly-cars2", [("person", "Ann"), ("bot:random", "Bo")])
    driver.find_element(By.CSS_SELECTOR, "#created-seats a.play-link").click()
    wait(driver, lambda d: body_data(d, "version") is not None and body_data(d, "live") == "true")
    driver.get(f"{service.url}/replay/{game_id}")
    wait_data(driver, "ready", "true")
    calls = [(path, key) for path, key in service.recorder.api_keys if path.startswith("/v1/")]
    paths = {path for path, _ in calls}
    assert {"/v1/rulesets", "/v1/games", f"/v1/games/{game_id}/stream", f"/v1/games/{game_id}/events"} <= paths
    assert {key for _, key in calls} == {secret}
