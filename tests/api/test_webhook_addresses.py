"""Webhook URLs: IPv6 forms of private IPv4 addresses are refused, and a delivery connects to the
address that was checked (never a second lookup), still speaking to the host by name over TLS,
all within one deadline per attempt (a tar pit, or addresses that never answer, cannot stretch it)."""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import redis as redis_lib

from api.apps import webhook_addresses
from api.apps.webhook_addresses import CheckedUrl, Deadline, UnsafeUrl, check_url, pinned_connection
from api.apps.webhooks import Webhooks, _post
from api.ground.config import settings
from tests.api.helpers import assert_problem
from tests.processes import wait_for
from tests.workers.tarpit import TarPit

DATA = Path(__file__).parent / "data"
#: a self-signed certificate for rebind.test (and nothing else), and its key: test data only
CERT, KEY = DATA / "webhook-tls-cert.pem", DATA / "webhook-tls-key.pem"
NOT_PUBLIC = ("127.0.0.1", "169.254.169.254", "10.0.0.5")


def ipv6_forms(ipv4: str) -> dict[str, str]:
    """The IPv6 addresses that carry ``ipv4`` (or, for local-use NAT64, that are never public)."""
    value = int(ipaddress.IPv4Address(ipv4))
    return {
        "NAT64": str(ipaddress.IPv6Address((0x64FF9B << 96) | value)),
        "NAT64 local use": str(ipaddress.IPv6Address((0x64FF9B0001 << 80) | value)),
        "6to4": str(ipaddress.IPv6Address((0x2002 << 112) | (value << 80) | 1)),
        "IPv4-compatible": str(ipaddress.IPv6Address(value)),
        "IPv4-mapped": str(ipaddress.IPv6Address((0xFFFF << 32) | value)),
        "IPv4-translated": str(ipaddress.IPv6Address((0xFFFF << 48) | value)),
    }


@pytest.mark.parametrize("address", [pytest.param(address, id=f"{form} of {ipv4}") for ipv4 in NOT_PUBLIC
                                     for form, address in ipv6_forms(ipv4).items()])
def test_every_ipv6_form_of_a_private_ipv4_address_is_refused(address):
    with pytest.raises(UnsafeUrl, match="not a public address"):
        check_url(f"https://[{address}]:8443/hook", allow_private=False)


def test_ipv6_forms_of_a_public_ipv4_address_are_judged_by_it():
    forms = ipv6_forms("8.8.8.8")
    refused = {form for form, address in forms.items()
               if not webhook_addresses.is_public(ipaddress.ip_address(address))}
    assert refused == {"NAT64 local use"}  # for local use only (RFC 8215), whatever it carries
    assert check_url(f"http://[{forms['NAT64']}]/hook", allow_private=False).addresses == (forms["NAT64"],)


def test_the_webhook_route_refuses_them_too(redis_db_url):
    from api.app import create_app

    client = create_app({"REDIS_URL": redis_db_url, "BOT_QUEUE": None, "WEBHOOK_ALLOW_PRIVATE": False}).test_client()
    for address in ipv6_forms("169.254.169.254").values():
        reply = client.post("/v1/webhooks", json={"url": f"http://[{address}]/hook", "events": ["game.finished"]})
        assert assert_problem(reply, 422, "validation-error")["reason"] == "webhook_url_refused"


class Receiver:
    """A local HTTP(S) server that records each request's Host header and TLS server name."""

    def __init__(self, tls: bool = False) -> None:
        self.hosts: list[str] = []
        self.server_names: list[str | None] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers["Content-Length"]))
                receiver.hosts.append(self.headers["Host"])
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        if tls:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(CERT, KEY)
            context.sni_callback = lambda sock, name, _context: receiver.server_names.append(name)
            self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver():
    made = []
    yield lambda tls=False: made.append(Receiver(tls)) or made[-1]
    for server in made:
        server.close()


def post(connection: http.client.HTTPConnection) -> int:
    try:
        connection.request("POST", "/hook", body=b"{}")
        return connection.getresponse().status
    finally:
        connection.close()


def test_a_pinned_connection_never_looks_the_host_up_again(receiver):
    server = receiver()
    # rebind.invalid resolves nowhere (RFC 6761): only the checked address can be reached.
    checked = CheckedUrl("http", "rebind.invalid", server.port, "/hook", ("192.0.2.1", "127.0.0.1"))
    assert post(pinned_connection(checked, timeout=2)) == 204
    assert server.hosts == [f"rebind.invalid:{server.port}"]


def test_a_pinned_tls_connection_checks_the_certificate_against_the_host_name(receiver):
    server = receiver(tls=True)
    trust = ssl.create_default_context(cafile=str(CERT))
    checked = CheckedUrl("https", "rebind.test", server.port, "/hook", ("127.0.0.1",))
    assert post(pinned_connection(checked, timeout=5, context=trust)) == 204
    assert server.server_names == ["rebind.test"] and server.hosts == [f"rebind.test:{server.port}"]
    # The same address under another name: the certificate is not that name's.
    with pytest.raises(ssl.SSLCertVerificationError):
        post(pinned_connection(CheckedUrl("https", "other.test", server.port, "/hook", ("127.0.0.1",)),
                               timeout=5, context=trust))
    # And without trusting the test certificate, the system's trust store refuses it.
    with pytest.raises(ssl.SSLCertVerificationError):
        post(pinned_connection(checked, timeout=5))


def test_a_delivery_goes_to_the_address_checked_when_the_name_answers_otherwise_later(
        receiver, redis_db_url, monkeypatch):
    """DNS rebinding: the name answers the receiver's address to the check, then an address nobody
    checked. The delivery still reaches the receiver, after one lookup per attempt."""
    server = receiver()
    lookups = []
    real = socket.getaddrinfo

    def rebinding(host, *args, **kwargs):
        if host != "rebind.invalid":
            return real(host, *args, **kwargs)  # Redis, say
        lookups.append(host)
        address = "127.0.0.1" if len(lookups) % 2 else "192.0.2.1"  # TEST-NET-1: reaches nothing
        return [(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP, "", (address, server.port))]

    monkeypatch.setattr(webhook_addresses.socket, "getaddrinfo", rebinding)
    config = {**settings(), "REDIS_URL": redis_db_url, "WEBHOOK_ALLOW_PRIVATE": True, "WEBHOOK_TIMEOUT_SECONDS": 1}
    hooks = Webhooks(redis_lib.Redis.from_url(redis_db_url, decode_responses=True),
                     redis_lib.Redis.from_url(redis_db_url), config)
    hooks.register("app_rebind", f"http://rebind.invalid:{server.port}/hook", ["game.finished"])
    [delivery] = hooks.emit("app_rebind", "game.finished", {"game": "g"})
    lookups.clear()
    assert hooks.attempt(delivery) == "delivered"
    assert lookups == ["rebind.invalid"] and server.hosts == [f"rebind.invalid:{server.port}"]


def test_one_deadline_bounds_a_whole_attempt_against_a_tar_pit():
    """A receiver that sends one byte every 0.3 s never trips a per-read timeout of 5 s; the attempt's
    one limit (1 s) ends it all the same, and the receiver sees the connection closed then."""
    pit = TarPit(every=0.3)
    try:
        checked = check_url(pit.url, allow_private=True)
        started = time.monotonic()
        with pytest.raises(TimeoutError, match="within 1 s"):
            _post(checked, b"{}", "whsec_x", "dlv_1", 1.0)
        took = time.monotonic() - started
        assert 1.0 <= took < 1.8, took
        wait_for(lambda: pit.held, timeout=5)
        assert pit.held[0] < 1.8 and pit.open == 0
    finally:
        pit.close()


def test_one_deadline_spans_every_checked_address():
    """Three checked addresses whose connects never complete (a listener whose backlog is full):
    per address, each would wait its whole timeout (3 x 2 s); one deadline of 1 s spans them all."""
    listener = socket.create_server(("0.0.0.0", 0), backlog=0)
    port = listener.getsockname()[1]
    filler = socket.create_connection(("127.0.0.1", port), 1)  # fills the backlog: later SYNs get no answer
    try:
        checked = CheckedUrl("http", "slow.invalid", port, "/hook", ("127.0.0.2", "127.0.0.3", "127.0.0.4"))
        started = time.monotonic()
        with Deadline(1.0) as deadline, pytest.raises(TimeoutError):
            post(pinned_connection(checked, timeout=2, deadline=deadline))
        took = time.monotonic() - started
        assert 1.0 <= took < 1.6, took
    finally:
        filler.close()
        listener.close()
