"""A `Link` that lives on the event loop that starts it, as a task, for a shell run by `run_shell`
(`audiocrib.client.awaiting`): no thread of its own, and its requests wait with `wait_here`, so the shell's task
yields the loop to everything else while the server answers. The browser's sessions use it (`audiocrib.web`),
connected inside the server's own process or to a server elsewhere.

Besides what a `Link` does, it calls ``woken`` after each message delivered and each change of the connection, so
the session that owns it looks at what came at once instead of polling for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl
from collections import deque
from collections.abc import Callable

from audiocrib.client.awaiting import in_shell_task, wait_here
from audiocrib.client.link import NOT_CONNECTED, Link, LinkState, Opener, _Waiter
from audiocrib.online import messages as m
from audiocrib.online.eager import started_now

__all__ = ["LoopLink"]


class _Done:
    """A request's end, as the link's `_Waiter` marks it (`set`): its future is True when the answer came, False when
    the request gave up waiting (`give_up`)."""

    def __init__(self, future: asyncio.Future[bool]) -> None:
        self.future = future

    def set(self) -> None:
        if not self.future.done():
            self.future.set_result(True)

    def give_up(self) -> None:
        if not self.future.done():
            self.future.set_result(False)


class LoopLink(Link):
    """A connection to the server at ``url``, opened by ``opener``, run as a task of the running event loop once
    `start` is called there; ``woken`` is called (on the loop) whenever something came or the connection
    changed."""

    def __init__(self, url: str, hello: Callable[[], m.Hello], deliver: Callable[[m.Message], None],
                 changed: Callable[[LinkState], None], opener: Opener, woken: Callable[[], None],
                 ssl_context: ssl.SSLContext | None = None) -> None:
        def delivered(message: m.Message) -> None:
            deliver(message)
            woken()

        def went(state: LinkState) -> None:
            changed(state)
            woken()

        super().__init__(url, hello, delivered, went, ssl_context, opener)
        self._task: asyncio.Task[None] | None = None
        self._outgoing: deque[str] = deque()
        self._writer: asyncio.Task[None] | None = None
        self._asking_now = False

    def start(self) -> None:
        """Start connecting, as a task of the running loop."""
        self._task = asyncio.get_running_loop().create_task(self._main())

    def close(self) -> None:
        """Close the connection and stop reconnecting (the task ends by itself, soon)."""
        if self._stop is not None:
            self._stop.set()
        elif self._task is not None:  # not yet running: nothing to close but the task
            self._task.cancel()
        self._release_waiters()

    async def closed(self) -> None:
        """Wait until the link's task has ended (after `close`)."""
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    def request(self, message: m.Message, seconds: float = 10.0) -> list[m.Message] | str:
        """As `Link.request`, waiting with `wait_here` (so only from code that `run_shell` runs)."""
        if not in_shell_task() or self._asking_now:  # one request at a time, so each answer is the one asked for
            return NOT_CONNECTED
        self._asking_now = True
        try:
            return self._ask(message, seconds)
        finally:
            self._asking_now = False

    def _waiter(self, number: int) -> _Waiter:
        return _Waiter(number, done=_Done(asyncio.get_running_loop().create_future()))

    def _wait(self, waiter: _Waiter, seconds: float) -> bool:
        done = waiter.done
        assert isinstance(done, _Done)
        # a bare future and a timer, not asyncio.wait_for: that makes a task for every request
        timer = asyncio.get_running_loop().call_later(seconds, done.give_up)
        try:
            return wait_here(done.future)
        finally:
            timer.cancel()

    def _post(self, message: m.Message) -> bool:
        socket = self._socket
        if socket is None or socket.closed or not self.up:
            return False
        self._outgoing.append(m.encode(message))
        if self._writer is None:
            self._writer = started_now(self._write())  # sent at once, unless the socket makes it wait
        return True

    async def _write(self) -> None:
        try:
            while self._outgoing:
                socket = self._socket
                text = self._outgoing.popleft()
                if socket is None or socket.closed:
                    self._outgoing.clear()
                    return
                await self._send_text(socket, text)
        finally:
            self._writer = None

    def _disconnected(self) -> None:
        super()._disconnected()
        self._outgoing.clear()
