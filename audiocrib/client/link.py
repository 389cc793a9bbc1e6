"""The connection to an audiocrib server: a WebSocket kept in a thread of its own, with its own event loop, that
says hello on every (re)connection and connects again by itself, after a pause that grows (half a second, then
doubling to fifteen seconds), whenever it drops.

The shell's thread talks to it with `Link.send` (a message on its way, not waited for) and `Link.request` (a message,
then a `Ping`; every message the server sends back until the `Pong` is the answer, since the server answers one
connection's messages in order). Every message from the server is handed to ``deliver`` on the link's thread, before
any request waiting for it returns; what the link itself goes through (connected, lost, refused) is handed to
``changed``.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import random
import ssl
import threading
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Protocol

import aiohttp

from audiocrib.engine.text import printable
from audiocrib.online import messages as m
from audiocrib.online.accounts import SIGNED_OUT
from audiocrib.online.fields import ProtocolError

__all__ = ["CONNECTED_ELSEWHERE", "NOT_CONNECTED", "NO_ANSWER", "ClientSocket", "Link", "LinkMaker", "LinkState",
           "Opener", "TurnedAway"]

NOT_CONNECTED = "You are not connected to the server just now, so that was not sent; it reconnects by itself."
NO_ANSWER = "The server did not answer in time; if what you sent reached it, you will hear the news."
ELSEWHERE = "You connected again from elsewhere."
"""The server's reason for closing a connection when the same player connects again on another."""
CONNECTED_ELSEWHERE = ("You connected to this server from another copy of audiocrib, so this one let go of its "
                       "connection.")
UNREADABLE = ("The server sent something this audiocrib cannot read; the server and audiocrib may be of "
              "different versions.")
FIRST_PAUSE = 0.5
LONGEST_PAUSE = 15.0
ANSWER_SECONDS = 10.0
"""How long a request waits for the server's answer."""


@dataclass(frozen=True, slots=True)
class LinkState:
    """What the link has just gone through: ``kind`` is "connected" (``welcome`` is the server's), "lost" (it tries
    again; ``reason`` says why, when known), "refused" (the server refused the hello: ``reason`` is its sentence;
    the link has stopped), or "unreadable" (a message could not be read: ``reason`` says so)."""

    kind: str
    reason: str = ""
    welcome: m.Welcome | None = None


class ClientSocket(Protocol):
    """What the link needs of its connection: aiohttp's client WebSocket, or a connection inside the server's own
    process (`audiocrib.web.local`)."""

    @property
    def closed(self) -> bool: ...

    @property
    def close_code(self) -> int | None: ...

    async def send_str(self, data: str) -> None: ...

    async def receive(self) -> aiohttp.WSMessage: ...

    async def close(self) -> bool: ...


Opener = Callable[[], AbstractAsyncContextManager[ClientSocket]]
"""Opens one connection to the server (each time the link connects)."""


class TurnedAway(ConnectionError):
    """The server would not open the connection (too many from the address)."""


class _Settable(Protocol):
    """What marks a request's end: a `threading.Event`, or a loop link's own (`audiocrib.client.looplink`)."""

    def set(self) -> None: ...


@dataclass(slots=True)
class _Waiter:
    """A request waiting for the `Pong` with ``number``, and what came before it."""

    number: int
    answers: list[m.Message] = field(default_factory=list)
    done: _Settable = field(default_factory=threading.Event)


class Link:
    """A connection to the server at ``url`` in a thread of its own, once `start` is called.

    ``hello`` makes the hello for each connection (so it carries the token the server gave last time); ``deliver``
    and ``changed`` are called on the link's thread. ``opener`` opens each connection (default: aiohttp's
    WebSocket to ``url``).
    """

    def __init__(self, url: str, hello: Callable[[], m.Hello], deliver: Callable[[m.Message], None],
                 changed: Callable[[LinkState], None], ssl_context: ssl.SSLContext | None = None,
                 opener: Opener | None = None) -> None:
        self.url = url
        self._opener = opener
        self._hello = hello
        self._deliver = deliver
        self._changed = changed
        self._ssl = ssl_context
        self._loop: asyncio.AbstractEventLoop | None = None
        self._socket: ClientSocket | None = None
        self._thread: threading.Thread | None = None
        self._stop: asyncio.Event | None = None
        self._started = threading.Event()
        self._numbers = itertools.count(1)
        self._waiters: list[_Waiter] = []
        self._lock = threading.Lock()
        self._asking = threading.Lock()  # one request at a time, so each answer is the one asked for
        self.up = False
        """True while connected and welcomed."""

    # ----------------------------------------------------------------- the shell's side
    def start(self) -> None:
        """Start connecting (in the link's own thread)."""
        self._thread = threading.Thread(target=self._run, name="audiocrib-link", daemon=True)
        self._thread.start()
        self._started.wait(5)

    def close(self) -> None:
        """Close the connection and stop reconnecting."""
        loop, stop = self._loop, self._stop
        if loop is not None and stop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(stop.set)
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(5)
        self._release_waiters()

    def send(self, message: m.Message) -> bool:
        """Send ``message`` without waiting for an answer; False if not connected."""
        return self._post(message)

    def request(self, message: m.Message, seconds: float = ANSWER_SECONDS) -> list[m.Message] | str:
        """Send ``message`` and wait for the server's answers to it (delivered before this returns); or the
        sentence that says why there are none (not connected, or no answer in time)."""
        with self._asking:
            return self._ask(message, seconds)

    def _ask(self, message: m.Message, seconds: float) -> list[m.Message] | str:
        waiter = self._waiter(next(self._numbers) % 1_000_000)
        with self._lock:
            self._waiters.append(waiter)
        try:
            if not (self._post(message) and self._post(m.Ping(waiter.number))):
                return NOT_CONNECTED
            if not self._wait(waiter, seconds):
                return NO_ANSWER
            return waiter.answers if self.up or waiter.answers else NOT_CONNECTED
        finally:
            with self._lock:
                if waiter in self._waiters:
                    self._waiters.remove(waiter)

    def _waiter(self, number: int) -> _Waiter:
        return _Waiter(number)

    def _wait(self, waiter: _Waiter, seconds: float) -> bool:
        """Wait for ``waiter``'s pong (or the connection's end); False if it did not come in time."""
        assert isinstance(waiter.done, threading.Event)
        return waiter.done.wait(seconds)

    def _post(self, message: m.Message) -> bool:
        loop, socket = self._loop, self._socket
        if loop is None or socket is None or socket.closed or not self.up:
            return False
        try:
            asyncio.run_coroutine_threadsafe(self._send_text(socket, m.encode(message)), loop)
        except RuntimeError:  # the loop has closed
            return False
        return True

    @staticmethod
    async def _send_text(socket: ClientSocket, text: str) -> None:
        with contextlib.suppress(ConnectionError, RuntimeError):
            await socket.send_str(text)

    def _release_waiters(self) -> None:
        with self._lock:
            for waiter in self._waiters:
                waiter.done.set()

    # ----------------------------------------------------------------- the link's thread
    def _run(self) -> None:
        asyncio.run(self._main())

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        self._started.set()
        if self._opener is not None:
            await self._connections(self._opener)
            return
        timeout = aiohttp.ClientTimeout(total=None, connect=10, sock_connect=10)
        async with aiohttp.ClientSession(timeout=timeout) as session:
            await self._connections(web_socket_opener(session, self.url, self._ssl))

    async def _connections(self, opener: Opener) -> None:
        """Connect, and connect again after each loss (the pause growing while no welcome comes), until stopped or
        refused."""
        assert self._stop is not None
        pause = FIRST_PAUSE
        while not self._stop.is_set():
            reason, welcomed = await self._connection(opener)
            if reason is None:  # refused: trying again would be refused again
                return
            if self._stop.is_set():
                return
            self._changed(LinkState("lost", reason))
            pause = FIRST_PAUSE if welcomed else min(pause * 2, LONGEST_PAUSE)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop.wait(), pause * random.uniform(0.8, 1.2))

    async def _connection(self, opener: Opener) -> tuple[str | None, bool]:
        """One connection, from connecting to its end: (why it ended, or None if the hello was refused; whether it
        was welcomed)."""
        welcomed = unreadable = False
        try:
            async with opener() as socket:
                await socket.send_str(m.encode(self._hello()))
                # one task a connection closes it when the link is stopped, which ends the wait for a frame: not a
                # task and a wait for every frame, which a server running a thousand browsers' links pays for
                stop = self._stop
                closing = asyncio.ensure_future(_close_when(stop, socket)) if stop is not None else None
                try:
                    while True:
                        frame = await socket.receive()
                        if stop is not None and stop.is_set():
                            assert closing is not None
                            with contextlib.suppress(Exception):
                                await closing
                            return "", welcomed
                        if frame.type is not aiohttp.WSMsgType.TEXT:
                            reason = _close_reason(socket, frame)
                            if reason == ELSEWHERE:  # reconnecting would close the other copy's, and so on
                                self._changed(LinkState("refused", CONNECTED_ELSEWHERE))
                                return None, welcomed
                            if reason == SIGNED_OUT:  # the token is revoked: trying it again would be refused
                                self._changed(LinkState("refused", SIGNED_OUT))
                                return None, welcomed
                            return reason, welcomed
                        carried = frame.extra  # a connection inside the server's process hands the message itself
                        try:
                            message = carried if isinstance(carried, m.Message) else \
                                m.decode_from_server(frame.data)
                        except ProtocolError:  # not acted on; said once a connection, since the game may stall
                            if not unreadable:
                                unreadable = True
                                self._changed(LinkState("unreadable", UNREADABLE))
                            continue
                        if not welcomed:
                            if isinstance(message, m.Refused):
                                self._changed(LinkState("refused", message.sentence))
                                return None, False
                            if isinstance(message, m.Welcome):
                                welcomed = True
                                self._connected(socket)
                                self._changed(LinkState("connected", welcome=message))
                            continue
                        self._take(message)
                finally:
                    if closing is not None and not closing.done():
                        closing.cancel()
                    self._disconnected()
                    self._release_waiters()
        except (aiohttp.ClientError, OSError, TimeoutError, ValueError) as error:
            return _error_reason(error), welcomed

    def _connected(self, socket: ClientSocket) -> None:
        self._socket, self.up = socket, True

    def _disconnected(self) -> None:
        self._socket, self.up = None, False

    def _take(self, message: m.Message) -> None:
        """Deliver ``message``, and add it to the request waiting (or end that request at its pong)."""
        self._deliver(message)
        with self._lock:
            waiter = self._waiters[0] if self._waiters else None
        if waiter is None:
            return
        if isinstance(message, m.Pong) and message.number == waiter.number:
            waiter.done.set()
        elif not isinstance(message, m.Pong):
            waiter.answers.append(message)


LinkMaker = Callable[[str, Callable[[], m.Hello], Callable[[m.Message], None], Callable[[LinkState], None],
                      ssl.SSLContext | None], Link]
"""Makes the link of an `audiocrib.client.remote.OnlineClient`: (url, hello, deliver, changed, ssl_context)."""


def web_socket_opener(session: aiohttp.ClientSession, url: str, ssl_context: ssl.SSLContext | None,
                      headers: dict[str, str] | None = None) -> Opener:
    """Opens aiohttp's WebSocket to ``url`` in ``session`` (trusting ``ssl_context``, else the system's
    certificates), with ``headers``."""
    def opener() -> AbstractAsyncContextManager[ClientSocket]:
        return session.ws_connect(url, heartbeat=20.0, max_msg_size=m.MAX_SERVER_MESSAGE_BYTES, headers=headers,
                                  ssl=ssl_context if ssl_context is not None else True)
    return opener


async def _close_when(stop: asyncio.Event, socket: ClientSocket) -> None:
    """Close ``socket`` once ``stop`` is set (its reader then gets the close)."""
    await stop.wait()
    await socket.close()


def _close_reason(socket: ClientSocket, frame: aiohttp.WSMessage) -> str:
    """The server's reason for closing, if it gave a plain one."""
    extra = frame.extra if isinstance(frame.extra, str) else ""
    if extra and extra.isascii() and printable(extra) and len(extra) <= 200:
        return extra
    return ""


def _error_reason(error: BaseException) -> str:
    if isinstance(error, TurnedAway):
        return "the server refused the connection: too many connections"
    if isinstance(error, aiohttp.WSServerHandshakeError):
        return "the server refused the connection" + (": too many connections" if error.status == 429 else "")
    if isinstance(error, (ssl.SSLError, aiohttp.ClientSSLError)):
        return "its certificate could not be checked"
    if isinstance(error, (aiohttp.ClientConnectorError, ConnectionRefusedError)):
        return "nothing answers at that address"
    if isinstance(error, TimeoutError):
        return "it did not answer in time"
    return "the connection failed"
