"""A spectator's asks of live win chances against a real gunicorn server (docs/apps.md, "Quotas"): each
version is computed once and charged once to the game's app, and the asks count against the asker's own
rate, so another app (or a page with the game's publishable key) cannot spend the game's app's day; the
app's own seats are served after them."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import requests

from api.apps.app_store import PUBLISHABLE
from api.win_chances.routes import WORK_PER_WORLD
from tests.api.helpers import api_key, auth
from tests.processes import together, wait_for

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
    assert {reply.status_code for reply in later} == {200}, [(reply.status_code, reply.text) for reply in later]
    assert {reply.json()["version"] for reply in later} == {moved.json()["version"]} and spent() == 3 * one
    assert requests.get(url, headers=api_key(outsider), timeout=30).status_code == 429



def test_an_ask_that_found_the_chances_unkept_does_not_compute_them_again_after_another_kept_them(
        app, keys, tmp_path, monkeypatch):
    """The race behind a flake of the test above: one ask finds the version's chances not kept and is held
    (pause point ``chances-unkept``) while another claims, computes, keeps and lets go of the claim; the held
    ask, let go, must answer the kept chances, not claim and compute (and charge) the version again."""
    one = WORLDS * WORK_PER_WORLD
    # Room for one computation: a second one (charged before it finds the first kept, then refunded) is a 403.
    _app_id, table = keys.create_app("Race", quotas={"search_work_per_day": one})
    client = app.test_client()
    game = client.post("/v1/games", headers=api_key(table), json={
        "ruleset": "whipcash", "seats": [{"name": "Ann"}, {"name": "Bob"}], "seed": 9, "hints": True,
        "win_chances": "spectators"}).get_json()
    url = f"/v1/games/{game['id']}/win-chances?worlds={WORLDS}"
    marker = tmp_path / "held.pid"
    monkeypatch.setenv("RULEHOUSE_TEST_PAUSE", f"chances-unkept:{marker}")
    with ThreadPoolExecutor(1) as pool:
        held = pool.submit(lambda: app.test_client().get(url, headers=api_key(table)))
        wait_for(marker.exists, timeout=60)
        free = client.get(url, headers=api_key(table))  # passes the point: the marker is taken
        assert free.status_code == 200, free.get_data(as_text=True)
        marker.unlink()
        late = held.result(timeout=60)
    assert late.status_code == 200, late.get_data(as_text=True)
    assert late.get_json() == free.get_json()
    usage = client.get("/v1/apps/me", headers=api_key(table)).get_json()["usage"]
    assert usage["search_work_today"] == one
