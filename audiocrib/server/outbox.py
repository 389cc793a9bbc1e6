"""What the server says, held until what it tells of is on disk: the event loop commits each write to the store
at once (to the write-ahead log, in the operating system's hands, which a killed server cannot lose), and a thread
of the outbox's own makes those commits durable (one ``fsync`` of the log for every commit made since the last)
and copies the log into the database file now and then (a checkpoint), so that the event loop, which plays every
table, never waits for the disk.

Every message to a connection goes through the outbox, in the order the server made it: a message made after a
commit waits for the ``fsync`` that covers that commit, and every message after it waits behind it, so no one
hears of a move that a power cut could take back, and no connection hears two things out of order. Each connection
has a `Mailbox`, written by a task of its own, so a client that does not read holds up only itself.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import sys
import threading
from collections import deque
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Protocol, cast

from aiohttp import WSMessage

from audiocrib.online.eager import started_now
from audiocrib.server.store import Store

__all__ = ["CHECKPOINT_EVERY", "Carried", "InProcessSocket", "Mailbox", "Outbox", "ServerSocket", "store_failed"]

CHECKPOINT_EVERY = 500
"""Commits between two checkpoints (about 2 MB of log at a move's three or four pages): often enough that each is
short, rare enough to cost little."""
_log = logging.getLogger(__name__)
@dataclass(frozen=True, slots=True)
class Carried:
    """A message handed as it is to a connection inside the server's process (`InProcessSocket`): no JSON is made
    for it, nor read back."""

    message: object


Item = str | Carried | Callable[[], None]
"""A message's text (or the message itself, `Carried`), or a function to call once the messages before it have gone
out."""


class ServerSocket(Protocol):
    """What the server needs of a connection: aiohttp's WebSocket, or one inside the server's own process
    (`audiocrib.web.local`)."""

    @property
    def closed(self) -> bool: ...

    async def send_str(self, data: str) -> None: ...

    async def receive(self, timeout: float | None = None) -> WSMessage: ...

    async def close(self, *, code: int = ..., message: bytes = ...) -> bool: ...


class InProcessSocket(ServerSocket, Protocol):
    """A connection inside the server's process, which takes the messages themselves (`audiocrib.web.local`)."""

    async def send_message(self, message: object) -> None: ...


@dataclass(eq=False, slots=True)
class Mailbox:
    """One connection's messages, sent in order by a task of its own (started when there is something to send);
    ``local`` for a connection inside the server's process, given the messages themselves (`Carried`)."""

    socket: ServerSocket
    local: bool = False
    waiting: deque[Item] = field(default_factory=deque)
    writer: asyncio.Task[None] | None = None
    writing_now: bool = False
    """True while its messages are being written at once, before any task is needed."""


class Outbox:
    """The messages held until the store's commits they follow are on disk, and the thread that puts them there.

    ``failed`` is called on the event loop if the disk refuses an ``fsync``: what was committed may then be lost,
    so nothing held may be sent; the server stops (`audiocrib.server.serve`)."""

    def __init__(self, store: Store, failed: Callable[[OSError], None]) -> None:
        self.store = store
        self._failed = failed
        self._held: deque[tuple[int, Mailbox, Item]] = deque()  # (commits it follows, to whom, what)
        self._durable = 0  # commits known to be on disk (the schema's too, for a new file, only once synced)
        self._wanted = threading.Event()
        self._stopping = False
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._writers: set[asyncio.Task[None]] = set()
        self.syncs = 0
        """How many times the thread made the log durable (for tests and benchmarks)."""

    # ----------------------------------------------------------------- on the event loop
    def put(self, box: Mailbox, text: Item) -> None:
        """Send ``text`` to ``box``'s connection once every commit made so far is on disk (at once if it is); a
        function given instead is called once everything put before it for ``box`` has been written (never if the
        connection closes first)."""
        if (self._durable >= self.store.commits or not self.store.later) and not self._held:
            self._post(box, text)
            return
        self._held.append((self.store.commits, box, text))
        self._wake()

    def _wake(self) -> None:
        if self._thread is None:
            self._loop = asyncio.get_running_loop()
            self._thread = threading.Thread(target=self._keep, name="audiocrib store keeper", daemon=True)
            self._thread.start()
        if not self._wanted.is_set():  # set once a batch: setting takes a lock and wakes the thread
            self._wanted.set()

    def _release(self, durable: int) -> None:
        """Send what waited for commits up to ``durable``, which are now on disk."""
        self._durable = max(self._durable, durable)
        held = self._held
        while held and held[0][0] <= self._durable:
            _, box, text = held.popleft()
            self._post(box, text)
        if held:  # made after the fsync began: the next covers them
            self._wanted.set()

    def _post(self, box: Mailbox, text: Item) -> None:
        if box.socket.closed:
            return
        box.waiting.append(text)
        if box.writer is None and not box.writing_now:
            # written here and now, as a socket that keeps up takes it: a task only for what must wait for a slow
            # reader (the messages put meanwhile, even from a function called on the way, join the queue)
            box.writing_now = True
            try:
                writer = started_now(self._write(box))
            finally:
                box.writing_now = False
            if writer is not None:
                box.writer = writer
                self._writers.add(writer)
                writer.add_done_callback(self._writers.discard)

    @staticmethod
    async def _write(box: Mailbox) -> None:
        try:
            while box.waiting and not box.socket.closed:
                item = box.waiting.popleft()
                if isinstance(item, str):
                    await box.socket.send_str(item)
                    continue
                if isinstance(item, Carried):
                    await cast(InProcessSocket, box.socket).send_message(item.message)
                    continue
                try:
                    item()
                except Exception:  # a fault of the server's: the messages after it still go
                    _log.exception("What was to follow a message's sending failed.")
        except ConnectionError:  # a connection that breaks on the way is left to its own close
            box.waiting.clear()
        finally:
            if box.writer is asyncio.current_task():
                box.writer = None

    async def settle(self, box: Mailbox, most: float = 5.0) -> None:
        """Wait (at most ``most`` seconds: a client that does not read is not waited for) until everything made
        for ``box`` has been written, before its connection is closed on purpose."""
        async def written() -> None:
            while any(held is box for _, held, _ in self._held):
                await asyncio.sleep(0.001)  # the keeper's fsync releases it
            if box.writer is not None:
                await asyncio.shield(box.writer)
        with suppress(TimeoutError):
            await asyncio.wait_for(written(), most)

    def flush(self) -> None:
        """Make every commit durable now, on this thread, and send everything held (when the server stops)."""
        if self._durable < self.store.commits:
            try:
                self.store.sync()
            except OSError as error:
                self._failed(error)
                return
        self._release(self.store.commits)

    def stop(self) -> None:
        """End the thread (after `flush`); the store may then be closed."""
        self._stopping = True
        self._wanted.set()
        if self._thread is not None:
            self._thread.join(timeout=30)

    # ----------------------------------------------------------------- on the keeper's thread
    def _keep(self) -> None:
        """Wait for commits to make durable; make each batch durable with one fsync; checkpoint now and then."""
        assert self._loop is not None
        checkpointed = synced = 0
        checkpointer: sqlite3.Connection | None = None
        try:
            while True:
                self._wanted.wait()
                self._wanted.clear()
                if self._stopping:
                    return
                commits = self.store.commits  # every commit counted has returned from its write
                if commits > synced:  # else an fsync that has just ended covered them
                    try:
                        self.store.sync()
                    except OSError as error:
                        with suppress(RuntimeError):  # the loop has closed: the server is stopping anyway
                            self._loop.call_soon_threadsafe(self._failed, error)
                        return
                    synced = commits
                    self.syncs += 1
                with suppress(RuntimeError):
                    self._loop.call_soon_threadsafe(self._release, commits)
                if commits - checkpointed >= CHECKPOINT_EVERY:
                    checkpointer = checkpointer or self.store.checkpointer()
                    self._checkpoint(checkpointer)
                    checkpointed = commits
        finally:
            if checkpointer is not None:
                checkpointer.close()

    @staticmethod
    def _checkpoint(connection: sqlite3.Connection) -> None:
        """Copy what the log holds into the database file without stopping the writer (a PASSIVE checkpoint);
        a failure here loses nothing (the log still holds it all), so it is only logged."""
        try:
            connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        except sqlite3.Error:
            _log.exception("A checkpoint of the store failed; the next will try again.")


def store_failed(error: OSError) -> None:
    """The disk refused to keep what was written: what is held may be lost, so it must never be sent; the server
    stops at once, as if killed (what it told anyone is on disk), and can be started again once the disk is well."""
    print(f"audiocrib serve: the disk refused to keep the games ({error.strerror or error}); the server stops so"
          " that no one is told of a move that is not kept.", file=sys.stderr, flush=True)
    os._exit(1)
