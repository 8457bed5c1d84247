"""Page helpers for the browser tests: waits are on page state (data attributes the pages set)."""

from __future__ import annotations

import requests
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from tests.processes import wait_for

TIMEOUT = 60


def wait(driver, condition, timeout: float = TIMEOUT, message: str = ""):
    def check(d):
        try:
            return condition(d)
        except StaleElementReferenceException:
            return False

    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(check, message)


def body_data(driver, name: str) -> str | None:
    return driver.execute_script(f"return document.body.dataset.{name} ?? null;")


def wait_data(driver, name: str, value: str, timeout: float = TIMEOUT) -> None:
    wait(driver, lambda d: body_data(d, name) == value, timeout, f"body[data-{name}] never became {value!r}")


def select(driver, element_id: str, value: str) -> None:
    Select(driver.find_element(By.ID, element_id)).select_by_value(value)


def fill(element, text: str) -> None:
    element.clear()
    element.send_keys(text)


def enabled_actions(driver) -> list:
    """The action buttons a person could click now. The page redraws them whenever the game moves, so
    a button found may be gone by the time it is asked whether it is enabled: it is not counted."""
    enabled = []
    for button in driver.find_elements(By.CSS_SELECTOR, "#decisions button.action"):
        try:
            if button.is_enabled():
                enabled.append(button)
        except StaleElementReferenceException:
            continue
    return enabled


def click_action(driver, choose=lambda buttons: buttons[0], timeout: float = TIMEOUT) -> int | None:
    """Clicks one enabled action button (``choose`` picks it from the list) as a person would, and returns
    the page's version read just before the click (None: the game ended first). The page redraws its
    buttons whenever the game moves (a bot's move, a stream line), so a button found may be gone by the
    click: it then finds them again."""

    def clicked(d):
        if body_data(d, "status") == "finished":
            return (None,)
        buttons = enabled_actions(d)
        if not buttons:
            return None
        version = int(body_data(d, "version") or -1)
        choose(buttons).click()  # StaleElementReferenceException: redrawn meanwhile, ``wait`` tries again
        return (version,)

    return wait(driver, clicked, timeout, "no action button could be clicked")[0]


def console_errors(driver) -> list[dict]:
    """Script errors and CSP violations (failed requests are the API's answers, checked by the pages)."""
    return [entry for entry in driver.get_log("browser")
            if (entry["level"] == "SEVERE" and entry.get("source") != "network")
            or "Content Security Policy" in entry["message"]]


def create_in_lobby(driver, base: str, ruleset: str, seats: list[tuple[str, str]], seed: int | None = None,
                    decision_timeout: int | None = None, keep_form: bool = False) -> str:
    """Creates a game through the lobby form; ``seats`` are (kind, name) with kind ``person``, ``bot:<name>``
    or ``open``. ``keep_form``: fill the lobby page already open (with choices made on it)."""
    if not keep_form:
        driver.get(f"{base}/")
    wait_data(driver, "ready", "true")
    select(driver, "create-ruleset", ruleset)
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#create-options .option"))
    rows = driver.find_elements(By.CSS_SELECTOR, "#create-seats .seat-row")
    while len(rows) < len(seats):
        driver.find_element(By.ID, "add-seat").click()
        rows = driver.find_elements(By.CSS_SELECTOR, "#create-seats .seat-row")
    while len(rows) > len(seats):
        driver.find_element(By.ID, "remove-seat").click()
        rows = driver.find_elements(By.CSS_SELECTOR, "#create-seats .seat-row")
    for row, (kind, name) in zip(rows, seats, strict=True):
        Select(row.find_element(By.CSS_SELECTOR, ".seat-kind")).select_by_value(kind)
        if kind != "open":
            fill(row.find_element(By.CSS_SELECTOR, ".seat-name"), name)
    if seed is not None:
        fill(driver.find_element(By.ID, "create-seed"), str(seed))
    if decision_timeout is not None:
        fill(driver.find_element(By.ID, "create-timeout"), str(decision_timeout))
    driver.find_element(By.ID, "create-submit").click()
    created = wait(driver, lambda d: d.find_element(By.ID, "created-panel").is_displayed()
                   and d.find_element(By.ID, "created-id").text)
    return created


class viewport:  # a context manager, named as one uses it: `with viewport(driver, 390):`
    """The page laid out at ``width`` CSS pixels (a phone: ``mobile``, with touch-size defaults) until exit."""

    def __init__(self, driver, width: int, height: int = 900, mobile: bool | None = None) -> None:
        self.driver = driver
        self.metrics = {"width": width, "height": height, "deviceScaleFactor": 1,
                        "mobile": width < 600 if mobile is None else mobile}

    def __enter__(self):
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", self.metrics)
        return self.driver

    def __exit__(self, *exc) -> None:
        self.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


#: The smallest text a reader can be asked to read, in CSS pixels of rendered glyph box (12 px text
#: draws a box about 14 high; the same text in a 640-wide chart scaled onto a phone drew 8).
READABLE_TEXT_PX = 11


def small_texts(driver, selector: str) -> list[str]:
    """The shown elements matching ``selector`` (e.g. a chart's SVG labels) whose rendered text box is lower
    than ``READABLE_TEXT_PX``: what a reader at this width could not read."""
    return driver.execute_script("""
        return [...document.querySelectorAll(arguments[0])]
          .filter((node) => node.getClientRects().length && node.textContent.trim())
          .map((node) => [node.textContent, node.getBoundingClientRect().height])
          .filter(([, height]) => height < arguments[1])
          .map(([text, height]) => `${text} is ${height.toFixed(1)} px high`);""", selector, READABLE_TEXT_PX)


def off_screen(driver) -> list[str]:
    """What a reader at this width could not see without scrolling the page sideways: the page's own
    width beyond the window, and every shown element whose right edge passes it, unless a box around
    it scrolls (a wide table or board may scroll inside its panel) or clips it."""
    return driver.execute_script("""
        const width = document.documentElement.clientWidth;
        const out = [];
        const page = document.documentElement.scrollWidth;
        if (page > width) out.push(`page ${page} > ${width}`);
        const insideAScroller = (node) => {
          for (let up = node.parentElement; up && up !== document.body; up = up.parentElement) {
            if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(up).overflowX)) return true;
          }
          return false;
        };
        for (const node of document.querySelectorAll('body *')) {
          if (!node.getClientRects().length || insideAScroller(node)) continue;
          const right = node.getBoundingClientRect().right;
          const name = `${node.tagName.toLowerCase()}#${node.id}.${node.className}`;
          if (right > width + 0.5) out.push(`${name} ends at ${right}`);
        }
        return out;""")


#: ruleset: (players, options) of an all-bot game short enough to finish quickly
BOT_GAMES = {
    "monopoly-cars2": (3, {"turn_cap": 12}),
    "cash-n-guns": (4, {"turn_cap": 2}),
    "whipcash": (3, {"turn_cap": 12}),
    "hitchiker": (3, {"turn_cap": 20}),
}


def finished_bot_game(base: str, ruleset: str, seed: int, bots: tuple[str, ...] = ("heuristic",)) -> dict:
    """An all-bot game played to its end by the worker: {game, events, versions (the replay's steps), creator_token}.
    ``bots`` are the seats' bots in turn (seat N plays ``bots[N % len(bots)]``)."""
    players, options = BOT_GAMES[ruleset]
    seats = [{"name": f"Bot {seat + 1}", "bot": bots[seat % len(bots)]} for seat in range(players)]
    created = requests.post(f"{base}/v1/games", json={"ruleset": ruleset, "seed": seed, "seats": seats,
                                                       "options": options}, timeout=10).json()
    url = f"{base}/v1/games/{created['id']}"
    game = wait_for(lambda: (g := requests.get(url, timeout=10).json())["status"] == "finished" and g, timeout=120)
    events = requests.get(f"{url}/events?after=0&limit=1000", timeout=10).json()["events"]
    assert len(events) < 1000, "one page of events"
    versions = [0, *sorted({entry["version"] for entry in events} - {0})]
    return {"base": base, "game": game, "events": events, "versions": versions,
            "creator_token": created["creator_token"]}


def keep_creator_token(driver, base: str, game_id: str, ruleset: str, creator_token: str) -> None:
    """This browser becomes the game's creator: it keeps the creator token as the lobby keeps a game it created."""
    driver.get(f"{base}/")
    driver.execute_script("""
        const games = JSON.parse(localStorage.getItem('rulehouse.games') || '{}');
        games[arguments[0]] = {ruleset: arguments[1], creator_token: arguments[2], seats: {}};
        localStorage.setItem('rulehouse.games', JSON.stringify(games));""", game_id, ruleset, creator_token)


def in_first_screen(driver, element) -> bool:
    """Whether ``element`` is shown whole inside the window, the page not scrolled: what a reader sees first."""
    return driver.execute_script("""
        const box = arguments[0].getBoundingClientRect();
        return scrollY === 0 && box.height > 0 && box.top >= 0 && box.left >= 0
          && box.bottom <= innerHeight && box.right <= document.documentElement.clientWidth;""", element)
