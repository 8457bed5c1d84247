"""The experiment page in a real browser, on an experiment the workers played."""

from __future__ import annotations

from selenium.webdriver.common.by import By

from api.experiments import lifecycle as experiments
from tests.processes import wait_for
from tests.web.pages import console_errors, off_screen, small_texts, viewport, wait_data


def test_experiment_page_draws_the_sweep_with_bands_and_the_sentence(service, browser, redis_db_url):
    import redis as redis_lib

    client = redis_lib.Redis.from_url(redis_db_url)
    exp_id = experiments.submit(client, {"ruleset": "monopoly-cars2", "players": 2,
                                         "sweep": {"starting_money": [6, 12, 24]}, "games": 120, "seed": 2})
    wait_for(lambda: experiments.status(client, exp_id)["status"] == "finished", timeout=90)
    driver = browser
    driver.get(f"{service.url}/experiments/{exp_id}")
    wait_data(driver, "experiment", "finished")
    wait_data(driver, "chart", "drawn")
    assert driver.find_element(By.ID, "exp-status").text.startswith("finished: 480 games")
    assert driver.find_element(By.ID, "exp-sentence").text.startswith("with starting_money=")
    for chart in ("exp-edge", "exp-seat-edge", "exp-turns", "exp-leads"):
        assert len(driver.find_elements(By.CSS_SELECTOR, f"#{chart} polygon.band")) == 1
        assert len(driver.find_elements(By.CSS_SELECTOR, f"#{chart} circle.point")) == 3
        assert driver.find_elements(By.CSS_SELECTOR, f"#{chart} line.reference")
    ticks = [t.text for t in driver.find_elements(By.CSS_SELECTOR, "#exp-turns text.tick")][3:]  # after the 3 y ticks
    assert ticks == ["6", "12", "24"]
    headers = [th.text for th in driver.find_elements(By.CSS_SELECTOR, "#exp-table th")]
    assert headers[3:5] == ["first mover wins", "edge"] and "seat 0 wins" in headers
    rows = driver.find_elements(By.CSS_SELECTOR, "#exp-table tr.variant")
    assert [row.find_element(By.TAG_NAME, "td").text for row in rows] == [
        "base", "starting_money=6", "starting_money=12", "starting_money=24"]
    assert console_errors(driver) == []
    assert not (small := small_texts(driver, ".chart text")), small
    with viewport(driver, 390, 844):  # a phone: every chart drawn again, nothing off the screen
        driver.refresh()
        wait_data(driver, "chart", "drawn")
        for chart in ("exp-edge", "exp-seat-edge", "exp-turns", "exp-leads"):
            box = driver.find_element(By.ID, chart).rect
            assert box["x"] >= 0 and box["x"] + box["width"] <= 390 and box["height"] > 100, (chart, box)
            assert len(driver.find_elements(By.CSS_SELECTOR, f"#{chart} circle.point")) == 3
        assert not (gone := off_screen(driver)), gone
        assert not (small := small_texts(driver, ".chart text")), small


def test_experiment_page_draws_the_drama_measures_along_the_sweep(service, browser, redis_db_url):
    import redis as redis_lib

    client = redis_lib.Redis.from_url(redis_db_url)
    exp_id = experiments.submit(client, {"ruleset": "monopoly-cars2", "players": 3,
                                         "sweep": {"starting_money": [6, 24]}, "games": 60, "seed": 2, "drama": True})
    wait_for(lambda: experiments.status(client, exp_id)["status"] == "finished", timeout=90)
    driver = browser
    driver.get(f"{service.url}/experiments/{exp_id}")
    wait_data(driver, "chart", "drawn")
    assert driver.find_element(By.ID, "exp-drama-panel").is_displayed()
    assert "Drama: the base is decided at" in driver.find_element(By.ID, "exp-sentence").text
    for chart in ("exp-decided", "exp-comebacks", "exp-kingmaker", "exp-skill"):
        assert len(driver.find_elements(By.CSS_SELECTOR, f"#{chart} polygon.band")) == 1, chart
        assert len(driver.find_elements(By.CSS_SELECTOR, f"#{chart} circle.point")) == 2, chart
    assert console_errors(driver) == []
