"""The web table in a real browser: a whole Cash 'n Guns game played by clicking, a spectator
following it live, its replay, hidden information, and escaping of names."""

from __future__ import annotations

import requests
from selenium.webdriver.common.by import By

from api.ground.config import settings
from api.play.store import GameStore
from tests.web.pages import body_data, click_action, console_errors, create_in_lobby, enabled_actions, wait, wait_data

SEATS = [("person", "Ann"), ("bot:heuristic", "Bo"), ("bot:heuristic", "Cy"), ("bot:random", "Di")]


def _wait_drawn(driver) -> None:
    """The table is live and drawn from the game (its version is on the page)."""
    wait_data(driver, "live", "true")
    wait(driver, lambda d: body_data(d, "version") is not None, message="the table was never drawn")


def _version(driver) -> int:
    return int(body_data(driver, "version") or -1)


def _resumed_streams(service) -> list[str]:
    return [path for path in service.recorder.paths if "/stream?after=" in path and not path.endswith("after=0")]


def _play_by_clicking(service, driver, spectator_window: str, player_window: str) -> tuple[int, bool]:
    """Clicks the first legal action until the game is over; checks the spectator page midway, and
    that both pages' streams, ended at their time limit while Ann thinks, resumed after their cursors."""
    clicks, spectator_checked = 0, False
    while True:
        wait(driver, lambda d: body_data(d, "status") == "finished" or enabled_actions(d),
             message="neither a decision nor the end")
        if body_data(driver, "status") == "finished":
            wait_data(driver, "live", "ended")  # the stream's last line: every event has arrived
            return clicks, spectator_checked
        before = click_action(driver)
        if before is None:
            continue  # the game ended before the click
        clicks += 1
        wait(driver, lambda d, before=before: _version(d) > before or body_data(d, "status") == "finished",
             message="the click changed nothing")
        if clicks == 6:
            # The spectator page, never reloaded, has followed the game through its stream.
            reached = _version(driver)
            driver.switch_to.window(spectator_window)
            wait(driver, lambda d, reached=reached: _version(d) >= reached, message="the spectator did not follow")
            spectator_checked = True
            driver.switch_to.window(player_window)
            # Waits on the service, not on the game's length: a fast game can end before any limit.
            wait(driver, lambda d: len(_resumed_streams(service)) >= 2, message="no stream resumed after its limit")


def test_lobby_create_play_cash_n_guns_by_clicking_spectate_and_replay(service, browser, redis_db_url):
    driver = browser
    game_id = create_in_lobby(driver, service.url, "cash-n-guns", SEATS, seed=11)
    links = driver.find_elements(By.CSS_SELECTOR, "#created-seats a.play-link")
    assert [link.text for link in links] == ["Play as Ann (seat 1)"]  # bot seats get no token
    links[0].click()
    _wait_drawn(driver)
    player_window = driver.current_window_handle
    token = driver.execute_script(
        "return JSON.parse(localStorage.getItem('rulehouse.games'))[arguments[0]].seats[0].token;", game_id)

    driver.switch_to.new_window("window")
    driver.get(f"{service.url}/table/{game_id}")
    _wait_drawn(driver)
    assert driver.find_element(By.ID, "game-role").text == "spectator"
    assert not driver.find_element(By.ID, "decisions-panel").is_displayed()
    spectator_window = driver.current_window_handle
    driver.switch_to.window(player_window)

    clicks, spectator_checked = _play_by_clicking(service, driver, spectator_window, player_window)
    assert spectator_checked
    # The streams ended at their time limit during the game and the pages resumed after their last cursor.
    assert len(_resumed_streams(service)) >= 2
    store = GameStore.from_settings(settings({"REDIS_URL": redis_db_url}))
    ann_actions = [action for seat, action in store.action_log(game_id) if seat == 0]
    # Every action of Ann's came from a click (a click may meet a 412 when a bot moved first: it then reads again).
    assert 3 <= len(ann_actions) <= clicks
    assert driver.find_element(By.ID, "result-panel").is_displayed()
    assert driver.find_element(By.CSS_SELECTOR, "#result .winners").text
    _assert_score_explained(driver, service.url, game_id)
    final_version = _version(driver)
    final_board = driver.find_element(By.ID, "board").text
    log = [line.text for line in driver.find_elements(By.CSS_SELECTOR, "#log li")]
    assert any(line.startswith("Game over") for line in log)
    assert any("loaded a" in line and "only you" in line for line in log)  # Ann's own secret, marked as such
    gangsters = driver.find_elements(By.CSS_SELECTOR, ".gang-table .gangster")
    assert [g.find_element(By.CSS_SELECTOR, ".gangster-name").text for g in gangsters] == ["Ann", "Bo", "Cy", "Di"]

    driver.switch_to.window(spectator_window)
    wait_data(driver, "status", "finished")
    wait_data(driver, "live", "ended")
    wait(driver, lambda d: _version(d) == final_version)
    assert driver.find_element(By.CSS_SELECTOR, "#result .winners").text
    spectator_log = [line.text for line in driver.find_elements(By.CSS_SELECTOR, "#log li")]
    assert not any("only you" in line for line in spectator_log)
    driver.close()
    driver.switch_to.window(player_window)

    # The replay steps through the same log, one move (version) at a time, its events together.
    versions = [int(line.get_attribute("data-version")) for line in driver.find_elements(By.CSS_SELECTOR, "#log li")]
    driver.get(f"{service.url}/replay/{game_id}")
    wait_data(driver, "ready", "true")
    steps = int(driver.find_element(By.ID, "steps").text)
    moves = sorted(set(versions) - {0})
    assert steps == len(moves)
    for step in (1, 2, 3):
        driver.find_element(By.ID, "next").click()
        wait_data(driver, "step", str(step))
    shown = [line.text for line in driver.find_elements(By.CSS_SELECTOR, "#log li") if line.is_displayed()]
    assert shown == [text for text, version in zip(log, versions, strict=True) if version <= moves[2]]
    this_move = [text for text, version in zip(log, versions, strict=True) if version == moves[2]]
    assert [line.text for line in driver.find_elements(By.CSS_SELECTOR, "#log li.current")] == this_move
    assert [line.text for line in driver.find_elements(By.CSS_SELECTOR, "#current li")] == [
        text.removesuffix("only you").strip() for text in this_move]
    # The board shows the table of that step: early in round 1 nobody has any loot yet.
    wait_data(driver, "drawnStep", "3")
    assert {value.text for value in driver.find_elements(By.CSS_SELECTOR, "#board .loot-value")} == {"$0"}
    assert not driver.find_element(By.ID, "result-panel").is_displayed()
    driver.find_element(By.ID, "last").click()
    wait_data(driver, "step", str(steps))
    wait_data(driver, "drawnStep", str(steps))
    assert driver.find_element(By.ID, "result-panel").is_displayed()
    assert driver.find_element(By.ID, "board").text == final_board  # the end, as Ann saw it
    assert console_errors(driver) == []

    _assert_no_other_seat_secret(service, store, game_id, token)


def _assert_score_explained(driver, base: str, game_id: str) -> None:
    """The result says how each total was counted: loot value plus the diamond bonus, for every seat."""
    result = requests.get(f"{base}/v1/games/{game_id}", timeout=10).json()["result"]
    rows = driver.find_elements(By.CSS_SELECTOR, "#result .score-breakdown li")
    assert [int(row.get_attribute("data-seat")) for row in rows] == result["ranking"]
    bonus_to = result["details"]["diamond_bonus_to"]
    for row in rows:
        seat, bonus = int(row.get_attribute("data-seat")), int(row.get_attribute("data-bonus"))
        assert int(row.get_attribute("data-total")) == result["scores"][seat]
        assert (bonus > 0) == (seat == bonus_to)
        assert int(row.get_attribute("data-loot-value")) + bonus == result["scores"][seat]
        assert f"${result['scores'][seat]:,}" in row.text
        if bonus:
            assert "diamond bonus" in row.text


def _walk(document):
    yield document
    children = document.values() if isinstance(document, dict) else document if isinstance(document, list) else []
    for child in children:
        yield from _walk(child)


def _assert_no_other_seat_secret(service, store, game_id: str, token: str) -> None:
    """Everything sent to Ann's token and to the token-less pages holds none of another seat's secrets."""
    entries, _ = store.events(game_id, "0", 100000)
    secrets = [entry.event for entry in entries if entry.event.get("visible_to")]
    assert {tuple(event["visible_to"]) for event in secrets} == {(0,), (1,), (2,), (3,)}
    for who, seat in ((token, 0), (None, None)):
        documents = service.recorder.json_documents(who)
        assert documents, who
        received = list(_walk(documents))
        for secret in secrets:
            if seat in secret["visible_to"]:
                continue
            shown = {key: value for key, value in secret.items() if key != "visible_to"}
            assert secret not in received and shown not in received, secret
        for node in received:
            if isinstance(node, dict) and "visible_to" in node:
                assert seat in node["visible_to"], node
            if isinstance(node, dict) and "hand" in node and "you" in node:  # a Cash 'n Guns view with a hand
                assert node["you"] == seat, node
    # No token ever travelled in an address (which lands in logs).
    assert not any(token in path for path in service.recorder.paths)


def test_names_are_text_never_markup(service, browser):
    driver = browser
    hostile = '<img src=x onerror="window.pwned=1">'
    seats = [("person", hostile), ("bot:random", "<b>Bot</b>")]
    game_id = create_in_lobby(driver, service.url, "monopoly-cars2", seats)
    driver.find_element(By.CSS_SELECTOR, "#created-seats a.play-link").click()
    names = wait(driver, lambda d: [element.text for element in d.find_elements(By.CSS_SELECTOR, "#seats .seat-name")])
    assert names == [hostile, "<b>Bot</b>"]
    wait(driver, lambda d: enabled_actions(d))
    assert driver.find_elements(By.CSS_SELECTOR, "#main img, #main b") == []
    assert driver.execute_script("return window.pwned === undefined;")
    driver.get(f"{service.url}/")
    wait_data(driver, "ready", "true")
    mine = driver.find_element(By.CSS_SELECTOR, f'#mine li[data-game="{game_id}"]').text
    assert hostile in mine
    assert driver.execute_script("return window.pwned === undefined;")
    assert not [entry for entry in driver.get_log("browser") if "Content Security Policy" in entry["message"]]


def test_a_deadline_counts_down_and_its_default_shows_as_it_happens(service, browser):
    driver = browser
    # Seed 1: Ann spins first; she has 2 seconds and lets them pass.
    create_in_lobby(driver, service.url, "monopoly-cars2", [("person", "Ann"), ("bot:heuristic", "Bo")], seed=1,
                    decision_timeout=2)
    driver.find_element(By.CSS_SELECTOR, "#created-seats a.play-link").click()
    _wait_drawn(driver)
    status = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, '#seats li[data-seat="0"] .seat-status').text)
    assert "to decide" in status and "s left" in status
    # A worker plays her default when the time is up; the page shows it, then the bot's answer, live.
    wait(driver, lambda d: any("ran out of time" in line.text for line in d.find_elements(By.CSS_SELECTOR, "#log li")),
         timeout=30, message="the timeout never showed")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#log li.by-bot"), message="the bot never moved")
    assert console_errors(driver) == []
