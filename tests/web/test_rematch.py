"""The finished table's "Rematch" button, for every ruleset at a laptop's width (1280 px) and a phone's (390 px): its
creator starts a new game with the same seats (names and bots) and options and a new seed, and reaches it.

One browser and one chain of games per ruleset, to keep the wall time small: a finished all-bot game's rematch is
started at 1280 px; the bots play the rematch to its end on its own table, whose rematch is then started at 390 px."""

from __future__ import annotations

import pytest
import requests
from selenium.webdriver.common.by import By

from tests.web.pages import (
    BOT_GAMES,
    console_errors,
    finished_bot_game,
    in_first_screen,
    keep_creator_token,
    viewport,
    wait,
    wait_data,
)

#: the rematch's bots play it to its end: a short game, but a loaded machine is slow
FINISH_TIMEOUT = 120


def seat_kinds(game: dict) -> list[tuple[str, str | None]]:
    return [(seat["name"], seat["bot"]) for seat in game["seats"]]


def seat_texts(driver) -> dict[str, str]:
    """The seats list's text by seat number, read in one go (the list is redrawn as the game moves)."""
    return driver.execute_script("""
        return Object.fromEntries([...document.querySelectorAll('#seats li')]
          .map((item) => [item.dataset.seat, item.textContent]));""")


def rematch_from_table(driver, base: str, game_id: str) -> str:
    """On ``game_id``'s finished table (open): clicks Rematch, which is in the first screen, and returns the new id."""
    wait_data(driver, "status", "finished")
    button = wait(driver, lambda d: (b := d.find_element(By.ID, "rematch")).is_displayed() and b,
                  message="no Rematch button for the creator")
    assert in_first_screen(driver, button)
    button.click()
    rematch_id = wait(driver, lambda d: d.execute_script("return document.body.dataset.rematch || null"))
    assert rematch_id != game_id
    assert driver.find_element(By.ID, "rematch-started").is_displayed()
    return rematch_id


@pytest.mark.parametrize("ruleset", sorted(BOT_GAMES))
def test_the_creator_starts_a_rematch_with_the_same_seats_from_the_finished_table(service, browser, ruleset):
    driver = browser
    # Two bots in turn, so that a seat's bot kept in the wrong seat would show.
    case = finished_bot_game(service.url, ruleset, seed=5, bots=("random", "heuristic"))
    old = case["game"]
    keep_creator_token(driver, service.url, old["id"], ruleset, case["creator_token"])
    games = [old]
    for width in (1280, 390):
        with viewport(driver, width, 844 if width < 600 else 800):
            previous = games[-1]
            driver.get(f"{service.url}/table/{previous['id']}")
            rematch_id = rematch_from_table(driver, service.url, previous["id"])
            new = requests.get(f"{service.url}/v1/games/{rematch_id}", timeout=10).json()
            assert new["ruleset"] == ruleset
            assert seat_kinds(new) == seat_kinds(old)
            switches = ("hints", "win_chances", "rated", "listed")  # the options are the API tests' (not in a view)
            assert [new[name] for name in switches] == [old[name] for name in switches]
            assert new["seed_commitment"] not in {game["seed_commitment"] for game in games}

            # The rematch's own table names the same seats; its bots play it to its end.
            driver.find_element(By.ID, "rematch-watch").click()
            wait(driver, lambda d, rematch_id=rematch_id: d.current_url.endswith(f"/table/{rematch_id}"))
            wait(driver, lambda d: d.find_element(By.ID, "game-status").text not in ("", "connecting"))
            # The bots are playing: the seats list is redrawn as they move, so it is read whole, again if need be.
            wait(driver, lambda d: all(seat["name"] in seat_texts(d).get(str(seat["seat"]), "")
                                       for seat in old["seats"]),
                 message=f"the rematch's table does not name the seats {seat_kinds(old)}")
            wait_data(driver, "status", "finished", timeout=FINISH_TIMEOUT)
            games.append(requests.get(f"{service.url}/v1/games/{rematch_id}", timeout=10).json())
            assert console_errors(driver) == []

    # Back on the first finished table the same rematch is offered again, not another one.
    driver.get(f"{service.url}/table/{old['id']}")
    wait(driver, lambda d: d.execute_script("return document.body.dataset.rematch || null") == games[1]["id"])
    assert console_errors(driver) == []
