"""Every ruleset's table at a laptop's width (1280 px) and a phone's (390 px), played by clicking:
the board is drawn (never the raw-JSON fallback), pawns tell the seats apart, log lines name places,
and the move panel is never left greyed while a decision is open."""

from __future__ import annotations

import pytest
import requests
from selenium.webdriver.common.by import By

from engine.core.registry import all_rulesets
from tests.web.pages import body_data, click_action, console_errors, enabled_actions, viewport, wait, wait_data

#: ruleset: (seed, seats): names as a lobby's defaults give them, two sharing an initial
GAMES = {
    "monopoly-cars2": (3, 3),
    "cash-n-guns": (4, 4),
    "whipcash": (5, 3),
    "hitchiker": (6, 3),
}
WIDTHS = (1280, 390)
CLICKS = 4


def open_table(driver, base: str, ruleset: str, seed: int, players: int) -> dict:
    """Creates a game (Ann in seat 0, bots after her) and opens Ann's table through her seat link."""
    seats = [{"name": "Ann"}] + [{"name": f"Bot {seat + 1}", "bot": "heuristic"} for seat in range(1, players)]
    game = requests.post(f"{base}/v1/games", json={"ruleset": ruleset, "seed": seed, "seats": seats},
                         timeout=10).json()
    driver.get(f"{base}/table/{game['id']}#seat=0&token={game['seats'][0]['token']}")
    wait_data(driver, "live", "true")
    wait(driver, lambda d: body_data(d, "version") is not None, message="the table was never drawn")
    return game


def assert_board_drawn(driver, ruleset: str, players: int) -> None:
    assert driver.find_elements(By.CSS_SELECTOR, "#board .raw-view") == [], "the board fell back to the raw view"
    if ruleset == "cash-n-guns":
        names = [g.text for g in driver.find_elements(By.CSS_SELECTOR, "#board .gang-table .gangster-name")]
        assert names == ["Ann"] + [f"Bot {seat + 1}" for seat in range(1, players)]
        return
    spaces = driver.find_elements(By.CSS_SELECTOR, "#board .ring .space")
    assert len(spaces) >= 16
    titles = [space.find_element(By.CSS_SELECTOR, "strong").text for space in spaces]
    assert all(titles) and not any(title.startswith(("city ", "space ")) for title in titles), titles
    if ruleset == "hitchiker":  # the cities of the ruleset's own data, in order
        data = all_rulesets()["hitchiker"].default_data()["board"]["cities"]
        assert titles == [city["name"] for city in data]


def assert_pawns_distinct(driver) -> None:
    """Each seat's pawn has its own label ("Bot 2" and "Bot 3" are B2 and B3, not both B)."""
    labels = {}
    for pawn in driver.find_elements(By.CSS_SELECTOR, "#board .pawn"):
        labels.setdefault(pawn.get_attribute("data-seat"), set()).add(pawn.text)
    assert all(len(texts) == 1 for texts in labels.values()), labels
    shown = [next(iter(texts)) for texts in labels.values()]
    assert len(set(shown)) == len(shown), labels


def panel_greyed(driver) -> bool:
    return driver.execute_script("""
        const panel = document.getElementById('decisions');
        return panel.dataset.busy === 'true' || Number(getComputedStyle(panel).opacity) < 1;""")


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_every_table_draws_its_board_and_plays_by_clicking(service, browser, ruleset, width):
    driver = browser
    seed, players = GAMES[ruleset]
    with viewport(driver, width):
        open_table(driver, service.url, ruleset, seed, players)
        assert_board_drawn(driver, ruleset, players)
        clicks = 0
        while clicks < CLICKS:
            wait(driver, lambda d: body_data(d, "status") == "finished" or enabled_actions(d),
                 message="neither a decision nor the end")
            if body_data(driver, "status") == "finished":
                break
            assert not panel_greyed(driver), "a decision is open and the move panel is greyed"
            before = click_action(driver, choose=lambda buttons: buttons[-1])  # not always the default
            if before is None:
                break
            clicks += 1
            wait(driver, lambda d, before=before: int(body_data(d, "version")) > before,
                 message="the click changed nothing")
        assert clicks == CLICKS or body_data(driver, "status") == "finished"
        wait(driver, lambda d: body_data(d, "status") == "finished" or enabled_actions(d) or not d.find_elements(
            By.CSS_SELECTOR, "#decisions button.action"))
        if enabled_actions(driver):
            assert not panel_greyed(driver)
        assert_board_drawn(driver, ruleset, players)
        assert_pawns_distinct(driver)
        log = [line.text for line in driver.find_elements(By.CSS_SELECTOR, "#log li")]
        assert log and not [line for line in log if "city " in line or "space " in line]
        assert console_errors(driver) == []
