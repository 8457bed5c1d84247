"""Screenshots of each game's table (and a replay, the lobby and a simulation) for the docs.

    .venv/bin/python -m tests.web.screenshots docs/img

Starts an embedded Redis, a worker and the service, creates one game per ruleset with a person
in seat 0 and bots elsewhere, plays the person's first moves through the API (each decision's
first option) so that each picture shows a game under way, then photographs seat 0's table at a
laptop's width and a phone's (``-phone.png``), one replay, a finished table (with the creator's Rematch) and its
analysis, the lobby, a leaderboard after a few rated games and a player's page, the tournament and experiment forms
and the tournament the form started (all at both widths) and a simulation.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

import requests
from selenium.webdriver.common.by import By

from tests.processes import Workers, wait_for
from tests.web.browser import Service, chromium
from tests.web.pages import (
    BOT_GAMES,
    body_data,
    fill,
    finished_bot_game,
    keep_creator_token,
    select,
    wait,
    wait_data,
)

GAMES = {  # ruleset: (players, the person's moves before the picture, seed)
    "monopoly-cars2": (4, 5, 3),
    "cash-n-guns": (5, 3, 4),
    "whipcash": (4, 12, 5),
    "hitchiker": (4, 16, 6),
}


def play_first_options(base: str, game_id: str, token: str, moves: int) -> None:
    headers = {"Authorization": f"Bearer {token}"}
    played = 0
    deadline = time.monotonic() + 120
    while played < moves and time.monotonic() < deadline:
        pending = requests.get(f"{base}/v1/games/{game_id}/decisions", headers=headers, timeout=10).json()
        if not pending["decisions"]:
            if requests.get(f"{base}/v1/games/{game_id}", timeout=10).json()["status"] != "active":
                return
            time.sleep(0.05)  # the bots are moving (a script, not a test: polling is fine)
            continue
        answer = requests.post(f"{base}/v1/games/{game_id}/actions", json=pending["decisions"][0]["options"][0],
                               headers={**headers, "If-Match": f'"{pending["version"]}"'}, timeout=10)
        played += answer.status_code == 200


#: a laptop's width and a phone's (CSS pixels)
WIDTHS = {"": 1500, "-phone": 390}


def full_page(driver, path: Path, width: int = 1500) -> None:
    """The whole page, not just the window, laid out at ``width`` (below 600: as a phone)."""
    metrics = {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600}
    driver.execute_script("document.activeElement?.blur();")  # a filled form's last field shows no caret
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    height = driver.execute_script("return document.documentElement.scrollHeight;")
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {**metrics, "height": height})
    driver.save_screenshot(str(path))
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    print("wrote", path)


#: the rated games of the leaderboard's picture: Whipca$h, three seats, each a bot playing as a named player
RATED_LINEUPS = [
    [("heuristic", "bot:heuristic#1"), ("random", "bot:random#1"), ("heuristic", "bot:heuristic#2")],
    [("random", "bot:random#1"), ("heuristic", "bot:heuristic#2"), ("random", "bot:random#2")],
    [("heuristic", "bot:heuristic#1"), ("random", "bot:random#2"), ("heuristic", "bot:heuristic#2")],
]


def leaderboard_and_player(driver, base: str, out: Path) -> None:
    """A few rated games, then the leaderboard and its first player's page."""
    _, options = BOT_GAMES["whipcash"]
    for seed, lineup in enumerate(RATED_LINEUPS, start=11):
        seats = [{"name": player.split(":")[1], "bot": bot, "player": player} for bot, player in lineup]
        made = requests.post(f"{base}/v1/games", json={"ruleset": "whipcash", "seed": seed, "seats": seats,
                                                       "options": options, "rated": True}, timeout=10)
        made.raise_for_status()
    played = sum(len(lineup) for lineup in RATED_LINEUPS)
    wait_for(lambda: sum(entry["games"] for entry in requests.get(f"{base}/v1/ratings/whipcash", timeout=10)
                         .json()["ratings"]) == played, timeout=180)
    driver.get(f"{base}/leaderboard/whipcash")
    wait_data(driver, "ready", "true")
    for suffix, width in WIDTHS.items():
        full_page(driver, out / f"leaderboard{suffix}.png", width)
    driver.find_element(By.CSS_SELECTOR, "#ratings tbody tr a").click()
    wait(driver, lambda d: "/player/" in d.current_url)
    wait_data(driver, "ready", "true")
    for suffix, width in WIDTHS.items():
        full_page(driver, out / f"player{suffix}.png", width)


def forms_and_tournament(driver, base: str, out: Path) -> None:
    """The experiment form filled in for a sweep, the tournament form filled in, and the tournament it starts."""
    driver.get(f"{base}/experiments/new")
    wait_data(driver, "ready", "true")
    select(driver, "exp-ruleset", "monopoly-cars2")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#exp-sweep-option option[value=starting_money]"))
    fill(driver.find_element(By.ID, "exp-players"), "2")
    select(driver, "exp-sweep-option", "starting_money")
    fill(driver.find_element(By.ID, "exp-sweep-values"), "6, 12, 24")
    fill(driver.find_element(By.ID, "exp-games"), "400")
    for suffix, width in WIDTHS.items():
        full_page(driver, out / f"experiment-new{suffix}.png", width)
    driver.get(f"{base}/tournaments/new")
    wait_data(driver, "ready", "true")
    select(driver, "tourney-ruleset", "whipcash")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#tourney-options .option[name=turn_cap]"))
    select(driver, "tourney-format", "swiss")
    fill(driver.find_element(By.ID, "tourney-rounds"), "2")
    fill(driver.find_element(By.CSS_SELECTOR, "#tourney-options .option[name=turn_cap]"), "12")
    for suffix, width in WIDTHS.items():
        full_page(driver, out / f"tournament-new{suffix}.png", width)
    driver.find_element(By.ID, "tourney-submit").click()
    wait(driver, lambda d: "/tournament/" in d.current_url)
    wait_data(driver, "status", "finished", timeout=180)
    for suffix, width in WIDTHS.items():
        full_page(driver, out / f"tournament{suffix}.png", width)


def main(out: Path) -> None:
    from api.app import create_app
    from api.service.embedded_redis import EmbeddedRedis

    out.mkdir(parents=True, exist_ok=True)
    redis_server = EmbeddedRedis(Path(tempfile.mkdtemp()), persist=False).start()
    os.environ["REDIS_URL"] = redis_server.url
    workers = Workers(redis_server.url)
    workers.start(1)
    service = Service(create_app({"REDIS_URL": redis_server.url, "STREAM_KEEPALIVE_SECONDS": 0.5})).start()
    driver = chromium(1500, 1100)
    base = service.url
    replays: list[str] = []
    try:
        for ruleset, (players, moves, seed) in GAMES.items():
            bots = ["heuristic", "random"]
            seats = [{"name": "Ann"}] + [{"name": name, "bot": bots[i % 2]}
                                         for i, name in enumerate(["Bo", "Cy", "Di", "Ed", "Flo"][: players - 1])]
            game = requests.post(f"{base}/v1/games", json={"ruleset": ruleset, "seats": seats, "seed": seed},
                                 timeout=10).json()
            token = game["seats"][0]["token"]
            play_first_options(base, game["id"], token, moves)
            driver.get(f"{base}/table/{game['id']}#seat=0&token={token}")
            wait(driver, lambda d: body_data(d, "version") is not None)
            wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#decisions button.action")
                 or body_data(d, "status") == "finished")
            wait(driver, lambda d: body_data(d, "loggedVersion") == body_data(d, "version"))  # the whole log is in
            for suffix, width in WIDTHS.items():
                full_page(driver, out / f"table-{ruleset}{suffix}.png", width)
            replays.append(game["id"])
        # A replay, a few steps in, linked by its address.
        driver.get(f"{base}/replay/{replays[1]}?step=12")
        wait_data(driver, "drawnStep", "12")
        full_page(driver, out / "replay.png")
        # A finished table, seen by the browser that created it: who won comes first, then the replay, the
        # analysis and the rematch.
        case = finished_bot_game(base, "monopoly-cars2", seed=3)
        finished = case["game"]["id"]
        keep_creator_token(driver, base, finished, "monopoly-cars2", case["creator_token"])
        driver.get(f"{base}/table/{finished}")
        wait_data(driver, "status", "finished")
        wait(driver, lambda d: d.find_element(By.ID, "over-line").text)
        wait(driver, lambda d: d.find_element(By.ID, "rematch").is_displayed())
        for suffix, width in WIDTHS.items():
            full_page(driver, out / f"table-finished{suffix}.png", width)
        # Its analysis ("was it luck?"), at both widths.
        driver.get(f"{base}/analysis/{finished}")
        wait_data(driver, "analysis", "ready", timeout=300)
        for suffix, width in WIDTHS.items():
            full_page(driver, out / f"analysis{suffix}.png", width)
        driver.get(f"{base}/")
        wait_data(driver, "ready", "true")
        for suffix, width in WIDTHS.items():
            full_page(driver, out / f"lobby{suffix}.png", width)
        leaderboard_and_player(driver, base, out)
        forms_and_tournament(driver, base, out)
        driver.get(f"{base}/simulate")
        wait_data(driver, "ready", "true")
        select(driver, "sim-ruleset", "monopoly-cars2")
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#sim-options .option"))
        fill(driver.find_element(By.ID, "sim-players"), "4")
        driver.find_element(By.ID, "sim-games").click()
        wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#sim-bots select")) == 4)
        driver.find_element(By.CSS_SELECTOR, "#sim-bots select option[value=random]").click()
        fill(driver.find_element(By.ID, "sim-games"), "400")
        driver.find_element(By.ID, "sim-submit").click()
        wait_data(driver, "chart", "drawn", timeout=120)
        full_page(driver, out / "simulation.png")
    finally:
        driver.get("about:blank")
        driver.quit()
        service.stop()
        workers.stop()
        redis_server.stop()


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/img"))
