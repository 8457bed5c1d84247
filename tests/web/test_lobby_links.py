"""The lobby after "Create the game": the links show at once, and the browser that created the game
can get every seat's link (token and all) again later."""

from __future__ import annotations

from selenium.webdriver.common.by import By

from tests.web.pages import body_data, create_in_lobby, viewport, wait, wait_data

SEATS = [("person", "Ann"), ("person", "Bo"), ("bot:heuristic", "Cy")]


def _in_view(driver, element_id: str) -> bool:
    return driver.execute_script("""
        const r = document.getElementById(arguments[0]).getBoundingClientRect();
        return r.top > -1 && r.top < innerHeight && r.bottom > 0;""", element_id)  # -1: sub-pixel scrolling


def _links(driver) -> dict[str, str]:
    return {item.get_attribute("data-seat"): item.find_element(By.CSS_SELECTOR, "input.share").get_attribute("value")
            for item in driver.find_elements(By.CSS_SELECTOR, "#created-seats li")}


def test_the_links_show_at_once_and_stay_in_the_browser(service, browser):
    driver = browser
    with viewport(driver, 1280, 757):  # a laptop's window, where the links used to open below the fold
        game_id = create_in_lobby(driver, service.url, "monopoly-cars2", SEATS)
        assert _in_view(driver, "created-panel")
        first = _links(driver)
        stored = driver.execute_script("return JSON.parse(localStorage.getItem('rulehouse.games'))[arguments[0]];",
                                       game_id)
        assert set(first) == {"0", "1"}  # the bot's seat has no token
        for seat, link in first.items():
            assert link.endswith(f"/table/{game_id}#seat={seat}&token={stored['seats'][seat]['token']}")

        # Later, in the same browser: "links" under "Games in this browser" shows them again.
        driver.get(f"{service.url}/")
        wait_data(driver, "ready", "true")
        assert not driver.find_element(By.ID, "created-panel").is_displayed()
        driver.find_element(By.CSS_SELECTOR, f'#mine li[data-game="{game_id}"] button.show-links').click()
        wait(driver, lambda d: body_data(d, "shown") == game_id)
        assert _in_view(driver, "created-panel")
        assert _links(driver) == first

    # Bo's link, opened (as Bo would), plays Bo's seat.
    driver.get(first["1"])
    wait(driver, lambda d: d.find_element(By.ID, "game-role").text == "playing as Bo")
    assert "token" not in driver.current_url


def _page_width(driver) -> tuple[int, int]:
    return tuple(driver.execute_script(
        "return [document.documentElement.scrollWidth, document.documentElement.clientWidth];"))


def test_the_lobby_fits_a_phone(service, browser):
    """At 390 px nothing in the lobby runs off the screen, the new game's links included."""
    driver = browser
    with viewport(driver, 390, 844):
        create_in_lobby(driver, service.url, "cash-n-guns", [("person", "Ann")] + [("bot:heuristic", "Bo")] * 3)
        assert _in_view(driver, "created-panel")
        wide, screen = _page_width(driver)
        assert wide <= screen, (wide, screen)
        panels = driver.execute_script("""return [...document.querySelectorAll('#main .panel:not([hidden])')]
            .map((panel) => panel.getBoundingClientRect().right);""")
        assert panels and max(panels) <= screen + 0.5
