"""Watching a table: the messages of a watcher, who hears a game under way as a seat that holds no cards would
(`audiocrib.engine.views.watcher_seat`), and of the host's say over the watchers; and the words both sides share.

A watcher's `TableState` has ``you`` one past the last seat, and its ``watch`` (`Watchers`) says who watches and
what the host allows; the seated people's states carry ``watch`` too, so `w` names the watchers for everyone.

>>> from audiocrib.online.messages import decode_from_client, encode
>>> encode(Watch("K7D3M9"))
'{"type": "watch", "table": "K7D3M9"}'
>>> decode_from_client('{"type": "watch_settings", "allowed": false, "chat": true}')
WatchSettings(allowed=False, chat=True)
>>> watching_line(("Carol", "Dan"), False)
'Watching: Carol and Dan.'
>>> watching_line(("Carol",), True)
'You are watching, with Carol.'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from audiocrib.engine.numbers import number_words
from audiocrib.online.base import Message
from audiocrib.online.fields import NAME, TABLE_CODE, Flag, Many

__all__ = ["MAX_WATCHERS", "WATCHER_MAKES_NO_MOVES", "WATCH_CLIENT_MESSAGES",
           "StopWatching", "Watch", "WatchSettings", "Watchers", "WatchersLeave", "full_line", "watch_settings_line",
           "watching_line"]

MAX_WATCHERS = 50
"""The most people who may watch one table at once: a table's news goes to each of them, so a public room must not
let one table fan out without end."""
WATCHER_MAKES_NO_MOVES = "You are watching this table; a watcher makes no moves."
"""The server's refusal of a move (or a start, or a seat given or taken back) from a watcher."""


@dataclass(frozen=True, slots=True)
class Watch(Message):
    """Watch the game at a table: by its number, a public table's; by its code, a private one's. Answered as a
    seat's catch-up is (`TableState` with ``you`` one past the last seat, the watcher's `News` and its whole
    `ViewOf`); sent again on a new connection to be caught up. A table where this player has a seat is joined
    instead, as `Join` would."""

    type: ClassVar[str] = "watch"
    table: str = field(metadata={"field": TABLE_CODE})


@dataclass(frozen=True, slots=True)
class StopWatching(Message):
    """Stop watching; answered with the lobby (a watcher's `Leave` does the same)."""

    type: ClassVar[str] = "stop_watching"


@dataclass(frozen=True, slots=True)
class WatchersLeave(Message):
    """The host asks everyone watching the table to leave it (they are sent to the lobby)."""

    type: ClassVar[str] = "watchers_leave"


@dataclass(frozen=True, slots=True)
class WatchSettings(Message):
    """The host's settings for watchers, kept with the table: whether anyone may watch (``allowed``; false sends
    those watching to the lobby), and whether the watchers' chat goes through to the players (``chat``; else it
    reaches the other watchers only)."""

    type: ClassVar[str] = "watch_settings"
    allowed: bool = field(metadata={"field": Flag()})
    chat: bool = field(metadata={"field": Flag()})


@dataclass(frozen=True, slots=True)
class Watchers:
    """Who watches a table (a watcher's own name left out of the list it is sent) and the host's settings for
    watchers, in a `TableState`'s ``watch``."""

    names: tuple[str, ...] = field(metadata={"field": Many(NAME, MAX_WATCHERS)})
    allowed: bool = field(metadata={"field": Flag()})
    chat: bool = field(metadata={"field": Flag()})


WATCH_CLIENT_MESSAGES: tuple[type[Message], ...] = (Watch, StopWatching, WatchersLeave, WatchSettings)
"""What a client sends about watching (the server sends a watcher the messages it sends a seat)."""


def _names(names: tuple[str, ...]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" and {names[-1]}"


def watching_line(names: tuple[str, ...], watcher: bool) -> str:
    """Who watches, as ``w`` says it: to a watcher, who watches with them; to a player, who watches ("" for
    nobody)."""
    if watcher:
        return f"You are watching, with {_names(names)}." if names else "You are watching."
    if not names:
        return ""
    return f"Watching: {_names(names)}."


def watch_settings_line(watch: Watchers) -> str:
    """The host's settings for watchers, when they are not as a new table has them ("" when they are)."""
    if not watch.allowed:
        return "No watchers are allowed."
    return "The watchers' chat goes through to the players." if watch.chat else ""


def full_line(table: int) -> str:
    """The refusal of one watcher too many."""
    return f"Table {table} has {number_words(MAX_WATCHERS)} watchers, as many as a table takes."
