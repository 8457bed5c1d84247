"""The SDK as an app: its key on every request, quota and rate-limit errors, webhook signatures."""

from __future__ import annotations

import time

import pytest
import redis as redis_lib
from hypothesis import given, settings
from hypothesis import strategies as st
from rulehouse_sdk import Client, QuotaExceeded, RateLimited, Unauthorized, webhooks

from api.apps.app_store import AppKeys
from api.apps.webhooks import signature_header
from tests.sdk.conftest import serving

SEATS = [{"name": "Ann"}, {"name": "Bob"}]


@pytest.fixture
def keyed(redis_db_url, checker):
    keys = AppKeys(redis_lib.Redis.from_url(redis_db_url, decode_responses=True))
    with serving({"REDIS_URL": redis_db_url, "REQUIRE_API_KEYS": True, "BOT_QUEUE": None}) as url:
        yield url, keys, checker


def test_the_client_sends_its_app_key_and_keeps_it_with_another_token(keyed):
    url, keys, checker = keyed
    _, key = keys.create_app("SDK app", quotas={"live_games": 1}, limits={"reads": "2/minute"})
    session = checker.session()
    with Client(url, session=session, retries=0) as anonymous, pytest.raises(Unauthorized) as refused:
        anonymous.list_rulesets()
    assert refused.value.reason == "app_key_required"
    app = Client(url, api_key=key, session=session, retries=0)
    game = app.create_game("monopoly-cars2", SEATS, seed=1)
    seat = app.with_token(game["seats"][0]["token"])
    assert seat.get_game(game["id"])["seat"] == 0
    with pytest.raises(QuotaExceeded) as over:
        app.create_game("monopoly-cars2", SEATS, seed=2)
    assert over.value.reason == "quota_live_games" and over.value.status == 403
    assert app.get_app()["usage"]["live_games"] == 1  # the second read of this minute
    with pytest.raises(RateLimited) as limited:
        app.get_app()
    assert limited.value.status == 429 and int(limited.value.response.headers["Retry-After"]) >= 1
    session.close()


def test_webhook_signatures_verify_and_refuse_tampering():
    body = b'{"id":"dlv_1","type":"game.finished","created":"2026-01-01T00:00:00Z","data":{"game":"g"}}'
    header = signature_header("whsec_s", int(time.time()), body)
    assert webhooks.verify("whsec_s", body, header)["id"] == "dlv_1"
    for secret, sent, signature in (("whsec_other", body, header), ("whsec_s", body + b" ", header),
                                    ("whsec_s", body, None), ("whsec_s", body, "t=x,v1=y")):
        with pytest.raises(webhooks.InvalidSignature):
            webhooks.verify(secret, sent, signature)
    old = signature_header("whsec_s", int(time.time()) - 3600, body)
    with pytest.raises(webhooks.InvalidSignature, match="too old"):
        webhooks.verify("whsec_s", body, old)


def test_any_malformed_signature_header_is_an_invalid_signature_never_another_error():
    """A receiver that catches InvalidSignature answers every bad delivery itself (never a 500): non-ASCII
    in v1= or t=, other digits, repeated or empty parts, text bodies that are no UTF-8."""
    body = b'{"id":"dlv_1"}'
    stamp = int(time.time())
    good = signature_header("whsec_s", stamp, body)
    digest = good.split("v1=")[1]
    for header in (f"t={stamp},v1={digest[:-1]}\u00e9", f"t={stamp},v1=\u00e9" + digest[1:], "t=\u0661\u0662,v1=ab",
                   f"t={stamp},t={stamp},v1={digest}", f"t=,v1={digest}", f"t= {stamp},v1={digest}", "v1=,t=",
                   f"t={stamp}", ",,,", "=", "t=1" + "0" * 30 + f",v1={digest}", f"t=-{stamp},v1={digest}"):
        with pytest.raises(webhooks.InvalidSignature):
            webhooks.verify("whsec_s", body, header)
    with pytest.raises(webhooks.InvalidSignature):
        webhooks.verify("whsec_s", "\ud800", good)
    with pytest.raises(webhooks.InvalidSignature):
        webhooks.verify("whsec_s", 5, good)
    # A second v1= (a secret being rotated) may carry the right signature.
    assert webhooks.verify("whsec_s", body, f"t={stamp},v1={'0' * 64},v1={digest}")["id"] == "dlv_1"


@settings(max_examples=300, deadline=None)
@given(header=st.text() | st.builds("t={},v1={}".format, st.text(), st.text()),
       body=st.binary(max_size=64) | st.text(max_size=64))
def test_whatever_a_forger_sends_verify_raises_invalid_signature(header, body):
    with pytest.raises(webhooks.InvalidSignature):
        webhooks.verify("whsec_s", body, header)
