"""Small helpers to drive games through the Flask test client."""

from __future__ import annotations

PROBLEM = "application/problem+json"


def api_key(secret: str) -> dict:
    """Request headers that present an app's API key."""
    return {"X-Api-Key": secret}


def auth(token: str | None) -> dict:
    return {"Authorization": f"Bearer {token}"} if token else {}


def create_game(client, ruleset: str, seats: list[dict], *, seed: int = 7, options: dict | None = None) -> dict:
    reply = client.post("/v1/games", json={"ruleset": ruleset, "seats": seats, "seed": seed,
                                           "options": options or {}})
    assert reply.status_code == 201, reply.get_json()
    return reply.get_json()


def act(client, game_id: str, token: str, action: dict, version: int, **headers):
    return client.post(f"/v1/games/{game_id}/actions", json=action,
                       headers={**auth(token), "If-Match": f'"{version}"', **headers})


def assert_problem(reply, status: int, kind: str) -> dict:
    assert reply.status_code == status, (reply.status_code, reply.get_data(as_text=True))
    assert reply.headers["Content-Type"].startswith(PROBLEM)
    body = reply.get_json(force=True)
    assert body["type"] == f"https://rulehouse.dev/problems/{kind}"
    assert body["status"] == status
    return body


#: Text no one is shown (display names, table chat: api/seats/names.py, ``unsafe_character``), one of each kind.
UNSHOWABLE_TEXTS = ["a\x00b", "bell\x07", "two\nlines", "line\u2028break", "para\u2029graph", "evil\u202etxt",
                    "iso\u2066late", "mark\u200fright", "zero\u200bwidth", "word\u2060joiner", "bom\ufeffmark",
                    "\u200dstarts joined", "ends joined\u200d", "spaced \u200c joiner", "priv\ue000ate",
                    "plane\U000f0000sixteen", "un\u0378assigned", "non\ufdd0character", "non\uffffcharacter"]
#: Text with zero-width joiners where they join two visible characters: a Persian word, emoji sequences.
SHOWABLE_TEXTS = ["\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645", "\U0001f468\u200d\U0001f469\u200d\U0001f467",
                  "\u2764\ufe0f\u200d\U0001f525"]
