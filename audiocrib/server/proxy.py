"""Who a connection really comes from, behind a reverse proxy the operator trusts, and whether a page may open a
socket to this server (its Origin).

A reverse proxy (nginx, Caddy) connects to the server for every player, so without help every player would have
the proxy's address and share its limits. The proxy says whom it is passing on in ``X-Forwarded-For``: nginx's
``$proxy_add_x_forwarded_for`` takes the header the client sent (anything at all: the client writes it) and
appends the address the client connected from. So only the right-hand end of the header can be believed, and only
as far as it was written by proxies the operator trusts: the player's address is the right-most entry that is not
itself a trusted proxy. Everything to its left was written by the player (or by proxies nobody vouches for) and is
ignored. A connection from an address that is not trusted has its header ignored whole: anyone can write one.

>>> proxies = Proxies.of(["127.0.0.1", "10.0.0.0/8"])
>>> proxies.client("127.0.0.1", ["1.2.3.4, 203.0.113.7"])  # the player forged 1.2.3.4; nginx appended the rest
'203.0.113.7'
>>> proxies.client("127.0.0.1", ["203.0.113.7, 10.1.2.3"])  # through a second proxy of ours, at 10.1.2.3
'203.0.113.7'
>>> proxies.client("198.51.100.9", ["1.2.3.4"])  # not from a proxy we trust: the header is the client's own
'198.51.100.9'
>>> proxies.client("127.0.0.1", ["not an address"])  # what cannot be read is not believed: the proxy's own
'127.0.0.1'
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from aiohttp import web

from audiocrib.engine.text import printable

__all__ = ["FORWARDED_FOR", "MOST_HOPS", "NO_PROXIES", "Network", "Proxies", "client_address", "origin_allowed",
           "read_network", "same_origin"]

FORWARDED_FOR = "X-Forwarded-For"
MOST_HOPS = 16
"""Entries of ``X-Forwarded-For`` read from its right-hand end at most: more proxies than this in a row is not a
real deployment, and whatever lies further left is the client's own writing anyway."""
_LONGEST_ENTRY = 64
"""An address is at most 45 characters (an IPv6 address holding an IPv4 one); more is not an address."""
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def read_network(text: str) -> Network:
    """The address or network of a trusted proxy as given to ``--trust-proxy`` (``127.0.0.1``, ``10.0.0.0/8``,
    ``::1``), or `ValueError` with one sentence.

    >>> read_network("10.1.2.3/8")
    IPv4Network('10.0.0.0/8')
    >>> read_network("nginx")
    Traceback (most recent call last):
    ...
    ValueError: --trust-proxy takes an address or a network, like 127.0.0.1 or 10.0.0.0/8.
    """
    if len(text) <= 2 * _LONGEST_ENTRY and text.isascii() and printable(text):
        try:
            return ipaddress.ip_network(text.strip(), strict=False)
        except ValueError:
            pass
    raise ValueError("--trust-proxy takes an address or a network, like 127.0.0.1 or 10.0.0.0/8.")


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """``text`` as an address (an IPv4 address mapped into IPv6 as the IPv4 one), or None."""
    text = text.strip()
    if not text or len(text) > _LONGEST_ENTRY or not text.isascii():
        return None
    try:
        found = ipaddress.ip_address(text.split("%")[0])
    except ValueError:
        return None
    if isinstance(found, ipaddress.IPv6Address) and found.ipv4_mapped is not None:
        return found.ipv4_mapped
    return found


@dataclass(frozen=True, slots=True)
class Proxies:
    """The proxies whose ``X-Forwarded-For`` the server believes (none by default)."""

    networks: tuple[Network, ...] = ()

    @classmethod
    def of(cls, given: Iterable[str]) -> Proxies:
        """From ``--trust-proxy`` values (`ValueError` with one sentence for one that is not an address)."""
        return cls(tuple(read_network(text) for text in given))

    def trusts(self, address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
        return any(address.version == net.version and address in net for net in self.networks)

    def trusts_text(self, address: str) -> bool:
        """`trusts` for an address as text (False for one that is not an address)."""
        if not self.networks:
            return False
        found = _address(address)
        return found is not None and self.trusts(found)

    def client(self, peer: str, forwarded: Sequence[str]) -> str:
        """The address a connection from ``peer`` counts as, given its ``X-Forwarded-For`` headers: ``peer``
        itself unless it is a trusted proxy; else the right-most entry that is not a trusted proxy (an entry that
        is not an address stops the reading, and the last trusted hop is the answer)."""
        here = _address(peer)
        if here is None:
            return "unknown"
        if not self.networks or not self.trusts(here):
            return str(here)
        entries = ",".join(forwarded).rsplit(",", MOST_HOPS)[-MOST_HOPS:]  # the left is never split: the client's
        for entry in reversed(entries):
            hop = _address(entry)
            if hop is None:
                break
            if not self.trusts(hop):
                return str(hop)
            here = hop
        return str(here)


NO_PROXIES = Proxies()


def client_address(request: web.Request, proxies: Proxies = NO_PROXIES) -> str:
    """The address ``request`` counts as for the limits per address (see `Proxies.client`)."""
    return proxies.client(request.remote or "", request.headers.getall(FORWARDED_FOR, []))


def same_origin(request: web.Request) -> bool:
    """True when the socket is opened by a page of this server: its Origin header names the Host it asked for
    (behind a proxy, the Host the browser gave, which the proxy must pass on as it is)."""
    origin = request.headers.get("Origin")
    host = request.headers.get("Host")
    return origin is not None and host is not None and origin in (f"http://{host}", f"https://{host}")


def origin_allowed(request: web.Request) -> bool:
    """True when a socket may be opened: a client that names no Origin (a terminal client: browsers always name
    one), or a page of this server's own. A page of another site must not drive its visitor's browser into this
    server as that visitor."""
    return "Origin" not in request.headers or same_origin(request)
