"""A finished table at a laptop's width (1280 px) and a phone's (390 px), for every ruleset: who won comes
first, in the first screen, with links to the replay, the analysis, a rematch (for the browser that created the
game) and the lobby, all in the first screen too; the board says the game is over (not
"To play: Bot 2 · Phase over"); no board panel scrolls sideways at 1280; on a phone no money is cut off."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from tests.web.pages import (
    BOT_GAMES,
    body_data,
    console_errors,
    finished_bot_game,
    in_first_screen,
    keep_creator_token,
    viewport,
    wait,
    wait_data,
)

WIDTHS = (1280, 390)


def sideways_scrollers(driver, root: str) -> list[str]:
    """Every box in ``root`` (the board panels) that scrolls sideways: its content wider than itself."""
    return driver.execute_script("""
        const out = [];
        for (const panel of document.querySelectorAll(arguments[0])) {
          for (const node of [panel, ...panel.querySelectorAll('*')]) {
            if (!node.getClientRects().length) continue;
            if (!['auto', 'scroll'].includes(getComputedStyle(node).overflowX)) continue;
            if (node.scrollWidth > node.clientWidth) {
              const name = `${node.tagName.toLowerCase()}#${node.id}.${node.className}`;
              out.push(`${name}: ${node.scrollWidth} > ${node.clientWidth}`);
            }
          }
        }
        return out;""", root)


def hidden_money(driver) -> dict:
    """Money texts (a currency sign and a digit) in the board's tables and facts and in the result, {seen: how
    many, cut: those a reader cannot see whole without scrolling}: each text's box must lie inside the window
    and inside every box around it that clips."""
    return driver.execute_script("""
        const out = [];
        let seen = 0;
        const walker = document.createTreeWalker(document.getElementById('main'), NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const text = node.textContent.trim();
          if (!/(\\$|\\bM)-?\\d/.test(text) || !node.parentElement.getClientRects().length) continue;
          // the money tables and facts (a ring's own cells may scroll sideways on a phone, by design)
          if (!node.parentElement.closest('#board table, #board dl, #result, #over-panel')) continue;
          seen += 1;
          const range = document.createRange();
          range.selectNodeContents(node);
          const box = range.getBoundingClientRect();
          if (box.left < -0.5 || box.right > document.documentElement.clientWidth + 0.5) {
            out.push(`${text}: ${box.left}..${box.right} outside the window`);
            continue;
          }
          for (let up = node.parentElement; up && up !== document.body; up = up.parentElement) {
            if (getComputedStyle(up).overflowX === 'visible') continue;
            const clip = up.getBoundingClientRect();
            if (box.left < clip.left - 0.5 || box.right > clip.right + 0.5) {
              const by = `${up.tagName}.${up.className} ${clip.left}..${clip.right}`;
              out.push(`${text}: ${box.left}..${box.right} clipped by ${by}`);
              break;
            }
          }
        }
        return {seen, cut: out};""")


@pytest.mark.parametrize("ruleset", sorted(BOT_GAMES))
def test_a_finished_table_says_who_won_first_and_fits(service, browser, ruleset):
    driver = browser
    case = finished_bot_game(service.url, ruleset, seed=3)
    game_id = case["game"]["id"]
    keep_creator_token(driver, service.url, game_id, ruleset, case["creator_token"])  # it may start a rematch
    for width in WIDTHS:
        with viewport(driver, width, 844 if width < 600 else 800):
            driver.get(f"{service.url}/table/{game_id}")
            wait_data(driver, "status", "finished")
            wait(driver, lambda d: d.find_element(By.ID, "over-panel").is_displayed()
                 and d.find_element(By.CSS_SELECTOR, "#result .winners").text)
            winner = driver.find_element(By.ID, "over-line")
            assert winner.text == driver.find_element(By.CSS_SELECTOR, "#result .winners").text
            assert "win" in winner.text.lower()
            place = driver.execute_script("""
                const box = arguments[0].getBoundingClientRect();
                return {top: box.top, bottom: box.bottom, height: innerHeight, scrolled: scrollY};""", winner)
            assert place["scrolled"] == 0 and place["top"] >= 0 and place["bottom"] <= place["height"], place
            replay = driver.find_element(By.ID, "over-replay")
            assert replay.get_attribute("href") == f"{service.url}/replay/{game_id}"
            analysis = wait(driver, lambda d: d.find_elements(By.ID, "over-analysis"))[0]
            assert analysis.get_attribute("href") == f"{service.url}/analysis/{game_id}"
            rematch = wait(driver, lambda d: (b := d.find_element(By.ID, "rematch")).is_displayed() and b,
                           message="the creator is offered no rematch")
            for link in (replay, analysis, rematch):
                assert in_first_screen(driver, link), link.text
            lobby = [link.get_attribute("href") for link in driver.find_elements(By.CSS_SELECTOR, "#over-panel a")]
            assert f"{service.url}/" in lobby
            board = driver.find_element(By.ID, "board").text
            assert "To play" not in board and "Phase" not in board and "To decide" not in board, board
            assert "over" in board.lower()
            if width >= 1280:
                assert not (scrolling := sideways_scrollers(driver, ".board-panel")), scrolling
            else:
                money = hidden_money(driver)
                assert money["seen"] and not money["cut"], money
            assert console_errors(driver) == []
        if width >= 1280:  # the same page turned to a phone's width: its board is drawn again to fit
            with viewport(driver, 390, 844):
                wait(driver, lambda d: not hidden_money(d)["cut"], message=f"money cut off: {hidden_money(driver)}")
        if width >= 1280:  # the replay's board panel, midway through the game, fits as well
            with viewport(driver, width, 800):
                middle = len(case["versions"]) // 2
                driver.get(f"{service.url}/replay/{game_id}?step={middle}")
                wait(driver, lambda d, middle=middle: body_data(d, "drawnStep") == str(middle))
                assert not (scrolling := sideways_scrollers(driver, ".board-panel")), scrolling
