"""The data folder's locks: one copy of audiocrib at a time keeps the game in progress, and the files every copy
adds to (statistics, practice figures) are updated by one copy at a time.

Two copies on one folder (two terminals, or two computers sharing a folder) would otherwise offer each other's game
as unfinished, save over each other, and write back figures read at their start. The locks are the operating
system's own (``flock`` on Linux and macOS, ``LockFileEx`` on Windows, through the ``filelock`` library), so they
go with the process however it ends: a copy that crashed or was killed never leaves the folder locked.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> first, second = FolderLock(folder), FolderLock(folder)
>>> first.acquire(), second.acquire()
(True, False)
>>> first.release()
>>> second.acquire()
True
>>> with updating(folder):
...     pass
"""

from __future__ import annotations

import errno
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock, Timeout

__all__ = ["FILES_LOCK", "RUN_LOCK", "FolderLock", "updating"]

RUN_LOCK = "audiocrib.lock"
"""Held for the whole run by the copy that keeps the game in progress."""
FILES_LOCK = "files.lock"
"""Held for a moment by any copy reading, adding to and writing the statistics or the practice figures."""
_WAIT = 10.0
"""Seconds to wait for another copy's update (each takes milliseconds)."""


class FolderLock:
    """The lock on ``folder`` held by the copy that keeps games there, from `acquire` to `release` (or its end)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._lock = FileLock(folder / RUN_LOCK, thread_local=False)

    def acquire(self) -> bool:
        """Take the lock if no other copy holds it: True if taken, False if another copy holds it. Raises OSError
        if it cannot be taken (the folder cannot be made or written, the lock's file is a folder or a link, or the
        folder's file system has no locks)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        try:
            self._lock.acquire(blocking=False)
        except Timeout:
            return False
        return True

    def release(self) -> None:
        """Let the lock go (another copy started later may then keep games; this one should stop keeping them)."""
        self._lock.release(force=True)


@contextmanager
def updating(folder: Path) -> Iterator[None]:
    """Hold ``folder``'s lock for updating its files while the ``with`` block reads, adds and writes. Raises
    OSError if another copy holds it too long, or the folder cannot hold a lock."""
    folder.mkdir(parents=True, exist_ok=True)
    lock = FileLock(folder / FILES_LOCK, thread_local=False)
    try:
        lock.acquire(timeout=_WAIT)
    except Timeout:
        raise OSError(errno.EBUSY, "another copy of audiocrib is holding the files") from None
    try:
        yield
    finally:
        lock.release()
