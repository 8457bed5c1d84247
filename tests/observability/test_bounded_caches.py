"""Every in-process cache of the API keeps to its bound over many games, and /metrics shows its size.

A process that lives for weeks sees every game once: a cache without a bound is a leak (issue 29).
"""

from __future__ import annotations

import json

import pytest
import redis as redis_lib
from prometheus_client.parser import text_string_to_metric_families

from api.app import create_app
from api.apps.webhooks import Webhooks
from api.ground.config import DEFAULTS, settings
from api.play import moves
from api.views.timeline import timelines
from engine.core.registry import get_ruleset
from engine.games.hitchiker import tables as hitchiker_tables
from engine.games.whipcash import board as whipcash_board
from tests.api.helpers import act, auth

SEATS = [{"name": n} for n in ("Ann", "Bob", "Cy", "Di")]
GAMES = 9


def cache_figures(client, cache: str) -> tuple[float | None, float | None]:
    """(entries, bound) of ``cache`` in the app's /metrics."""
    found = {}
    for family in text_string_to_metric_families(client.get("/metrics").get_data(as_text=True)):
        for sample in family.samples:
            if sample.labels.get("cache") == cache:
                found[sample.name] = sample.value
    return found.get("rulehouse_cache_entries"), found.get("rulehouse_cache_bound")


@pytest.fixture
def small_app(redis_db_url):
    """An app whose process-wide caches are tiny; the defaults are back for the next test's app."""
    app = create_app({"REDIS_URL": redis_db_url, "BOT_QUEUE": None, "STATE_CACHE_SIZE": 3, "TIMELINE_GAMES": 2})
    app.testing = True
    yield app
    moves.states.resize(DEFAULTS["STATE_CACHE_SIZE"])
    timelines.resize(DEFAULTS["TIMELINE_GAMES"])


def play_one_move_each(client, games: int) -> list[dict]:
    """``games`` Cash 'n Guns games, each with seat 0's bullet chosen (its state then cached)."""
    created = []
    for seed in range(games):
        game = client.post("/v1/games", json={"ruleset": "cash-n-guns", "seats": SEATS, "seed": seed}).get_json()
        reply = act(client, game["id"], game["seats"][0]["token"], {"type": "choose_bullet", "card": "bang"}, 0)
        assert reply.status_code == 200, reply.get_json()
        created.append(game)
    return created


def test_the_state_cache_keeps_its_bound_over_many_games(small_app):
    client = small_app.test_client()
    play_one_move_each(client, GAMES)
    assert moves.states.sizes() == (3, 3)
    assert cache_figures(client, "state") == (3, 3)


def test_the_past_positions_of_few_games_are_kept(small_app):
    client = small_app.test_client()
    for game in play_one_move_each(client, GAMES):
        token = game["seats"][0]["token"]
        assert client.get(f"/v1/games/{game['id']}/views/1", headers=auth(token)).status_code == 200
    assert timelines.sizes() == (2, 2)
    assert cache_figures(client, "timelines") == (2, 2)


def test_the_webhooks_of_few_apps_are_kept(redis_db_url):
    hooks = Webhooks(redis_lib.Redis.from_url(redis_db_url, decode_responses=True),
                     redis_lib.Redis.from_url(redis_db_url), {**settings(), "WEBHOOK_ALLOW_PRIVATE": True})
    hooks._cache.resize(4)
    for number in range(GAMES):
        hooks.register(f"app{number}", "http://127.0.0.1:9/hook", ["game.finished"])
        assert [hook["events"] for hook in hooks.subscribed(f"app{number}", "game.finished")] == [["game.finished"]]
    assert hooks._cache.sizes() == (4, 4)


def test_the_custom_boards_of_few_games_are_kept(monkeypatch):
    monkeypatch.setattr(hitchiker_tables.custom_tables, "bound", 2)
    ruleset = get_ruleset("hitchiker")
    board = hitchiker_tables.DEFAULT_DATA["board"]
    for amount in range(GAMES):
        custom = {**board, "cities": [{**city, "amount": 1000 * (amount + 1)} if i == 1 else city
                                      for i, city in enumerate(board["cities"])]}
        ruleset.new_game(2, {"board": custom}, amount)
    assert hitchiker_tables.custom_tables.sizes() == (2, 2)


def test_the_custom_whipcash_boards_of_few_games_are_kept(monkeypatch):
    monkeypatch.setattr(whipcash_board.custom_boards, "bound", 2)
    ruleset = get_ruleset("whipcash")
    for seed in range(GAMES):
        board = json.loads(whipcash_board.DEFAULT_BOARD_PATH.read_text())
        ruleset.view(ruleset.new_game(2, {"board": board}, seed), None)
    assert whipcash_board.custom_boards.sizes() == (2, 2)


def test_a_made_up_method_adds_no_label_set(client):
    assert client.open("/v1/rulesets", method="BREW").status_code == 405
    text = client.get("/metrics").get_data(as_text=True)
    methods = {sample.labels["method"] for family in text_string_to_metric_families(text)
               for sample in family.samples if sample.name == "rulehouse_http_request_duration_seconds_count"}
    assert "other" in methods and "BREW" not in methods
