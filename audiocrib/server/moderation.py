"""Moderation's records in the server's store: every act of a moderator or the operator (who, what, whom, how
long, why), the bans of names and addresses and the chat mutes they put in force, each player's own mutes of
others, and the operator's requests from ``audiocrib admin`` to the running server (its tables are
`audiocrib.server.moderation_schema`'s).

A ban or a mute is in force while its end is later than now (a ban without an end is for good); nothing needs to
clear the ones that have ended. Times are seconds since the epoch (`time.time`), said to players as the time left.

>>> from audiocrib.server.store import Store
>>> records = Records(Store(":memory:"), clock=lambda: 1000.0)
>>> act = records.record("the operator", "ban", "Bob", 60, "Spam in every chat.")
>>> records.ban("name", "Bob", 1000.0 + 3600, act)
>>> records.banned("name", "bob")
Ban(until=4600.0)
>>> time_left(4600.0, 1000.0)
'for another hour'
"""

from __future__ import annotations

import ipaddress
import json
import math
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from audiocrib.server.records import name_key
from audiocrib.server.store import Store

__all__ = ["FOR_GOOD", "OPERATOR", "Act", "Ban", "Records", "address_key", "ask_server", "time_left"]

OPERATOR = "the operator"
"""Who did an act done from ``audiocrib admin``, as the record and the players say it."""
FOR_GOOD = "for good"


@dataclass(frozen=True, slots=True)
class Act:
    """One act as the store keeps it."""

    at: float
    by: str
    act: str
    target: str
    minutes: int | None
    reason: str


@dataclass(frozen=True, slots=True)
class Ban:
    """A ban in force, until ``until`` (None: for good)."""

    until: float | None


def time_left(until: float | None, now: float) -> str:
    """How long a ban or a mute ending at ``until`` (None: never) still lasts, as said to a player: "for good",
    "for another minute", "for another 7 minutes", "for another 3 hours", "for another 2 days"."""
    if until is None:
        return FOR_GOOD
    minutes = max(1, math.ceil((until - now) / 60))
    if minutes >= 2 * 1440 or minutes % 1440 == 0:
        count, unit = math.ceil(minutes / 1440), "day"
    elif minutes >= 120 or minutes % 60 == 0:
        count, unit = math.ceil(minutes / 60), "hour"
    else:
        count, unit = minutes, "minute"
    return f"for another {unit}" if count == 1 else f"for another {count} {unit}s"


def address_key(text: str) -> str | None:
    """An IP address as the server compares them (its normal form; an IPv4 address mapped into IPv6 as the IPv4
    one), or None for anything that is not one."""
    try:
        address = ipaddress.ip_address(text.strip())
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return str(address.ipv4_mapped)
    return str(address)


class Records:
    """Moderation's records in ``store``, with ``clock`` for now (seconds since the epoch)."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock

    # ----------------------------------------------------------------- acts
    def record(self, by: str, act: str, target: str, minutes: int | None, reason: str) -> int:
        """Keep one act; its number (for the ban or mute it puts in force)."""
        with self.store.writing() as db:
            cursor = db.execute("INSERT INTO moderation_acts (at, done_by, act, target, minutes, reason)"
                                " VALUES (?, ?, ?, ?, ?, ?)", (self.clock(), by, act, target, minutes, reason))
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def acts(self, most: int = 50) -> list[Act]:
        """The latest acts, oldest first."""
        rows = self.store.reading.execute(
            "SELECT at, done_by, act, target, minutes, reason FROM moderation_acts ORDER BY id DESC LIMIT ?",
            (most,)).fetchall()
        return [Act(*row) for row in reversed(rows)]

    # ----------------------------------------------------------------- bans and mutes
    def ban(self, kind: str, shown: str, until: float | None, act: int) -> None:
        """Keep out a name or an address (``kind``) until ``until`` (None: for good), replacing any ban of it."""
        key = name_key(shown) if kind == "name" else address_key(shown) or shown
        with self.store.writing() as db:
            db.execute("INSERT OR REPLACE INTO bans (kind, target, shown, until, act) VALUES (?, ?, ?, ?, ?)",
                       (kind, key, shown, until, act))

    def unban(self, kind: str, shown: str) -> bool:
        """Lift the ban of a name or an address; False if there was none in force."""
        key = name_key(shown) if kind == "name" else address_key(shown) or shown
        found = self.banned(kind, shown) is not None
        with self.store.writing() as db:
            db.execute("DELETE FROM bans WHERE kind = ? AND target = ?", (kind, key))
        return found

    def banned(self, kind: str, shown: str) -> Ban | None:
        """The ban of this name or address in force, or None."""
        key = name_key(shown) if kind == "name" else address_key(shown) or shown
        row = self.store.reading.execute(
            "SELECT until FROM bans WHERE kind = ? AND target = ? AND (until IS NULL OR until > ?)",
            (kind, key, self.clock())).fetchone()
        return None if row is None else Ban(row[0])

    def bans(self) -> list[tuple[str, str, float | None]]:
        """The bans in force: (kind, name or address, end)."""
        return [tuple(row) for row in self.store.reading.execute(
            "SELECT kind, shown, until FROM bans WHERE until IS NULL OR until > ? ORDER BY kind, shown",
            (self.clock(),))]

    def mute(self, shown: str, until: float, act: int) -> None:
        """Refuse the chat of the player called ``shown`` until ``until``."""
        with self.store.writing() as db:
            db.execute("INSERT OR REPLACE INTO chat_mutes (target, shown, until, act) VALUES (?, ?, ?, ?)",
                       (name_key(shown), shown, until, act))

    def unmute(self, shown: str) -> bool:
        """Let the player called ``shown`` chat again; False if their chat was not muted."""
        found = self.muted(shown) is not None
        with self.store.writing() as db:
            db.execute("DELETE FROM chat_mutes WHERE target = ?", (name_key(shown),))
        return found

    def muted(self, shown: str) -> float | None:
        """When the mute of this player's chat ends, or None if it is not muted."""
        row = self.store.reading.execute("SELECT until FROM chat_mutes WHERE target = ? AND until > ?",
                                         (name_key(shown), self.clock())).fetchone()
        return None if row is None else float(row[0])

    # ----------------------------------------------------------------- a player's own mutes
    def own_mutes(self, player: int) -> set[str]:
        """The name keys of the players whose chat ``player`` does not hear."""
        rows = self.store.reading.execute("SELECT target FROM own_mutes WHERE player = ?", (player,))
        return {row[0] for row in rows}

    def set_own_mute(self, player: int, shown: str, on: bool) -> None:
        """``player`` hears the chat of the player called ``shown`` no more (``on``), or again."""
        with self.store.writing() as db:
            if on:
                db.execute("INSERT OR REPLACE INTO own_mutes (player, target, shown) VALUES (?, ?, ?)",
                           (player, name_key(shown), shown))
            else:
                db.execute("DELETE FROM own_mutes WHERE player = ? AND target = ?", (player, name_key(shown)))

    # ----------------------------------------------------------------- the operator's requests
    def waiting_requests(self) -> list[tuple[int, float, str]]:
        """The requests not yet answered: (number, when asked, the command's JSON)."""
        return [tuple(row) for row in self.store.reading.execute(
            "SELECT id, asked, command FROM admin_requests WHERE answer IS NULL ORDER BY id LIMIT 20")]

    def answer(self, request: int, text: str) -> None:
        """Write the answer to a request (the command waiting for it prints it)."""
        with self.store.writing() as db:
            db.execute("UPDATE admin_requests SET answer = ?, answered = ? WHERE id = ?",
                       (text, self.clock(), request))


ASK_SECONDS = 10.0
"""How long ``audiocrib admin`` waits for the running server to answer."""
NO_ANSWER = ("The server did not answer within ten seconds; it may be stopping or too busy. Nothing was done"
             " unless it says so later in its records (audiocrib admin acts).")


def ask_server(path: str, command: dict[str, Any], seconds: float = ASK_SECONDS,
               sleep: Callable[[float], None] = time.sleep) -> tuple[bool, str]:
    """Write ``command`` as a request into the running server's store at ``path`` and wait for its answer (the
    server looks for requests about twice a second); `NO_ANSWER` if none comes in time, and the request is
    withdrawn so that it is never carried out late. Whether it was done, and the text to print."""
    db = sqlite3.connect(path, isolation_level=None, timeout=5.0)
    try:
        cursor = db.execute("INSERT INTO admin_requests (asked, command) VALUES (?, ?)",
                            (time.time(), json.dumps(command)))
        request = cursor.lastrowid
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            sleep(0.05)
            row = db.execute("SELECT answer FROM admin_requests WHERE id = ?", (request,)).fetchone()
            if row is not None and row[0] is not None:
                db.execute("DELETE FROM admin_requests WHERE id = ?", (request,))
                answer = json.loads(row[0])
                return bool(answer["done"]), str(answer["text"])
        db.execute("DELETE FROM admin_requests WHERE id = ? AND answer IS NULL", (request,))
        return False, NO_ANSWER
    finally:
        db.close()
