"""``audiocrib admin``: the operator's moderation, at the server's computer, while the server runs or not.

With the server running (its data folder's lock held), each command is written as a request into the server's
store; the server carries it out within a second and writes its answer, which is printed. With no server running,
bans, mutes and closing a table are done on the store directly, and what needs connected players (kick, who) says
the server is not running. Every value is checked first, and every mistake is one sentence.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

from audiocrib.cli.usage import UsageError, bad, check_data_dir, shown, whole

__all__ = ["ACTS", "add_admin", "admin"]

ACTS = ("who", "tables", "acts", "bans", "kick", "mute", "unmute", "ban", "unban", "close", "ratings",
        "rebuild-ratings")
READING = ("acts", "bans", "ratings")
"""What only reads the records, with the server running or not."""
NEEDS_NAME = ("kick", "mute", "unmute")
NOT_RUNNING = "The server is not running, so nobody is connected."
REBUILD_STOPPED = ("Stop the server first: ratings are rebuilt while it is stopped, so that no match ends meanwhile"
                   " (audiocrib admin ratings checks them with the server running).")


def add_admin(commands: Any) -> None:
    """The ``admin`` command's parser, among ``commands``."""
    admin = commands.add_parser("admin", help="moderate a server from its computer: audiocrib admin who")
    admin.add_argument("act", metavar="ACT", help="who, tables, acts, bans, kick NAME, mute NAME --minutes N,"
                       " unmute NAME, ban NAME or ban --address ADDRESS (--minutes N, or for good), unban NAME or"
                       " unban --address ADDRESS, close TABLE; ratings (checks them against the stored matches),"
                       " rebuild-ratings (with the server stopped)")
    admin.add_argument("target", nargs="?", metavar="NAME", help="the player's name, or the table's number")
    admin.add_argument("--data-dir", dest="server_dir", metavar="DIR", help="the server's data folder, as given to"
                       " audiocrib serve (default: a folder 'server' in audiocrib's data folder)")
    admin.add_argument("--minutes", metavar="N", help="how long a mute or ban lasts, 1 to 527040 minutes (a ban"
                       " without it is for good)")
    admin.add_argument("--reason", metavar="TEXT", help="why, kept in the server's records and told to the player")
    admin.add_argument("--address", help="ban or unban an address (like 203.0.113.7) instead of a name")


def _command(args: argparse.Namespace) -> dict[str, Any]:
    """The request, checked: every value from the command line is hostile until then."""
    from audiocrib.online.fields import NAME, ProtocolError
    from audiocrib.online.messages import MOST_MINUTES, REASON
    from audiocrib.server.moderation import address_key

    act = args.act
    if act not in ACTS:
        raise UsageError(f"{shown(act)} is not something admin does; say who, tables, acts, bans, kick, mute,"
                         " unmute, ban, unban, close, ratings or rebuild-ratings.")
    target, address = args.target, args.address
    if act in ("who", "tables", *READING, "rebuild-ratings") and (target or address or args.minutes or args.reason):
        raise UsageError(f"admin {act} takes nothing more.")
    if address is not None:
        if act not in ("ban", "unban"):
            raise UsageError("--address is for ban and unban.")
        if target is not None:
            raise UsageError("Give a name or --address, not both.")
        if address_key(address) is None:
            raise bad("--address", address)
    elif act == "close":
        if target is None or not (target.isascii() and target.isdigit()) or len(target) > 18:
            raise UsageError("Say which table to close by its number, like: audiocrib admin close 4.")
    elif act in (*NEEDS_NAME, "ban", "unban"):
        if target is None:
            raise UsageError(f"Say whom to {act}, like: audiocrib admin {act} Bob.")
        try:
            target = NAME.read(target, "the name")
        except ProtocolError as error:
            raise UsageError(f"{shown(target)} is not a player's name: {error}") from None
    minutes = None
    if args.minutes is not None:
        if act not in ("mute", "ban"):
            raise UsageError("--minutes is for mute and ban.")
        minutes = whole("--minutes", args.minutes, 1, MOST_MINUTES)
    elif act == "mute":
        raise UsageError("Say how long to mute with --minutes, like --minutes 30.")
    reason = ""
    if args.reason is not None:
        try:
            reason = REASON.read(args.reason, "the reason")
        except ProtocolError:
            raise bad("--reason", args.reason) from None
    if act == "ban" and address is not None:
        act = "ban_address"
    return {"act": act, "target": target or "", "minutes": minutes, "reason": reason, "address": address}


def admin(args: argparse.Namespace) -> int:
    """Run one ``audiocrib admin`` command: 0 when done, 1 when the server (or the store) refused it."""
    import platformdirs

    if args.server_dir is not None:
        check_data_dir(args.server_dir)
    command = _command(args)
    folder = (Path(args.server_dir) if args.server_dir is not None else
              Path(platformdirs.user_data_dir("audiocrib", appauthor=False)) / "server")
    from filelock import FileLock, Timeout

    from audiocrib.server.serve import LOCK_FILE, STORE_FILE

    path = folder / STORE_FILE
    if not path.is_file():
        raise UsageError(f"There is no server's data in {shown(str(folder))}; give the --data-dir the server uses.")
    lock = FileLock(folder / LOCK_FILE, thread_local=False)
    try:
        lock.acquire(blocking=False)
    except Timeout:
        return _running(path, command)
    except OSError as error:
        raise UsageError(f"The data folder cannot be used: {(error.strerror or 'an error').lower()}.") from None
    try:
        return _stopped(path, command)
    finally:
        lock.release(force=True)


def _print(done: bool, text: str) -> int:
    (print if done else lambda line: print(f"audiocrib: {line}", file=sys.stderr))(text)
    return 0 if done else 1


def _running(path: Path, command: dict[str, Any]) -> int:
    """With the server running: the records are read here; every act is the server's to carry out."""
    from audiocrib.server.moderation import ask_server

    if command["act"] == "rebuild-ratings":
        return _print(False, REBUILD_STOPPED)
    if command["act"] in READING:
        # as_uri: a Windows path (C:\...) or one with spaces is a valid SQLite URI only when written as a file URI
        db = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True, timeout=5.0)
        try:
            return _print(True, _records(db, command["act"]))
        finally:
            db.close()
    try:
        return _print(*ask_server(str(path), command))
    except sqlite3.Error as error:
        raise UsageError(f"The server's data cannot be used: {error}.") from None


def _stopped(path: Path, command: dict[str, Any]) -> int:
    """With no server running: bans, mutes and closing a table are done on the store itself."""
    import asyncio
    import json

    from audiocrib.server.moderating import Moderation, Online
    from audiocrib.server.records import StoreError
    from audiocrib.server.store import Store

    if command["act"] in ("who", "kick"):
        return _print(False, NOT_RUNNING)
    try:
        store = Store(path)
    except (StoreError, sqlite3.DatabaseError) as error:
        raise UsageError(f"The server's data cannot be used: {error}.") from None
    with store:
        if command["act"] in READING:
            return _print(True, _records(store.reading, command["act"]))
        if command["act"] == "rebuild-ratings":
            from audiocrib.server.ratings import rebuild_words

            with store.writing() as db:
                return _print(True, rebuild_words(db))

        class Stopped:
            """No server: nobody is connected, and a table is closed in the store."""

            def online(self) -> list[Online]:
                return []

            async def remove(self, player: int, said: str) -> None:
                return None

            async def tell(self, player: int, said: str) -> None:
                return None

            async def close_table(self, table: int, said: str) -> None:
                store.end(table)

        moderation = Moderation(store, (), Stopped())
        return _print(*asyncio.run(moderation.operator(json.dumps(command))))


def _records(db: sqlite3.Connection, which: str) -> str:
    """The latest fifty acts, or the bans in force, one a line; or whether the ratings kept are those rebuilt."""
    from audiocrib.server.moderation import time_left

    if which == "ratings":
        from audiocrib.server.ratings import check_words

        return check_words(db)
    now = time.time()
    if which == "bans":
        rows = db.execute("SELECT kind, shown, until FROM bans WHERE until IS NULL OR until > ? ORDER BY kind,"
                          " shown", (now,)).fetchall()
        return "\n".join(f"{kind} {target}, {time_left(until, now)}" for kind, target, until in rows) or \
            "Nobody is banned."
    rows = db.execute("SELECT at, done_by, act, target, minutes, reason FROM moderation_acts ORDER BY id DESC"
                      " LIMIT 50").fetchall()
    lines = []
    for at, by, act, target, minutes, reason in reversed(rows):
        when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(at))
        long = "" if not minutes else ", 1 minute" if minutes == 1 else f", {minutes} minutes"
        lines.append(f"{when}: {by}: {act} {target}{long}: {reason or 'no reason given'}")
    return "\n".join(lines) or "No acts of moderation yet."
