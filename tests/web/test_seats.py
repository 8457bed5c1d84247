"""Joining in the browser (needs the seats API: POST /join, /start, the waiting-games list)."""

from __future__ import annotations

from selenium.webdriver.common.by import By

from tests.web.pages import body_data, console_errors, create_in_lobby, enabled_actions, fill, wait, wait_data


def seat_names(driver) -> list[str]:
    """The names on the table's seats, as drawn now (the page redraws them as the game changes)."""
    return [e.text for e in driver.find_elements(By.CSS_SELECTOR, "#seats .seat-name")]


def test_a_listed_game_with_an_open_seat_is_joined_from_the_lobby(service, browser):
    driver = browser
    driver.get(f"{service.url}/")
    wait_data(driver, "ready", "true")
    driver.find_element(By.ID, "create-listed").click()
    game_id = create_in_lobby(driver, service.url, "monopoly-cars2", [("person", "Ann"), ("open", "")], seed=1,
                              keep_form=True)
    invite = driver.find_element(By.CSS_SELECTOR, "#created-invites input.share").get_attribute("value")
    assert f"#join={game_id}&invite=" in invite
    driver.find_element(By.CSS_SELECTOR, "#created-seats a.play-link").click()
    wait(driver, lambda d: body_data(d, "status") == "waiting")
    assert driver.find_element(By.ID, "waiting-panel").is_displayed()
    wait(driver, lambda d: seat_names(d) == ["Ann", "(open seat)"], message="the seats as expected")

    # Bea finds it in the lobby's waiting list and joins (a listed game needs no invite).
    driver.switch_to.new_window("window")
    driver.get(f"{service.url}/")
    entry = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, f'#waiting li[data-game="{game_id}"]'))
    assert "1 open" in entry.text
    entry.find_element(By.CSS_SELECTOR, "button").click()
    fill(driver.find_element(By.ID, "join-name"), "Bea")
    driver.find_element(By.ID, "join-submit").click()
    wait(driver, lambda d: "/table/" in d.current_url and "seat=1" in d.current_url)
    wait(driver, lambda d: body_data(d, "status") == "active")
    bea = driver.current_window_handle
    driver.switch_to.window(driver.window_handles[0])
    wait(driver, lambda d: body_data(d, "status") == "active")  # Ann's table saw her join, live
    wait(driver, lambda d: seat_names(d) == ["Ann", "Bea"], message="the seats as expected")
    wait(driver, lambda d: enabled_actions(d))  # Ann spins first
    wait(driver, lambda d: any("Bea" in line.text for line in d.find_elements(By.CSS_SELECTOR, "#log li")),
         message="the log names Bea")
    driver.switch_to.window(bea)
    driver.close()
    driver.switch_to.window(driver.window_handles[0])
    assert console_errors(driver) == []


def test_the_creator_starts_a_waiting_game_with_bots(service, browser):
    driver = browser
    create_in_lobby(driver, service.url, "cash-n-guns", [("person", "Ann"), ("open", ""), ("open", ""),
                                                          ("bot:heuristic", "Bo")])
    driver.find_element(By.CSS_SELECTOR, "#created-seats a.play-link").click()
    wait(driver, lambda d: body_data(d, "status") == "waiting")
    driver.find_element(By.ID, "start-bots").click()
    wait(driver, lambda d: body_data(d, "status") == "active")
    wait(driver, lambda d: enabled_actions(d))
    assert console_errors(driver) == []
