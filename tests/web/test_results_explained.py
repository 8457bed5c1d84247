"""Every ruleset's table says how a result was counted: one line per seat of the ranking, with its
score, drawn by the board's ``explainResult`` from finished games' results and views."""

from __future__ import annotations

import json

from engine.core.registry import all_rulesets
from tests.engine.invariants import play_random
from tests.web.pages import wait_data


def _finished_games() -> list[dict]:
    games = []
    for ruleset_id, ruleset in sorted(all_rulesets().items()):
        for seed in range(3):
            state, _, _ = play_random(ruleset, ruleset.min_players + seed, seed)
            games.append({"ruleset": ruleset_id, "result": ruleset.result(state).to_dict(),
                          "view": ruleset.view(state, None)})
    return games


def test_each_boards_explanation_lists_every_seat_with_its_score(service, browser):
    browser.get(f"{service.url}/")
    wait_data(browser, "ready", "true")
    games = _finished_games()
    drawn = browser.execute_async_script("""
        const [games, done] = arguments;
        const modules = [import('/web/static/js/boards/index.js'), import('/web/static/js/parts.js')];
        Promise.all(modules).then(([boards, parts]) => {
          done(games.map(({ ruleset, result, view }) => {
            const seats = view.players.map((_, seat) => ({ seat, name: `P${seat}` }));
            const ctx = parts.contextFor({ ruleset, seats, view }, null);
            try {
              const node = boards.boardFor(ruleset).explainResult(result, view, ctx);
              const rows = [...node.querySelectorAll('[data-seat]')];
              return { seats: rows.map((row) => Number(row.dataset.seat)),
                       totals: rows.map((row) => Number(row.dataset.total)),
                       texts: rows.map((row) => row.textContent), formatted: result.scores.map(ctx.money) };
            } catch (error) { return { error: String(error) }; }
          }));
        }, (error) => done([{ error: String(error) }]));""", games)
    assert len(drawn) == len(games)
    for game, shown in zip(games, drawn, strict=True):
        assert "error" not in shown, (game["ruleset"], shown)
        result = game["result"]
        assert shown["seats"] == result["ranking"], game["ruleset"]
        assert shown["totals"] == [result["scores"][seat] for seat in result["ranking"]]
        for seat, text in zip(shown["seats"], shown["texts"], strict=True):
            assert shown["formatted"][seat] in text, json.dumps([game["ruleset"], text])
