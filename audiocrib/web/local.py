"""A connection to the server inside its own process: for the browser page's sessions when the server runs them
(`audiocrib.web`), with no socket, no loopback hop and no thread between them and the tables.

It is served exactly as a WebSocket is (`Server.serve_socket`: the same hello, limits, answers and outbox), counted
under the browser's address, and the session's `audiocrib.client.looplink.LoopLink` reads it as it reads a
WebSocket: text frames each way, and a close with a code and a reason.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, cast

from aiohttp import WSCloseCode, WSMessage, WSMsgType

from audiocrib.client.link import TurnedAway
from audiocrib.server.app import Server

__all__ = ["LocalEnd", "LocalRefused", "local_pair", "open_local"]


class LocalRefused(TurnedAway):
    """The server refused to open the connection: the sentence says why."""


class LocalEnd:
    """One end of an in-process connection: what is sent here is received at the other end, in order."""

    def __init__(self) -> None:
        # a deque and one future while a reader waits: an asyncio.Queue makes a coroutine and a future for every
        # frame, which a thousand tabs' sessions pay for at every key
        self._frames: deque[WSMessage] = deque()
        self._reader: asyncio.Future[None] | None = None
        self.other: LocalEnd = self
        self.closed = False
        """True once either end has closed."""
        self.close_code: int | None = None

    def _put(self, frame: WSMessage) -> None:
        self._frames.append(frame)
        reader = self._reader
        if reader is not None and not reader.done():
            reader.set_result(None)

    async def send_str(self, data: str) -> None:
        """Send one text frame to the other end."""
        if self.closed:
            raise ConnectionResetError("The connection is closed.")
        self.other._put(WSMessage(WSMsgType.TEXT, data, None))

    async def send_message(self, message: object) -> None:
        """Hand one of the server's messages itself to the other end (as a text frame whose ``extra`` is the
        message: its JSON is neither made nor read)."""
        if self.closed:
            raise ConnectionResetError("The connection is closed.")
        # aiohttp types ``extra`` as text; a frame of this connection carries the message there
        self.other._put(WSMessage(WSMsgType.TEXT, "", cast(Any, message)))

    async def receive(self, timeout: float | None = None) -> WSMessage:
        """The next frame from the other end (a CLOSE frame, with its code and reason, once it has closed);
        `TimeoutError` after ``timeout`` seconds."""
        if not self._frames:
            if self.closed:
                return WSMessage(WSMsgType.CLOSED, None, None)
            self._reader = asyncio.get_running_loop().create_future()
            try:
                if timeout is None:
                    await self._reader
                else:
                    await asyncio.wait_for(self._reader, timeout)
            finally:
                self._reader = None
        frame = self._frames.popleft()
        if frame.type is WSMsgType.CLOSE:
            self.closed = True
            self.close_code = frame.data
        return frame

    async def close(self, *, code: int = WSCloseCode.OK, message: bytes = b"") -> bool:
        """Close the connection with ``code`` and the reason ``message``; False if it was closed already."""
        if self.closed:
            return False
        self.closed = self.other.closed = True
        self.close_code = code
        self.other._put(WSMessage(WSMsgType.CLOSE, code, message.decode("ascii", "replace")))
        self._put(WSMessage(WSMsgType.CLOSED, None, None))  # a wait at this end ends, as aiohttp's does
        return True


def local_pair() -> tuple[LocalEnd, LocalEnd]:
    """The two ends of a new in-process connection: the client's and the server's."""
    client, served = LocalEnd(), LocalEnd()
    client.other, served.other = served, client
    return client, served


_serving: set[asyncio.Task[None]] = set()
"""The server's side of each local connection open (kept: the loop holds only a weak reference to a task)."""


@asynccontextmanager
async def open_local(server: Server, remote: str) -> AsyncIterator[LocalEnd]:
    """A connection to ``server`` counted under the address ``remote`` (the browser's): its client end, closed on
    leaving; `LocalRefused` if the server refuses it (as it would a WebSocket from that address)."""
    refused = server.admit(remote)
    if refused is not None:
        raise LocalRefused(refused)
    client, served = local_pair()
    task = asyncio.get_running_loop().create_task(server.serve_socket(served, remote))
    _serving.add(task)
    task.add_done_callback(_serving.discard)
    try:
        yield client
    finally:
        await client.close(code=WSCloseCode.GOING_AWAY)
