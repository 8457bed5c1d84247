"""The tournament and experiment forms (in the page menu), at a laptop's width (1280 px) and a phone's (390 px): each
creates its thing and leads to its page, which shows what was asked (the entrants; the sweep's summary sentence)."""

from __future__ import annotations

import pytest
import requests
from selenium.webdriver.common.by import By

from tests.web.pages import console_errors, fill, in_first_screen, off_screen, select, viewport, wait, wait_data

#: a laptop's width and a phone's (CSS pixels)
WIDTHS = (1280, 390)


def open_from_menu(driver, base: str, link: str) -> None:
    """Opens a form from the menu, as a person would (it shows at every width), and checks that the form fits."""
    driver.get(f"{base}/")
    wait(driver, lambda d: d.find_element(By.LINK_TEXT, link).is_displayed())
    driver.find_element(By.LINK_TEXT, link).click()
    wait(driver, lambda d: d.current_url.endswith("/new"))
    wait_data(driver, "ready", "true")
    assert not (gone := off_screen(driver)), gone  # the form fits


@pytest.mark.parametrize("width", WIDTHS)
def test_a_tournament_is_created_from_its_form_and_reaches_its_page(service, browser, width):
    with viewport(browser, width, 844 if width < 600 else 800):
        create_a_tournament(service, browser)


def create_a_tournament(service, driver) -> None:
    open_from_menu(driver, service.url, "Tournaments")
    select(driver, "tourney-ruleset", "whipcash")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#tourney-options .option[name=turn_cap]"))
    select(driver, "tourney-format", "swiss")
    fill(driver.find_element(By.ID, "tourney-rounds"), "2")
    fill(driver.find_element(By.CSS_SELECTOR, "#tourney-options .option[name=turn_cap]"), "8")
    driver.find_element(By.ID, "tourney-submit").click()
    wait(driver, lambda d: "/tournament/" in d.current_url)
    tournament_id = driver.current_url.rsplit("/", 1)[1]
    wait_data(driver, "ready", "true")
    made = requests.get(f"{service.url}/v1/tournaments/{tournament_id}", timeout=10).json()
    assert (made["ruleset"], made["format"], made["rounds"]) == ("whipcash", "swiss", 2)
    assert made["options"] == {"turn_cap": 8}
    rows = driver.find_elements(By.CSS_SELECTOR, "#standings tbody tr")
    entrants = {row.get_attribute("data-entrant") for row in rows}
    assert entrants == {"bot:heuristic#1", "bot:heuristic#2", "bot:random#1", "bot:random#2"}
    assert all(row.is_displayed() for row in rows)
    assert not (gone := off_screen(driver)), gone
    assert console_errors(driver) == []


@pytest.mark.parametrize("width", WIDTHS)
def test_an_experiment_is_created_from_its_form_and_reaches_its_page(service, browser, width):
    with viewport(browser, width, 844 if width < 600 else 800):
        create_an_experiment(service, browser)


def create_an_experiment(service, driver) -> None:
    open_from_menu(driver, service.url, "Experiments")
    select(driver, "exp-ruleset", "monopoly-cars2")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#exp-sweep-option option[value=starting_money]"))
    fill(driver.find_element(By.ID, "exp-players"), "2")
    select(driver, "exp-sweep-option", "starting_money")
    fill(driver.find_element(By.ID, "exp-sweep-values"), "6, 24")
    fill(driver.find_element(By.ID, "exp-games"), "40")
    fill(driver.find_element(By.ID, "exp-seed"), "3")
    driver.find_element(By.ID, "exp-submit").click()
    wait(driver, lambda d: "/experiments/" in d.current_url and not d.current_url.endswith("/new"))
    exp_id = driver.current_url.rsplit("/", 1)[1]
    wait_data(driver, "experiment", "finished", timeout=120)
    made = requests.get(f"{service.url}/v1/experiments/{exp_id}", timeout=10).json()
    assert [variant["point"] for variant in made["result"]["variants"]][1:] == [{"starting_money": 6},
                                                                              {"starting_money": 24}]
    sentence = driver.find_element(By.ID, "exp-sentence")
    assert sentence.text.startswith("with starting_money=")
    # The summary sentence comes first: in the first screen, above the charts.
    assert in_first_screen(driver, sentence)
    charts = driver.find_element(By.ID, "exp-charts-panel")
    assert sentence.location["y"] < charts.location["y"]
    assert not (gone := off_screen(driver)), gone
    assert console_errors(driver) == []
