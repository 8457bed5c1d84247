"""Who a request comes from, as far as the service can tell: the client address that publishable-key
rate limits and the per-client stream bound count by.

The peer of the connection is the client, unless the peer is a trusted proxy
(``TRUSTED_PROXIES``: addresses or networks, comma-separated; none by default). Then
``X-Forwarded-For`` is read from its right end, skipping the trusted proxies, and the first
address that is not one is the client's: whatever a client writes into the header itself
stands to the left of what its proxy appended, so it is never reached. Without a trusted
peer the header is ignored, so a client cannot buy itself a fresh bucket by inventing one.

An IPv6 client is counted by its /64 (one household or machine gets a /64 and can pick any
address in it); an IPv4-mapped IPv6 address by its IPv4 address.
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache

from flask import current_app, request

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
IPV6_GROUP = 64


@lru_cache(maxsize=32)
def trusted_networks(setting: str) -> tuple[Network, ...]:
    """The networks of a ``TRUSTED_PROXIES`` setting (``ValueError`` names a bad entry)."""
    networks = []
    for entry in (part.strip() for part in setting.split(",")):
        if not entry:
            continue
        try:
            networks.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            raise ValueError(f"RULEHOUSE_TRUSTED_PROXIES: {entry!r} is not an address or network") from None
    return tuple(networks)


def _parse(text: str | None) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    if not text:
        return None
    text = text.strip()
    if text.startswith("[") and "]" in text:  # [v6]:port
        text = text[1:text.index("]")]
    elif text.count(":") == 1:  # v4:port
        text = text.split(":", 1)[0]
    try:
        address = ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def _trusted(address, networks: tuple[Network, ...]) -> bool:
    return any(address.version == network.version and address in network for network in networks)


def client_ip(peer: str | None, forwarded_for: str | None,
              networks: tuple[Network, ...]) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The client's address: ``peer``, or, when ``peer`` is a trusted proxy, the rightmost address of
    ``forwarded_for`` that is not a trusted proxy (None: nothing parses)."""
    address = _parse(peer)
    if address is None or not networks or not _trusted(address, networks) or not forwarded_for:
        return address
    for hop in reversed(forwarded_for.split(",")):
        found = _parse(hop)
        if found is None:  # a hop the proxies did not write: stop at the last one they vouch for
            return address
        address = found
        if not _trusted(found, networks):
            return found
    return address


def group(address: ipaddress.IPv4Address | ipaddress.IPv6Address | None) -> str:
    """The bucket an address counts in: itself (IPv4), its /64 (IPv6)."""
    if address is None:
        return "unknown"
    if isinstance(address, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((address, IPV6_GROUP), strict=False))
    return str(address)


def client_address() -> str:
    """The calling client's bucket name for this request (see the module's docstring)."""
    networks = trusted_networks(current_app.config.get("TRUSTED_PROXIES") or "")
    return group(client_ip(request.remote_addr, request.headers.get("X-Forwarded-For"), networks))
