"""The finished table's "Rematch" button: its creator starts a new game with the same seats, and reaches it."""

from __future__ import annotations

import requests
from selenium.webdriver.common.by import By

from tests.processes import wait_for
from tests.web.pages import BOT_GAMES, console_errors, wait, wait_data

RULESET = "whipcash"


def test_the_creator_starts_a_rematch_with_the_same_seats_from_the_finished_table(service, browser):
    driver = browser
    players, options = BOT_GAMES[RULESET]
    seats = [{"name": f"Bot {seat + 1}", "bot": "heuristic" if seat else "random"} for seat in range(players)]
    made = requests.post(f"{service.url}/v1/games", json={"ruleset": RULESET, "seed": 5, "seats": seats,
                                                          "options": options}, timeout=10).json()
    url = f"{service.url}/v1/games/{made['id']}"
    old = wait_for(lambda: (g := requests.get(url, timeout=10).json())["status"] == "finished" and g, timeout=120)
    # This browser created the game: it keeps its creator token as the lobby would.
    driver.get(f"{service.url}/")
    driver.execute_script("""
        const games = JSON.parse(localStorage.getItem('rulehouse.games') || '{}');
        games[arguments[0]] = {ruleset: arguments[1], creator_token: arguments[2], seats: {}};
        localStorage.setItem('rulehouse.games', JSON.stringify(games));""", made["id"], RULESET, made["creator_token"])

    driver.get(f"{service.url}/table/{made['id']}")
    wait_data(driver, "status", "finished")
    wait(driver, lambda d: d.find_element(By.ID, "rematch").is_displayed())
    driver.find_element(By.ID, "rematch").click()
    rematch_id = wait(driver, lambda d: d.execute_script("return document.body.dataset.rematch || null"))
    assert rematch_id != made["id"]
    new = requests.get(f"{service.url}/v1/games/{rematch_id}", timeout=10).json()
    def kinds(game: dict) -> list:
        return [(seat["name"], seat["bot"]) for seat in game["seats"]]

    assert kinds(new) == kinds(old)
    assert new["seed_commitment"] != old["seed_commitment"]

    driver.find_element(By.ID, "rematch-watch").click()  # the rematch's own table
    wait(driver, lambda d: d.current_url.endswith(f"/table/{rematch_id}"))
    wait(driver, lambda d: d.find_element(By.ID, "game-status").text not in ("", "connecting"))
    names = [item.text for item in driver.find_elements(By.CSS_SELECTOR, "#seats li")]
    assert all(any(seat["name"] in name for name in names) for seat in old["seats"]), names

    # Back on the finished table the same rematch is offered again, not another one.
    driver.get(f"{service.url}/table/{made['id']}")
    wait(driver, lambda d: d.execute_script("return document.body.dataset.rematch || null") == rematch_id)
    assert not console_errors(driver)
