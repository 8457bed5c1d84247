"""Where a webhook may be delivered: URLs checked once, and connections to the address checked.

``check_url`` resolves a webhook URL's host once and refuses it unless every address is
public: not loopback, private, link-local, shared, reserved or multicast, and for an IPv6
address that carries an IPv4 address inside (IPv4-mapped and -translated, IPv4-compatible
``::a.b.c.d``, NAT64 ``64:ff9b::/96``, 6to4 ``2002::/16``) not one whose IPv4 address is
any of those either; NAT64's local-use ``64:ff9b:1::/48`` is never public. Its answer names
the addresses it checked, and ``pinned_connection`` connects to those only: the host is not
looked up a second time, so a name that answers otherwise a moment later (DNS rebinding)
cannot lead the delivery to an address that was never checked. The connection still speaks
to the host by name: the ``Host`` header, TLS's SNI and the certificate's check all use it.

A ``Deadline`` bounds a whole exchange: the connects to each checked address in turn share
it, and once connected a watchdog shuts the socket down when it is reached, so a receiver
that answers one byte every few seconds (a tar pit) cannot stretch one attempt past it.
"""

from __future__ import annotations

import contextlib
import http.client
import ipaddress
import socket
import ssl
import threading
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

MAX_URL_LENGTH = 2000

#: IPv6 blocks whose last 32 bits are an IPv4 address the packet is meant for
_LAST_32_BITS_IPV4 = tuple(ipaddress.ip_network(block) for block in (
    "::ffff:0:0/96",     # IPv4-mapped
    "::ffff:0:0:0/96",   # IPv4-translated (RFC 2765)
    "64:ff9b::/96",      # NAT64, the well-known prefix (RFC 6052)
    "::/96",             # IPv4-compatible (deprecated, RFC 4291); :: and ::1 are judged as IPv6
))
#: IPv6 blocks that are never a webhook's: NAT64 for local use (RFC 8215), whatever it embeds
_NEVER_PUBLIC = (ipaddress.ip_network("64:ff9b:1::/48"),)


class UnsafeUrl(ValueError):
    """A webhook URL the service will not call."""


@dataclass(frozen=True, slots=True)
class CheckedUrl:
    """A webhook URL as checked: its parts, and the addresses its host resolved to then."""

    scheme: str
    host: str
    port: int
    #: the request target: path and query
    target: str
    addresses: tuple[str, ...]


def embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address carries to (None when it carries none)."""
    if address.sixtofour is not None:
        return address.sixtofour
    if int(address) > 1 and any(address in block for block in _LAST_32_BITS_IPV4):
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


def is_public(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Whether a webhook may be delivered to ``address``: globally reachable; an IPv6 address that
    carries an IPv4 address is judged by that address, as the packets go there."""
    if isinstance(address, ipaddress.IPv6Address):
        if any(address in block for block in _NEVER_PUBLIC):
            return False
        inner = embedded_ipv4(address)
        if inner is not None:
            return is_public(inner)
    return address.is_global and not address.is_multicast


def check_url(url: str, allow_private: bool) -> CheckedUrl:
    """``url`` checked (http(s), a host, no credentials) and its host resolved once; ``UnsafeUrl``
    unless every address is public (``allow_private``: development and tests only)."""
    if len(url) > MAX_URL_LENGTH:
        raise UnsafeUrl(f"at most {MAX_URL_LENGTH} characters")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UnsafeUrl("must be an http:// or https:// URL with a host")
    if parts.username or parts.password:
        raise UnsafeUrl("must not carry credentials")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
        found = socket.getaddrinfo(parts.hostname, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
    except (OSError, ValueError, UnicodeError) as error:
        raise UnsafeUrl(f"its host does not resolve ({error})") from None
    addresses = tuple(dict.fromkeys(str(info[4][0]) for info in found))
    if not allow_private:
        for address in addresses:
            ip = ipaddress.ip_address(address.split("%", 1)[0])
            if not is_public(ip):
                raise UnsafeUrl(f"its host resolves to {ip}, which is not a public address")
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return CheckedUrl(parts.scheme, parts.hostname, port, target, addresses)


class Deadline:
    """One time limit over a whole exchange (connects, TLS handshake, sending, reading), not per
    socket operation: ``watch`` a connected socket and it is shut down when the time is up, which
    ends whatever read or write is blocked on it. Close it (or use it as a context manager) when
    the exchange is over."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.at = time.monotonic() + seconds
        self._lock = threading.Lock()
        self._watched: socket.socket | None = None
        self._timer: threading.Timer | None = None
        self.cut = False

    def remaining(self) -> float:
        """Seconds left; ``TimeoutError`` once there are none."""
        left = self.at - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"over the {self.seconds:g} s limit of one attempt")
        return left

    def expired(self) -> bool:
        return time.monotonic() >= self.at

    def watch(self, sock: socket.socket) -> None:
        """Shut ``sock``'s connection down at the deadline. A duplicate of its descriptor is kept, so
        the descriptor shut down is this connection's even after TLS took the original over."""
        with self._lock:
            self._close_watched()
            self._watched = sock.dup()
            self._timer = threading.Timer(max(self.at - time.monotonic(), 0.0), self._cut_off)
            self._timer.daemon = True
            self._timer.start()

    def _cut_off(self) -> None:
        with self._lock:
            if self._watched is not None:
                self.cut = True
                with contextlib.suppress(OSError):  # already closed by the peer
                    self._watched.shutdown(socket.SHUT_RDWR)

    def _close_watched(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._watched is not None:
            self._watched.close()
            self._watched = None

    def close(self) -> None:
        with self._lock:
            self._close_watched()

    def __enter__(self) -> Deadline:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def pinned_connection(url: CheckedUrl, timeout: float, *, context: ssl.SSLContext | None = None,
                      deadline: Deadline | None = None) -> http.client.HTTPConnection:
    """An HTTP(S) connection to ``url``'s host that connects only to the addresses checked (in
    their order, as ``socket.create_connection`` tries a name's), never looking the host up again.
    ``context``: the TLS settings (default: the system's trust store, the host name checked).
    ``deadline``: one limit for the connects to all the addresses and everything after them
    (``timeout`` then bounds each socket operation within it)."""
    if url.scheme == "https":
        connection: http.client.HTTPConnection = http.client.HTTPSConnection(
            url.host, url.port, timeout=timeout, context=context or ssl.create_default_context())
    else:
        connection = http.client.HTTPConnection(url.host, url.port, timeout=timeout)

    def connect_checked(_address, timeout, source_address=None):
        error: OSError | None = None
        for address in url.addresses:
            try:
                limit = timeout if deadline is None else min(timeout, deadline.remaining())
                sock = socket.create_connection((address, url.port), limit, source_address)
            except OSError as failed:  # TimeoutError included: the deadline ends the search
                error = failed
                if deadline is not None and deadline.expired():
                    break
                continue
            if deadline is not None:
                deadline.watch(sock)
            return sock
        raise error or OSError(f"{url.host} has no address to connect to")

    # http.client opens its socket through this hook, then (HTTPS) wraps it with the host's name.
    connection._create_connection = connect_checked
    return connection
