"""A spectator's asks of live win chances against a real gunicorn server (docs/apps.md, "Quotas"): each
version is computed once and charged once to the game's app, and the asks count against the asker's own
rate, so another app (or a page with the game's publishable key) cannot spend the game's app's day; the
app's own seats are served after them."""

from __future__ import annotations

import requests

from api.apps.keys import PUBLISHABLE
from api.win_chances.routes import WORK_PER_WORLD
from tests.api.helpers import api_key, auth
from tests.processes import together

WORLDS = 64
#: api/ground/config.py, SPECTATOR_ASKS_LIMIT
ASKS_PER_MINUTE = 30
ORIGIN = "https://table.example"


def test_an_outsider_s_asks_cost_the_game_s_app_one_computation_per_version_and_hit_the_outsider_s_limit(
        server, keys):
    one = WORLDS * WORK_PER_WORLD
    app_id, table = keys.create_app("Table", quotas={"search_work_per_day": 3 * one})
    _, outsider = keys.create_app("Outsider")
    page = {**api_key(keys.create_key(app_id, PUBLISHABLE, (ORIGIN,))), "Origin": ORIGIN}
    game = requests.post(f"{server}/v1/games", headers=api_key(table), timeout=30, json={
        "ruleset": "whipcash", "seats": [{"name": "Ann"}, {"name": "Bob"}], "seed": 9, "hints": True,
        "win_chances": "spectators"}).json()
    url = f"{server}/v1/games/{game['id']}/win-chances?worlds={WORLDS}"

    def spent() -> int:
        return requests.get(f"{server}/v1/apps/me", headers=api_key(table), timeout=30).json()["usage"][
            "search_work_today"]

    # The outsider's asks, released together and then one after another: one computation of version 0.
    first = together(10, lambda _: requests.get(url, headers=api_key(outsider), timeout=30))
    assert {reply.status_code for reply in first} == {200}, [reply.text for reply in first]
    assert len({reply.text for reply in first}) == 1 and first[0].json()["basis"] == "spectator"
    asked = len(first)
    while (reply := requests.get(url, headers=api_key(outsider), timeout=30)).status_code == 200:
        asked += 1
        assert reply.text == first[0].text
    problem = reply.json()
    assert reply.status_code == 429 and problem["limit_class"] == "spectator_asks" and asked == ASKS_PER_MINUTE
    assert 1 <= int(reply.headers["Retry-After"]) <= 60 and problem["detail"].endswith(
        f"retry in {reply.headers['Retry-After']} s")
    assert spent() == one
    # The game's own page counts per client, apart from the outsider, and is answered from the same computation.
    assert requests.get(url, headers=page, timeout=30).text == first[0].text and spent() == one
    # The app's own seat is still served: its day has room for it.
    seat = requests.get(f"{server}/v1/games/{game['id']}", timeout=30, headers=api_key(table)).json()["waiting_for"][0]
    token = game["seats"][seat]["token"]
    mine = requests.get(url, headers={**api_key(table), **auth(token)}, timeout=30)
    assert mine.status_code == 200 and mine.json()["basis"] == "seat" and spent() == 2 * one
    # A new version is one more computation, whoever asks it first.
    decision = requests.get(f"{server}/v1/games/{game['id']}/decisions", timeout=30,
                            headers={**api_key(table), **auth(token)}).json()["decisions"][0]
    moved = requests.post(f"{server}/v1/games/{game['id']}/actions", json=decision["options"][0], timeout=30,
                          headers={**api_key(table), **auth(token), "If-Match": f'"d:{decision["id"]}"'})
    assert moved.status_code == 200, moved.text
    later = together(5, lambda _: requests.get(url, headers=page, timeout=30))
    assert {reply.json()["version"] for reply in later} == {moved.json()["version"]} and spent() == 3 * one
    assert requests.get(url, headers=api_key(outsider), timeout=30).status_code == 429
