"""The page's socket at ``/web``: each frame checked as hostile, the page's hello starting a `WebSession`, and what
the session says sent back in order.

A frame is at most `MAX_FRAME` bytes of JSON text naming one of the page's message types with exactly its keys,
each of the right type and size (docs/protocol.md, "The browser page's socket"). Anything else gets one sentence
(a "say" the session's history does not keep), and a socket that keeps sending what is refused, or sends too
fast, is closed with a reason. Keys beyond `KEYS_A_SECOND` a second are dropped (a key held down). A tab may open
a socket only from the page's own origin, and one address only so many at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import ssl
from collections import deque
from collections.abc import Callable
from typing import Any

from aiohttp import WSCloseCode, WSMsgType, web

from audiocrib.client.link import Opener
from audiocrib.engine.text import printable
from audiocrib.online.eager import started_now
from audiocrib.server.limits import Limits, TokenBucket
from audiocrib.server.proxy import NO_PROXIES, Proxies, client_address, same_origin
from audiocrib.web.websession import WebSession

__all__ = ["KEYS_A_SECOND", "MAX_FRAME", "NAMED_KEYS", "Gateway", "check_frame"]

MAX_FRAME = 4096
"""The most bytes one frame from the page may have."""
KEYS_A_SECOND = 30
NAMED_KEYS = frozenset({"escape", "f1", "f2", "left", "right", "up", "down", "home", "end", "enter", "space",
                        "backspace", "tab"})
"""The keys with names; besides these, any single printable character is a key."""
_FIELDS: dict[str, frozenset[str]] = {
    "hello": frozenset({"type", "token", "name", "settings"}),
    "key": frozenset({"type", "key"}),
    "line": frozenset({"type", "text"}),
    "choose": frozenset({"type", "list", "index"}),
}
NOT_JSON = "That message was not JSON text; the page sends each message as a JSON object."
UNKNOWN = "That type of message is not part of the page's protocol."
WRONG_FIELDS = "That message has fields the page's protocol does not give it, or lacks some."
BAD_VALUE = "A value in that message is of the wrong kind or too long."
HELLO_FIRST = "Say hello first: the page's first message is hello."
HELLO_TWICE = "This tab has said hello already."
MOST_TABS = 500
"""Tabs open at once on the whole server (or one gateway process), unless told: what one process holds on the 2-core
test machine with a browser player's p99 under 100 ms while as many terminal players beside them keep theirs
under 30 ms. Alone, 1,000 tabs at their own moments of a deal keep it under 100 ms; with 1,000 terminal players
beside them, neither keeps it (docs/benchmarks.md, issue 26)."""
FULL = "This server has as many browser players as it can take; try again later.\n"
MOST_OUTBOX = 20_000
"""Frames waiting to go to one page before it is taken to have stopped reading (and is closed)."""
_log = logging.getLogger(__name__)


class _Refused(Exception):
    """The frame is refused with this sentence."""


def check_frame(text: str) -> dict[str, Any]:
    """The page's message in ``text``, checked: its type known, exactly its fields, each of its kind and size;
    `_Refused` with one sentence if not.

    >>> check_frame('{"type": "key", "key": "Q"}')
    {'type': 'key', 'key': 'q'}
    >>> check_frame('{"type": "choose", "list": "menu", "index": true}')
    Traceback (most recent call last):
    ...
    audiocrib.web.gateway._Refused: A value in that message is of the wrong kind or too long.
    """
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        raise _Refused(NOT_JSON) from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise _Refused(NOT_JSON)
    fields = _FIELDS.get(message["type"])
    if fields is None:
        raise _Refused(UNKNOWN)
    if set(message) != fields:
        raise _Refused(WRONG_FIELDS)
    kind = message["type"]
    if kind == "hello":
        token, name, settings = message["token"], message["name"], message["settings"]
        # a token or name the server would not take is dropped by the session (the page's storage may be stale)
        if not (_text(token, 200) and _text(name, 200) and (settings is None or isinstance(settings, dict))):
            raise _Refused(BAD_VALUE)
    elif kind == "key":
        key = message["key"]
        if not (isinstance(key, str) and (key in NAMED_KEYS or (len(key) == 1 and printable(key)
                                                                and not key.isspace()))):
            raise _Refused(BAD_VALUE)
        message["key"] = key.lower() if len(key) == 1 and key.isascii() else key
    elif kind == "line":
        if not _text(message["text"], 300):
            raise _Refused(BAD_VALUE)
    else:
        index = message["index"]
        if message["list"] not in ("menu", "hand") or type(index) is not int or not 0 <= index < 100:
            raise _Refused(BAD_VALUE)
    return message


def _text(value: object, most: int) -> bool:
    return isinstance(value, str) and len(value) <= most and printable(value)


Connect = Callable[[str], Opener]
"""Opens a session's connection to the server for the browser at an address (counted under that address)."""


class Gateway:
    """The ``/web`` sockets, each with its session. ``connect`` opens a session's connection to the server;
    ``address`` is the server's address as the sessions name it and ``ssl_context`` what their connections trust
    (a gateway in the server's own process connects inside it: `audiocrib.web.local`)."""

    def __init__(self, limits: Limits, connect: Connect, address: str, ssl_context: ssl.SSLContext | None = None,
                 most_tabs: int = MOST_TABS, *, proxies: Proxies = NO_PROXIES) -> None:
        self.limits = limits
        self.proxies = proxies
        self.most_tabs = most_tabs
        self.connect = connect
        self.address = address
        self.ssl_context = ssl_context
        self.sessions: set[WebSession] = set()
        self.sockets: set[web.WebSocketResponse] = set()
        self._open: dict[str, int] = {}
        self._connects: dict[str, TokenBucket] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    async def handle(self, request: web.Request) -> web.StreamResponse:
        """One page's socket, from its upgrade to its close."""
        if not same_origin(request):
            return web.Response(status=403, text="The page's socket is for this server's own page.\n")
        remote = browser_address(request, self.proxies)
        lim = self.limits
        if sum(self._open.values()) >= self.most_tabs:
            return web.Response(status=503, text=FULL)
        if self._open.get(remote, 0) >= lim.connections_per_address:
            return web.Response(status=429, text="Too many connections from your address at once.\n")
        bucket = self._connects.get(remote)
        if bucket is None:
            if len(self._connects) > 10_000:
                self._connects = {k: b for k, b in self._connects.items() if not b.full}
            bucket = self._connects[remote] = TokenBucket(lim.connects_rate, lim.connects_burst)
        if not bucket.take():
            return web.Response(status=429, text="Too many new connections from your address; wait a little.\n")
        # no compression, though browsers offer it: a tab's frames are small, and each socket's compressor would
        # cost the server hundreds of KB and some CPU for every frame
        socket = web.WebSocketResponse(max_msg_size=MAX_FRAME, heartbeat=30.0, timeout=5.0, compress=False)
        await socket.prepare(request)
        self._open[remote] = self._open.get(remote, 0) + 1
        self.sockets.add(socket)
        try:
            await _Tab(self, socket, remote).run()
        finally:
            self.sockets.discard(socket)
            self._open[remote] -= 1
            if not self._open[remote]:
                del self._open[remote]
        return socket

    def begin(self, session: WebSession) -> asyncio.Task[None]:
        """Run ``session`` as a task of this loop (kept until it ends)."""
        self.sessions.add(session)
        task = asyncio.get_running_loop().create_task(session.run())
        self._tasks.add(task)

        def ended(task: asyncio.Task[None]) -> None:
            self._tasks.discard(task)
            self.sessions.discard(session)
        task.add_done_callback(ended)
        return task

    async def close_all(self) -> None:
        """End every session and close every page's socket, saying the server is stopping (on shutdown), waiting a
        little for the sessions' connections to close."""
        for session in list(self.sessions):
            session.stop()
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=5.0)
        await asyncio.gather(*(s.close(code=WSCloseCode.GOING_AWAY, message=b"The server is stopping.")
                               for s in list(self.sockets)), return_exceptions=True)


def browser_address(request: web.Request, proxies: Proxies = NO_PROXIES) -> str:
    """The browser's address as the server counts it (the player's behind a trusted proxy, else the connection's
    own), in the characters of an address."""
    return client_address(request, proxies)


class _Tab:
    """One page's socket: its buckets, its session, and the messages on their way to it (what the session says in
    one go leaves in one frame)."""

    def __init__(self, gateway: Gateway, socket: web.WebSocketResponse, remote: str) -> None:
        self.gateway = gateway
        self.socket = socket
        self.remote = remote
        lim = gateway.limits
        self.frames = TokenBucket(lim.messages_rate * 2, lim.messages_burst * 2)
        self.keys = TokenBucket(KEYS_A_SECOND, KEYS_A_SECOND)
        self.refusals = TokenBucket(lim.refusals_rate, lim.refusals_burst)
        self.session: WebSession | None = None
        self.task: asyncio.Task[None] | None = None
        self.outbox: deque[str] = deque()
        """Frames waiting for the page to read the ones before (empty while it keeps up)."""
        self.sending: asyncio.Task[None] | None = None
        """The task finishing a send the page was slow to take, which sends the rest of the outbox after it."""
        self.burst: list[dict[str, Any]] = []
        self.loop = asyncio.get_running_loop()

    def send(self, message: dict[str, Any]) -> None:
        """Queue ``message`` for the page: with the others said in the same go, as one frame."""
        if not self.burst:
            self.loop.call_soon(self._flush)
        self.burst.append(message)

    def _flush(self) -> None:
        burst, self.burst = self.burst, []
        if not burst or self.socket.closed:
            return
        frame = json.dumps(burst[0] if len(burst) == 1 else burst)
        if self.sending is not None:  # behind a frame the page has not yet taken
            if len(self.outbox) >= MOST_OUTBOX:
                self.outbox.clear()
                self.sending.cancel()
                self.sending = asyncio.ensure_future(self._close_slow())
                return
            self.outbox.append(frame)
            return
        # sent here and now, as a page that keeps up takes it; only a send the page is slow to take becomes a task,
        # and the frames after it wait their turn in the outbox
        self.outbox.append(frame)
        self.sending = started_now(self._send_outbox())
        if self.sending is not None:
            self.sending.add_done_callback(self._sent)

    async def _send_outbox(self) -> None:
        with contextlib.suppress(ConnectionError):
            while self.outbox and not self.socket.closed:
                await self.socket.send_str(self.outbox.popleft())

    def _sent(self, task: asyncio.Task[None]) -> None:
        if self.sending is task:
            self.sending = None

    async def _close_slow(self) -> None:
        await self.socket.close(code=WSCloseCode.POLICY_VIOLATION, message=b"The page stopped reading.")

    async def run(self) -> None:
        try:
            await self._read()
        finally:
            if self.session is not None:
                self.session.stop()
            if self.task is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(asyncio.shield(self.task), 5)
            self._flush()
            if self.sending is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(asyncio.shield(self.sending), 5)

    async def _read(self) -> None:
        socket, limits = self.socket, self.gateway.limits
        while not socket.closed:
            timeout = None if self.session is not None else limits.hello_seconds
            try:
                frame = await socket.receive(timeout=timeout)
            except TimeoutError:
                await socket.close(code=WSCloseCode.POLICY_VIOLATION, message=b"No hello came in time.")
                return
            if frame.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED):
                return
            if frame.type is WSMsgType.ERROR:  # over the size limit, or broken WebSocket
                if not socket.closed:
                    await socket.close(code=WSCloseCode.MESSAGE_TOO_BIG, message=b"That message was too big.")
                return
            if not self.frames.take():
                await socket.close(code=WSCloseCode.POLICY_VIOLATION, message=b"Too many messages; slow down.")
                return
            try:
                if frame.type is not WSMsgType.TEXT:
                    raise _Refused("A message must be sent as text, not as binary data.")
                await self._one(check_frame(frame.data))
            except _Refused as refusal:
                if not self.refusals.take():
                    await socket.close(code=WSCloseCode.POLICY_VIOLATION, message=b"Too many refused messages.")
                    return
                self.send({"type": "say", "text": str(refusal), "interrupt": False})
            except Exception:  # a fault of the gateway's: this tab ends, the others go on
                _log.exception("A page's message could not be answered.")
                await socket.close(code=WSCloseCode.INTERNAL_ERROR, message=b"The server failed on that message.")
                return

    async def _one(self, message: dict[str, Any]) -> None:
        session = self.session
        if message["type"] == "hello":
            if session is not None and not session.ended.is_set():
                raise _Refused(HELLO_TWICE)
            gateway = self.gateway
            session = self.session = WebSession(self.send, gateway.address, gateway.connect(self.remote),
                                                gateway.ssl_context, message["token"], message["name"],
                                                message["settings"])
            self.task = gateway.begin(session)
            return
        if session is None:
            raise _Refused(HELLO_FIRST)
        if message["type"] == "key" and not self.keys.take():
            return  # a key held down: the rest of this second's repeats are dropped
        session.give(message)
