"""Backing up the server's store while the server runs, and restoring a backup while it is stopped.

A backup is SQLite's own online backup (`sqlite3.Connection.backup`) of ``server.sqlite3``: the store as it stood
at one moment, read through its write-ahead log in one read transaction, so a server writing all the while neither
waits for it nor spoils it (a plain file copy could catch the file and its ``-wal`` at different moments). The copy
is made under a passing name beside the backup's, checked (``PRAGMA integrity_check``), made a file of its own (no
``-wal``) and written to disk, and only then takes the backup's name: a backup cut short never leaves a half file
under that name.

A restore takes the data folder's lock (so never while a server runs), checks the backup the same way, puts the
folder's store aside with its ``-wal`` and ``-shm`` (renamed together: a ``-wal`` left beside another file would
be read as that file's), and copies the backup in as ``server.sqlite3``. Whatever stops either is one sentence in
a `BackupError`.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from filelock import FileLock, Timeout

from audiocrib.server.schema import SCHEMA_VERSION

__all__ = ["BackupError", "Contents", "back_up", "restore"]

STORE = "server.sqlite3"
LOCK = "server.lock"
"""The store's and the lock's names in a data folder (`audiocrib.server.serve` names them the same)."""
_HEADER = b"SQLite format 3\x00"
_SIDES = ("-wal", "-shm", "-journal")


class BackupError(Exception):
    """What stops a backup or a restore, in one sentence."""


@dataclass(frozen=True, slots=True)
class Contents:
    """What a store holds, as said after a backup or a restore."""

    players: int
    tables: int
    playing: int

    def __str__(self) -> str:
        """
        >>> str(Contents(1, 3, 1))
        '1 player and 3 tables (1 under way)'
        """
        return (f"{self.players} player{'s' if self.players != 1 else ''} and {self.tables}"
                f" table{'s' if self.tables != 1 else ''} ({self.playing} under way)")


def _uri(path: Path, mode: str) -> str:
    return f"{path.absolute().as_uri()}?mode={mode}"


def _checked(db: sqlite3.Connection, what: str) -> Contents:
    """What the store open in ``db`` holds, once it is found sound and an audiocrib server's of a version this
    audiocrib knows; else a `BackupError` beginning with ``what``."""
    try:
        found = [row[0] for row in db.execute("PRAGMA integrity_check")]
        if found != ["ok"]:
            raise BackupError(f"{what} is damaged (SQLite's integrity check failed).")
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if not 1 <= version <= SCHEMA_VERSION:
            raise BackupError(f"{what} is not an audiocrib server's data of this version or an older one.")
        players = db.execute("SELECT COUNT(*) FROM players").fetchone()[0]
        tables, playing = db.execute("SELECT COUNT(*), COALESCE(SUM(status = 'playing'), 0) FROM tables").fetchone()
    except sqlite3.DatabaseError:
        raise BackupError(f"{what} is not an audiocrib server's data.") from None
    return Contents(players, tables, playing)


def _copy(source: sqlite3.Connection, target: Path, what: str, before: Callable[[], None] = lambda: None) -> Contents:
    """Copy the store open in ``source`` into ``target`` (by way of a passing file beside it), checked, as a file
    of its own, on disk; what it holds. ``before`` runs once the copy is found sound, before it takes its name."""
    passing = target.with_name(f".{target.name}.partial-{os.getpid()}")
    try:
        with contextlib.closing(sqlite3.connect(passing, isolation_level=None)) as copy:
            source.backup(copy)  # all pages in one step: one read transaction, one moment of the store
            copy.execute("PRAGMA journal_mode = DELETE")
            contents = _checked(copy, what)
        with open(passing, "rb+") as handle:
            os.fsync(handle.fileno())
        before()
        os.replace(passing, target)
        if os.name == "posix":  # the new name on disk too (Windows has no folder to sync)
            folder = os.open(target.parent, os.O_RDONLY)
            try:
                os.fsync(folder)
            finally:
                os.close(folder)
        return contents
    except sqlite3.Error as error:  # the source could not be read (a full disk is an OSError or SQLITE_FULL)
        raise BackupError(f"{what} could not be copied: {str(error).rstrip('.')}.") from None
    except OSError as error:
        raise BackupError(f"The copy could not be written: {(error.strerror or 'an error').lower()}.") from None
    finally:
        for leftover in (passing, *(passing.with_name(passing.name + side) for side in _SIDES)):
            with contextlib.suppress(OSError):
                leftover.unlink()


def _is_sqlite(path: Path) -> bool:
    try:
        with open(path, "rb") as handle:
            return handle.read(len(_HEADER)) == _HEADER
    except OSError:
        return False


def back_up(folder: Path, target: Path) -> Contents:
    """Copy the store in the data folder ``folder`` to ``target`` (new, or an earlier backup, replaced), safe while
    a server runs on it; what the copy holds."""
    store = folder / STORE
    if not store.is_file():
        raise BackupError(f"There is no server's data in that folder to back up ({STORE} is not in it).")
    if target.is_dir():
        raise BackupError("The backup's name is a folder's; give a file in it, like server-backup.sqlite3.")
    if not target.parent.is_dir():
        raise BackupError("The backup's name is in a folder that does not exist.")
    if target.exists():
        if store.samefile(target) or (target.parent.samefile(folder) and target.name.startswith(STORE)):
            raise BackupError("The backup's name is the server's own store; give another name.")
        if not target.is_file() or not _is_sqlite(target):
            raise BackupError("The backup's name is a file that is not a backup; give a new name, or an earlier"
                              " backup's to replace it.")
    try:
        source = sqlite3.connect(_uri(store, "rw"), uri=True, timeout=30, isolation_level=None)
    except sqlite3.Error:
        raise BackupError("The server's data in that folder cannot be opened.") from None
    with contextlib.closing(source):  # the copy is checked, not the store: the check would read it all twice
        return _copy(source, target, "The server's data")


def restore(folder: Path, backup: Path) -> tuple[Contents, Path | None]:
    """Make the backup ``backup`` the store of the data folder ``folder`` (made if missing), with no server running
    on it; what it holds, and where the store that was there was put aside (None: there was none)."""
    if not backup.is_file():
        raise BackupError("There is no backup file by that name." if not backup.exists() else
                          "The backup's name is not a file's; give the backup file.")
    if not _is_sqlite(backup):
        raise BackupError("The backup is not an audiocrib server's data.")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        lock = FileLock(folder / LOCK, thread_local=False)
        lock.acquire(blocking=False)
    except Timeout:
        raise BackupError("Stop the server first: a server is using this data folder.") from None
    except OSError as error:
        raise BackupError(f"The data folder cannot be used: {(error.strerror or 'an error').lower()}.") from None
    try:
        try:
            source = sqlite3.connect(_uri(backup, "ro"), uri=True, timeout=30, isolation_level=None)
        except sqlite3.Error:
            raise BackupError("The backup cannot be opened.") from None
        store = folder / STORE
        aside = None
        if store.exists():
            aside = folder / f"{STORE}.before-restore-{time.strftime('%Y%m%d-%H%M%S')}"
            number = 1
            while aside.exists():
                number += 1
                aside = aside.with_name(f"{STORE}.before-restore-{time.strftime('%Y%m%d-%H%M%S')}-{number}")

        def put_aside() -> None:
            if aside is not None:
                for side in ("", *_SIDES):
                    if (folder / (STORE + side)).exists():
                        os.replace(folder / (STORE + side), folder / (aside.name + side))

        with contextlib.closing(source):
            return _copy(source, store, "The backup", put_aside), aside
    finally:
        lock.release(force=True)
