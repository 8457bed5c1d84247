"""The table chat in a real browser: a seat says something, the other pages see it live as text (a
message of HTML stays text), and the creator's switch reaches every page."""

from __future__ import annotations

import requests
from selenium.webdriver.common.by import By

from tests.web.pages import body_data, console_errors, create_in_lobby, wait

HOSTILE = ('<img src=x onerror="window.pwned=1"><b>bold</b> & <script>window.pwned=2</script>'
           '<a href="javascript:window.pwned=3">click</a>')


def chat_data(driver, name: str) -> str | None:
    return driver.execute_script(f"return document.getElementById('chat').dataset.{name} ?? null;")


def wait_messages(driver, count: int) -> list[str]:
    wait(driver, lambda d: chat_data(d, "messages") == str(count), message=f"the chat never showed {count}")
    return [item.text for item in driver.find_elements(By.CSS_SELECTOR, "#chat-log li")]


def test_a_message_of_html_shows_as_text_everywhere_and_the_creator_turns_chat_off(service, browser):
    driver = browser
    game_id = create_in_lobby(driver, service.url, "monopoly-cars2", [("person", "Ann"), ("person", "Bob")], seed=3)
    bob_token = driver.execute_script(
        "return JSON.parse(localStorage.getItem('rulehouse.games'))[arguments[0]].seats[1].token;", game_id)
    driver.find_element(By.CSS_SELECTOR, "#created-seats a.play-link").click()  # Ann, in the creator's browser
    wait(driver, lambda d: chat_data(d, "chat") == "on", message="the chat never went live")
    ann_window = driver.current_window_handle
    version = wait(driver, lambda d: body_data(d, "version"), message="the table was never drawn")

    driver.switch_to.new_window("window")
    # A spectator: another origin of the same service, so none of this browser's tokens (localStorage) are its.
    driver.get(f"{service.url.replace('127.0.0.1', 'localhost')}/table/{game_id}")
    wait(driver, lambda d: chat_data(d, "chat") == "on")
    assert not driver.find_element(By.ID, "chat-form").is_displayed()  # spectators read
    assert not driver.find_element(By.ID, "chat-toggle").is_displayed()
    spectator_window = driver.current_window_handle
    try:
        check_the_chat(driver, ann_window, spectator_window, service.url, game_id, bob_token, version)
    finally:  # its streams end before the service stops
        driver.switch_to.window(spectator_window)
        driver.close()
        driver.switch_to.window(ann_window)


def check_the_chat(driver, ann_window: str, spectator_window: str, base: str, game_id: str, bob_token: str,
                   version: str) -> None:
    driver.switch_to.window(ann_window)
    assert driver.find_element(By.ID, "chat-toggle").is_displayed()
    driver.find_element(By.ID, "chat-text").send_keys(HOSTILE)
    driver.find_element(By.ID, "chat-send").click()
    assert wait_messages(driver, 1) == [f"Ann: {HOSTILE}"]
    requests.post(f"{base}/v1/games/{game_id}/chat", json={"text": "<i>hi</i> Ann"},
                  headers={"Authorization": f"Bearer {bob_token}"}, timeout=10).raise_for_status()
    assert wait_messages(driver, 2) == [f"Ann: {HOSTILE}", "Bob: <i>hi</i> Ann"]

    for window in (ann_window, spectator_window):
        driver.switch_to.window(window)
        assert wait_messages(driver, 2) == [f"Ann: {HOSTILE}", "Bob: <i>hi</i> Ann"]
        texts = [item.text for item in driver.find_elements(By.CSS_SELECTOR, "#chat-log .chat-text")]
        assert texts == [HOSTILE, "<i>hi</i> Ann"]
        # Text nodes only: none of the message's markup became elements, none of its script ran.
        assert driver.find_elements(By.CSS_SELECTOR, "#chat-log img, #chat-log b, #chat-log i, #chat-log script, "
                                                     "#chat-log a") == []
        assert driver.execute_script("return window.pwned === undefined;")
        assert body_data(driver, "version") == version  # talking moved nothing
        assert console_errors(driver) == []

    driver.switch_to.window(ann_window)
    driver.find_element(By.ID, "chat-toggle").click()
    wait(driver, lambda d: chat_data(d, "chat") == "off", message="the switch did not turn chat off")
    assert not driver.find_element(By.ID, "chat-text").is_enabled()
    assert "off" in driver.find_element(By.ID, "chat-state").text
    driver.switch_to.window(spectator_window)
    wait(driver, lambda d: chat_data(d, "chat") == "off", message="the spectator never heard chat was off")
    assert len(driver.find_elements(By.CSS_SELECTOR, "#chat-log li")) == 2  # what was said stays
