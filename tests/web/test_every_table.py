"""Every ruleset's table at a laptop's width (1280 px) and a phone's (390 px), played by clicking:
the board is drawn (never the raw-JSON fallback), pawns tell the seats apart, log lines name places,
and the move panel is never left greyed while a decision is open."""

from __future__ import annotations

import pytest
import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from engine.core.registry import all_rulesets
from tests.web.pages import (
    body_data,
    click_action,
    console_errors,
    enabled_actions,
    small_texts,
    viewport,
    wait,
    wait_data,
)

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


def _board_parts(driver) -> dict:
    """What the board shows, read in one go (a live table redraws its board whenever the game moves)."""
    return driver.execute_script("""
        const texts = (selector) => [...document.querySelectorAll(selector)].map((node) => node.textContent);
        const pawns = [...document.querySelectorAll('#board .pawn')]
          .map((pawn) => [pawn.dataset.seat, pawn.textContent]);
        return {raw: texts('#board .raw-view').length, gangsters: texts('#board .gang-table .gangster-name'),
                spaces: texts('#board .ring .space > strong'), pawns};""")


def split_words(driver) -> list[str]:
    """The words of the board's names (spaces, gangsters) that the layout broke across two lines: a word
    is broken when its text spans line boxes at more than one height (a hyphen is a fair break)."""
    return driver.execute_script("""
        const broken = [];
        for (const name of document.querySelectorAll('#board .ring .space > strong, #board .gangster-name')) {
          for (const node of name.childNodes) {
            if (node.nodeType !== Node.TEXT_NODE) continue;
            const pattern = /[^\\s-]+-?/g;
            let match;
            while ((match = pattern.exec(node.textContent)) !== null) {
              const range = document.createRange();
              range.setStart(node, match.index);
              range.setEnd(node, match.index + match[0].length);
              const lines = [...range.getClientRects()].filter((r) => r.width > 0);
              const tops = new Set(lines.map((r) => Math.round(r.top)));
              if (tops.size > 1) broken.push(`${match[0]} (in ${name.textContent})`);
            }
          }
        }
        return broken;""")


def assert_board_drawn(driver, ruleset: str, players: int) -> None:
    board = _board_parts(driver)
    assert board["raw"] == 0, "the board fell back to the raw view"
    assert split_words(driver) == [], "names broken mid-word"
    assert not (small := small_texts(driver, "#board *:not(:has(*))")), small  # the innermost texts
    if ruleset == "cash-n-guns":
        assert board["gangsters"] == ["Ann"] + [f"Bot {seat + 1}" for seat in range(1, players)]
        return
    titles = board["spaces"]
    assert len(titles) >= 16
    assert all(titles) and not any(title.startswith(("city ", "space ")) for title in titles), titles
    if ruleset == "hitchiker":  # the cities of the ruleset's own data, in order
        data = all_rulesets()["hitchiker"].default_data()["board"]["cities"]
        assert titles == [city["name"] for city in data]


def assert_pawns_distinct(driver) -> None:
    """Each seat's pawn has its own label ("Bot 2" and "Bot 3" are B2 and B3, not both B)."""
    labels: dict[str, set[str]] = {}
    for seat, text in _board_parts(driver)["pawns"]:
        labels.setdefault(seat, set()).add(text)
    assert all(len(texts) == 1 for texts in labels.values()), labels
    shown = [next(iter(texts)) for texts in labels.values()]
    assert len(set(shown)) == len(shown), labels


#: boxes that must not overlap one another (within each group), nor run off the page
BOX_GROUPS = {
    "panels": "#main .panel:not([hidden])",
    "spaces": "#board .ring .space, #board .ring-middle",
    "gangsters": "#board .gang-table .gangster, #board .gang-table .felt",
}


def _rectangles(driver) -> dict:
    return driver.execute_script("""
        const groups = arguments[0];
        const out = {width: document.documentElement.clientWidth, board: null, groups: {}};
        const box = (node) => { const r = node.getBoundingClientRect();
          return {left: r.left + scrollX, top: r.top + scrollY, right: r.right + scrollX, bottom: r.bottom + scrollY,
                  width: r.width, id: node.id || node.className}; };
        for (const [name, selector] of Object.entries(groups)) {
          out.groups[name] = [...document.querySelectorAll(selector)].filter((n) => n.getClientRects().length).map(box);
        }
        for (const id of ['board', 'decisions-panel', 'private-panel']) {
          const node = document.getElementById(id);
          out[id] = node && !node.hidden && node.getClientRects().length ? box(node) : null;
        }
        out.boardScroll = document.getElementById('board').scrollWidth;
        return out;""", BOX_GROUPS)


def _overlap(a: dict, b: dict) -> bool:
    tolerance = 0.5  # sub-pixel rounding of neighbours that touch
    return (min(a["right"], b["right"]) - max(a["left"], b["left"]) > tolerance
            and min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > tolerance)


def assert_phone_layout(driver) -> None:
    """At a phone's width: the boxes fit (``assert_boxes_fit``), and the seat's own move and hand come
    before the board, near the top."""
    shapes = assert_boxes_fit(driver)
    board = shapes["board"]
    move = shapes["decisions-panel"]
    assert move is not None and move["top"] < board["top"] and move["top"] < 300, (move, board)
    if shapes["private-panel"] is not None:
        assert shapes["private-panel"]["top"] < board["top"]


def assert_boxes_fit(driver) -> dict:
    """No box overlaps another of its group, the panels stay on the page (the board may scroll inside
    its panel), and ring cells stay readable."""
    shapes = _rectangles(driver)
    assert shapes["groups"]["spaces"] or shapes["groups"]["gangsters"], "no board boxes found"
    for name, boxes in shapes["groups"].items():
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                assert not _overlap(a, b), (name, a, b)
    for panel in shapes["groups"]["panels"]:
        assert panel["left"] >= 0 and panel["right"] <= shapes["width"] + 0.5, panel
    board = shapes["board"]
    for gangster in shapes["groups"]["gangsters"]:
        assert board["left"] - 0.5 <= gangster["left"] and gangster["right"] <= board["right"] + 0.5, gangster
    for space in shapes["groups"]["spaces"]:
        assert space["width"] >= 60, space  # about 4 rem: a name on two or three lines, never fragments
    return shapes


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
        game = open_table(driver, service.url, ruleset, seed, players)
        assert_board_drawn(driver, ruleset, players)
        if width < 600:
            assert_phone_layout(driver)
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
        # Read in a wait: a bot's move redraws the log meanwhile (the read is then made again).
        log = wait(driver, lambda d: [line.text for line in d.find_elements(By.CSS_SELECTOR, "#log li")],
                   message="the log is empty")
        assert log and not [line for line in log if "city " in line or "space " in line]
        assert console_errors(driver) == []
        assert_replay_shows_each_step(driver, service.url, game["id"], ruleset, players)


def _table_now(driver) -> tuple[int, str, int]:
    """(version, the board's text, the replay's step for it: how many moves of the log reach it), read at one
    instant (a replay steps by move: one version, its events together)."""
    return tuple(driver.execute_script("""
        const version = Number(document.body.dataset.version);
        const moves = new Set([...document.querySelectorAll('#log li')].map((li) => Number(li.dataset.version))
          .filter((seen) => seen > 0 && seen <= version));
        return [version, document.getElementById('board').innerText, moves.size];"""))


def _board_text(driver) -> str:
    return driver.execute_script("return document.getElementById('board').innerText;")


def assert_replay_shows_each_step(driver, base: str, game_id: str, ruleset: str, players: int) -> None:
    """The replay, opened on a link to a step, shows the board Ann saw then; Back and Next redraw it."""
    wait(driver, lambda d: body_data(d, "loggedVersion") == body_data(d, "version"))  # the log is complete
    version, board, step = _table_now(driver)
    driver.get(f"{base}/replay/{game_id}?step={step}")
    wait(driver, lambda d: body_data(d, "drawnStep") == str(step) or d.find_element(By.ID, "problem").text)
    assert driver.find_element(By.ID, "problem").text == ""
    assert body_data(driver, "drawnVersion") == str(version)
    assert _board_text(driver) == board
    assert_board_drawn(driver, ruleset, players)
    if driver.execute_script("return innerWidth;") < 600:
        assert_boxes_fit(driver)
    boards = {step: board}
    for button, expected in (("prev", step - 1), ("prev", step - 2), ("next", step - 1), ("first", 0)):
        driver.find_element(By.ID, button).click()
        wait(driver, lambda d, expected=expected: body_data(d, "drawnStep") == str(expected),
             message=f"{button} to {expected}: step {body_data(driver, 'step')} drawn {body_data(driver, 'drawnStep')} "
                     f"problem {driver.find_element(By.ID, 'problem').text!r} logs {driver.get_log('browser')}")
        assert_board_drawn(driver, ruleset, players)
        boards[expected] = _board_text(driver)
        assert f"step={expected}" in driver.current_url  # the address links this step
    assert len(set(boards.values())) >= 2, "every step shows the same board"
    driver.find_element(By.ID, "scrub").send_keys(Keys.END)  # the slider, by keyboard: to the last step
    last = driver.find_element(By.ID, "steps").text
    wait_data(driver, "drawnStep", last)
    assert_board_drawn(driver, ruleset, players)
    assert console_errors(driver) == []
