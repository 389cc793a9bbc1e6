"""A server's address as a player types it ("localhost", "192.168.1.20", "cribbage.example.org:4200",
"wss://cribbage.example.org/play"), read into the WebSocket URL to connect to and the words to say it with.

>>> read_address("localhost")
Address(url='ws://localhost:4121/play', said='localhost')
>>> read_address("wss://crib.example.org")
Address(url='wss://crib.example.org:443/play', said='crib.example.org, with TLS')
>>> read_address("10.0.0.5:4200").said
'10.0.0.5, port 4200'
>>> read_address("not a server!")
Traceback (most recent call last):
...
ValueError: A server address is a name or a number such as localhost or 192.168.1.20, with a colon and the port \
if it is not 4121.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from audiocrib.engine.text import printable

__all__ = ["DEFAULT_PORT", "Address", "read_address"]

DEFAULT_PORT = 4121
"""The port ``audiocrib serve`` listens on unless told otherwise."""
MAX_ADDRESS = 200
_HOST = re.compile(r"^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9-]{1,63})*\.?|\[[0-9A-Fa-f:.]+\])$")
_WRONG = ("A server address is a name or a number such as localhost or 192.168.1.20, with a colon and the port if it"
          f" is not {DEFAULT_PORT}.")


@dataclass(frozen=True, slots=True)
class Address:
    """Where to connect (``url``) and how to say it (``said``)."""

    url: str
    said: str

    @property
    def secure(self) -> bool:
        """True for a TLS connection (wss)."""
        return self.url.startswith("wss:")


def read_address(text: str) -> Address:
    """The address ``text`` names; ValueError with one sentence if it names none."""
    text = text.strip()
    if not text or len(text) > MAX_ADDRESS or not text.isascii() or not printable(text):
        raise ValueError(_WRONG)
    if "://" not in text:
        text = "ws://" + text
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        raise ValueError(_WRONG) from None
    scheme = {"ws": "ws", "http": "ws", "wss": "wss", "https": "wss"}.get(parts.scheme.lower())
    host = parts.hostname or ""
    shown = f"[{host}]" if ":" in host else host
    if scheme is None or not host or not _HOST.match(shown) or parts.query or parts.fragment or parts.username:
        raise ValueError(_WRONG)
    if port is None:
        port = 443 if scheme == "wss" and parts.port is None and parts.scheme.lower() in ("wss", "https") \
            else DEFAULT_PORT
    path = parts.path.rstrip("/") or "/play"
    said = shown + ("" if port in (DEFAULT_PORT, 443) else f", port {port}") + (", with TLS" if scheme == "wss" else "")
    return Address(f"{scheme}://{shown}:{port}{path}", said)
