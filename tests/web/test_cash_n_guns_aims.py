"""Cash 'n Guns' aim arrows (drawn once the aims are revealed) go around the loot and the felt's text,
never across them, at a laptop's width and a phone's (which leaves the arrows out: each box says its aim)."""

from __future__ import annotations

import pytest
import requests

from tests.processes import wait_for
from tests.web.pages import body_data, console_errors, viewport, wait

#: five gangsters (Ann and four bots): the aims cross the table, as on the docs' screenshot
SEED, PLAYERS = 4, 5

#: what an arrow's path must keep out of, as client rectangles: each loot card on the table, and every line
#: of the felt's text (its heading and the facts), as tight as its glyphs
OBSTACLES_AND_CROSSINGS = """
    const obstacles = [];
    for (const loot of document.querySelectorAll('#board .felt .loot')) {
      obstacles.push([`loot ${loot.textContent}`, loot.getBoundingClientRect()]);
    }
    const walker = document.createTreeWalker(document.querySelector('#board .felt'), NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const rect of range.getClientRects()) obstacles.push([`text ${node.textContent}`, rect]);
    }
    const crossings = [];
    const arrows = [...document.querySelectorAll('#board .aims path.aim')];
    for (const arrow of arrows) {
      if (!arrow.getClientRects().length) continue;  // not shown (a phone)
      const toScreen = arrow.getScreenCTM();
      const half = parseFloat(getComputedStyle(arrow).strokeWidth) / 2;
      const total = arrow.getTotalLength();
      for (let along = 0; along <= total; along += 1) {
        const point = arrow.getPointAtLength(along).matrixTransform(toScreen);
        for (const [name, r] of obstacles) {
          const inside = point.x > r.left - half && point.x < r.right + half
            && point.y > r.top - half && point.y < r.bottom + half;
          if (inside) {
            crossings.push(`arrow ${arrow.dataset.from}→${arrow.dataset.to} crosses ${name}`);
          }
        }
      }
    }
    return {obstacles: obstacles.length, crossings: [...new Set(crossings)],
            shown: arrows.filter((arrow) => arrow.getClientRects().length).length};
"""

#: where each shown arrow ends, against its target's box (client pixels): the arrow points at its target
ARROW_ENDS = """
    return [...document.querySelectorAll('#board .aims path.aim')].map((arrow) => {
      const end = arrow.getPointAtLength(arrow.getTotalLength()).matrixTransform(arrow.getScreenCTM());
      const box = document.querySelector(`#board .gangster[data-seat="${arrow.dataset.to}"]`).getBoundingClientRect();
      const gap = Math.max(box.left - end.x, end.x - box.right, box.top - end.y, end.y - box.bottom, 0);
      return [arrow.dataset.from, arrow.dataset.to, gap];
    });
"""


def revealed_aims_game(base: str) -> tuple[dict, dict]:
    """A game of Ann and bots, Ann playing her first options until the aims are revealed (she is then asked
    whether to stand): the game and Ann's view, which shows them."""
    seats = [{"name": "Ann"}] + [{"name": f"Bot {seat + 1}", "bot": "heuristic"} for seat in range(1, PLAYERS)]
    game = requests.post(f"{base}/v1/games", json={"ruleset": "cash-n-guns", "seed": SEED, "seats": seats},
                         timeout=10).json()
    headers = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
    url = f"{base}/v1/games/{game['id']}"
    for _ in range(30):
        pending = wait_for(lambda: (p := requests.get(f"{url}/decisions", headers=headers, timeout=10).json())
                           ["decisions"] and p)
        view = requests.get(url, headers=headers, timeout=10).json()["view"]
        if view["phase"] != "aim" and any(player["target"] is not None for player in view["players"]):
            return game, view
        answer = requests.post(f"{url}/actions", json=pending["decisions"][0]["options"][0],
                               headers={**headers, "If-Match": f'"{pending["version"]}"'}, timeout=10)
        assert answer.status_code in (200, 412), answer.text  # 412: a bot moved meanwhile (read again)
    raise AssertionError("the aims were never revealed")


@pytest.mark.parametrize("width", [1280, 390])
def test_the_aim_arrows_go_around_the_loot_and_the_felts_text(service, browser, width):
    driver, base = browser, service.url
    game, view = revealed_aims_game(base)
    aims = sum(player["alive"] and player["target"] is not None for player in view["players"])
    assert aims >= 3
    with viewport(driver, width):
        driver.get(f"{base}/table/{game['id']}#seat=0&token={game['seats'][0]['token']}")
        wait(driver, lambda d: body_data(d, "version") is not None, message="the table was never drawn")
        if width >= 600:
            wait(driver, lambda d: d.execute_script(
                "return document.querySelector('#board .aims')?.dataset.routed ?? null;") == str(aims),
                message="the aim arrows were never drawn")
        else:
            wait(driver, lambda d: len(d.find_elements("css selector", "#board .gangster .target")) == aims)
        measured = driver.execute_script(OBSTACLES_AND_CROSSINGS)
        assert measured["obstacles"] >= len(view["lineup"]) + 4  # the loot and the felt's lines were found
        assert measured["crossings"] == []
        if width >= 600:
            assert measured["shown"] == aims
            ends = driver.execute_script(ARROW_ENDS)
            assert all(gap < 6 for _, _, gap in ends), ends  # each arrow's head rests on its target's box
        else:
            assert measured["shown"] == 0  # a phone says each aim in its gangster's box instead
    assert console_errors(driver) == []
