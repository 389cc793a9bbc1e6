"""The servers a player has played on, kept in ``online.json`` in the data folder: the last address and name used
(asked once, then offered again), and for each server the name it knows the player by and the secret token it gave,
which finds the player's seat again after a disconnection or a restart.

>>> book = ServerBook()
>>> book.remember("ws://localhost:4121/play", "localhost", "Ann", "t" * 32)
>>> ServerBook.from_json(book.to_json()).token_for("ws://localhost:4121/play")
('Ann', 'tttttttttttttttttttttttttttttttt')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from audiocrib.engine.text import printable
from audiocrib.online.fields import NAME, TOKEN, ProtocolError, Text
from audiocrib.shell import files

__all__ = ["SERVERS_FILE", "SERVERS_VERSION", "ServerBook", "load_book", "save_book"]

SERVERS_FILE = "online.json"
SERVERS_VERSION = 1
_MOST = 50
"""Servers remembered at most (the oldest is forgotten)."""


@dataclass(slots=True)
class ServerBook:
    """The last address typed and name used, and per server URL the (name, token) it gave."""

    address: str = ""
    name: str = ""
    tokens: dict[str, tuple[str, str]] = field(default_factory=dict)

    def remember(self, url: str, address: str, name: str, token: str) -> None:
        """Keep what the server at ``url`` (typed as ``address``) welcomed the player with."""
        self.address, self.name = address, name
        self.tokens.pop(url, None)
        self.tokens[url] = (name, token)
        while len(self.tokens) > _MOST:
            del self.tokens[next(iter(self.tokens))]

    def forget(self, url: str) -> None:
        """Forget the token of the server at ``url`` (it no longer knows it)."""
        self.tokens.pop(url, None)

    def token_for(self, url: str) -> tuple[str, str] | None:
        """The (name, token) the server at ``url`` gave, if any."""
        return self.tokens.get(url)

    def to_json(self) -> dict[str, Any]:
        """The book as kept in its file."""
        return {"version": SERVERS_VERSION, "address": self.address, "name": self.name,
                "servers": [{"url": url, "name": name, "token": token} for url, (name, token) in self.tokens.items()]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ServerBook:
        """The inverse of `to_json`; every value checked (ValueError or TypeError on one that cannot be used)."""
        address, name, servers = data["address"], data["name"], data["servers"]
        if not isinstance(address, str) or len(address) > 200 or not printable(address):
            raise ValueError("address")
        if not isinstance(name, str) or (name and _bad(NAME, name)):
            raise ValueError("name")
        if not isinstance(servers, list) or len(servers) > _MOST:
            raise ValueError("servers")
        book = cls(address, name)
        for entry in servers:
            url, who, token = entry["url"], entry["name"], entry["token"]
            if not isinstance(url, str) or len(url) > 300 or not printable(url) or _bad(NAME, who) \
                    or _bad(TOKEN, token):
                raise ValueError("server")
            book.tokens[url] = (who, token)
        return book


def _bad(kind: Text, value: object) -> bool:
    try:
        kind.read(value, "the value")
    except (ProtocolError, TypeError, ValueError):
        return True
    return False


def load_book(folder: Path | None) -> tuple[ServerBook, str | None]:
    """The book kept in ``folder`` (a new one if there is none), and a sentence if its file was damaged."""
    if folder is None:
        return ServerBook(), None
    loaded = files.load(folder / SERVERS_FILE, "online", SERVERS_VERSION, ServerBook.from_json,
                        "the servers you played on are forgotten")
    return loaded.value or ServerBook(), loaded.notice


def save_book(folder: Path | None, book: ServerBook) -> None:
    """Keep the book in ``folder`` (OSError if it cannot be written)."""
    if folder is not None:
        files.save(folder / SERVERS_FILE, book.to_json())
