"""The gate: every TCP connection counted and bounded from the moment it is accepted, before any HTTP is read.

`Gate` is the listening socket's protocol factory. Each accepted socket is counted under its peer's address
before anything else is made for it; over `Limits.sockets_per_address` open at once from that address, or with
the whole server at its most open sockets (the open-file limit less a reserve, `open_files`), it is answered in
one line and closed at once, and aiohttp never hears of it. An admitted socket has `Limits.request_seconds` to
send a whole request's head, from its first byte and again after each answer (an idle keep-alive connection is
closed then); a WebSocket, once upgraded, is the server's to watch (`Limits.hello_seconds`). With TLS the gate
counts the socket first and then runs the TLS handshake itself, inside the same deadline.

What the gate refuses is said on the server's error output in one line a second at most, as is the system
running out of open files when accepting (asyncio's own report of that, a traceback each try, is replaced):
never a line for each connection.

A connection may be counted again under another address once its request is read (`counted_as`): the web
gateway's own loopback connections to ``/play`` are the server's, not their address's; a trusted proxy's are its
players' (the proxy's address has `Limits.sockets_per_proxy`).
"""

from __future__ import annotations

import asyncio
import errno
import ipaddress
import ssl
import sys
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from audiocrib.server.limits import Limits
from audiocrib.server.proxy import NO_PROXIES, Proxies, client_address

__all__ = ["GATE_KEY", "Gate", "GatedSite", "counted_as", "gated_runner", "open_files"]

GATE_KEY: web.AppKey[Gate] = web.AppKey("gate")
"""Where the application keeps its gate (set by ``serve``; absent when the app runs without one, as in tests)."""
TOO_MANY = "Too many connections from your address at once."
FULL = "This server has as many connections as it can take; try again in a minute."
OUT_OF_FILES = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def open_files(reserve: int) -> tuple[int | None, int | None]:
    """Raise this process's open-file limit to the most the system allows, and return ``(limit, sockets)``: the
    limit, and how many sockets the gate may hold open with ``reserve`` files kept back for the store, the logs
    and the players already in (never less than half the limit). ``(None, None)`` where the system has no such
    limit to read (Windows)."""
    try:
        import resource
    except ImportError:  # Windows: its sockets are not counted against a limit of files
        return None, None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = [hard] if hard != resource.RLIM_INFINITY else []
    wanted.append(min(hard if hard != resource.RLIM_INFINITY else 1 << 20, 10_240))  # macOS allows OPEN_MAX
    for target in wanted:
        if target <= soft and soft != resource.RLIM_INFINITY:
            break
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):
            continue
        soft = target
        break
    if soft == resource.RLIM_INFINITY:
        soft = 1 << 20
    return soft, soft - min(reserve, soft // 2)


def peer_address(transport: asyncio.BaseTransport) -> str:
    """The address a connection comes from, written as `ipaddress` writes it (an IPv4 address mapped into IPv6
    as IPv4), or "unknown"."""
    peer = transport.get_extra_info("peername")
    if not isinstance(peer, tuple) or not peer or not isinstance(peer[0], str):
        return "unknown"
    try:
        address = ipaddress.ip_address(peer[0].split("%")[0])
    except ValueError:
        return peer[0][:64]
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return str(address.ipv4_mapped)
    return str(address)


class _Notices:
    """The gate's lines on the error output: what happened in the last second, in one line, at most once a
    second."""

    def __init__(self, loop: asyncio.AbstractEventLoop, say: Callable[[str], None]) -> None:
        self._loop, self._say = loop, say
        self._pending: dict[str, int] = {}
        self._timer: asyncio.TimerHandle | None = None
        self._last = -1.0

    def note(self, what: str) -> None:
        """Count one of ``what`` (a sentence's end, such as "too many at once from 127.0.0.3")."""
        self._pending[what] = self._pending.get(what, 0) + 1
        if self._timer is None:
            wait = max(0.0, self._last + 1.0 - self._loop.time())
            self._timer = self._loop.call_later(wait, self._flush)

    def _flush(self) -> None:
        self._timer = None
        self._last = self._loop.time()
        pending, self._pending = self._pending, {}
        parts = [f"{count} {what}" for what, count in sorted(pending.items(), key=lambda item: -item[1])[:3]]
        more = sum(pending.values()) - sum(count for _, count in sorted(pending.items(),
                                                                         key=lambda item: -item[1])[:3])
        self._say("audiocrib serve: new connections turned away lately: " + "; ".join(parts)
                  + (f"; {more} more" if more else "") + ".")

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


def _abort(transport: asyncio.BaseTransport) -> None:
    """Close at once, dropping whatever is still to be sent (a socket that sends nothing takes nothing back)."""
    if isinstance(transport, asyncio.WriteTransport):
        transport.abort()
    else:
        transport.close()


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


class Gate:
    """The listening socket's protocol factory (see the module's words): ``handlers`` makes aiohttp's protocol
    for an admitted socket (the runner's ``server``); ``most`` is how many sockets may be open at once (None for
    no such most); ``proxies`` are the addresses of trusted proxies; ``say`` writes a line to the operator."""

    def __init__(self, handlers: Callable[[], asyncio.BaseProtocol], limits: Limits, most: int | None,
                 tls: ssl.SSLContext | None = None, proxies: Proxies = NO_PROXIES,
                 say: Callable[[str], None] = _stderr) -> None:
        self.handlers, self.limits, self.most, self.tls = handlers, limits, most, tls
        self.proxies = proxies
        self.say = say
        self.open = 0
        """Sockets open now (the gateway's loopback connections count twice: both their ends are ours)."""
        self.by_address: dict[str, int] = {}
        self._guards: dict[asyncio.BaseTransport, _Guard] = {}
        self._notices: _Notices | None = None

    def __call__(self) -> asyncio.Protocol:
        return _Guard(self)

    def notices(self) -> _Notices:
        if self._notices is None:
            self._notices = _Notices(asyncio.get_running_loop(), self.say)
        return self._notices

    def refusal(self, address: str) -> str | None:
        """Why a new socket from ``address`` is refused now, or None if it may come in."""
        if self.most is not None and self.open >= self.most:
            return FULL
        most = self.limits.sockets_per_proxy if self.proxies.trusts_text(address) else self.limits.sockets_per_address
        if self.by_address.get(address, 0) >= most:
            return TOO_MANY
        return None

    def recount(self, transport: asyncio.BaseTransport | None, address: str | None) -> None:
        """Count the connection on ``transport`` under ``address`` from now on (None: under no address, and
        twice in all, as the web gateway's loopback connection, whose other end is this server's too)."""
        guard = self._guards.get(transport) if transport is not None else None
        if guard is None or guard.address is None:
            return
        self._uncount(guard.address)
        if address is None:
            self.open += 1
        else:
            self.by_address[address] = self.by_address.get(address, 0) + 1
        guard.address, guard.weight = address, (2 if address is None else 1)

    def _uncount(self, address: str) -> None:
        left = self.by_address.get(address, 0) - 1
        if left > 0:
            self.by_address[address] = left
        else:
            self.by_address.pop(address, None)

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """While a request is answered (a WebSocket's whole life) its connection has no request deadline; once
        answered, the next request has `Limits.request_seconds` from then."""
        guard = self._guards.get(request.transport) if request.transport is not None else None
        if guard is not None:
            if guard.address is not None and self.proxies.trusts_text(guard.address):
                real = client_address(request, self.proxies)  # the proxy's sockets are its players'
                if real != guard.address and self.by_address.get(real, 0) >= self.limits.sockets_per_address:
                    self.notices().note(f"with too many open at once from {real}")
                    return web.Response(status=429, text=TOO_MANY + "\n")
                self.recount(request.transport, real)
            guard.busy()
        try:
            return await handler(request)
        finally:
            if guard is not None:
                guard.idle()

    def exception_handler(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """The event loop's handler of what it cannot raise: the system out of files when accepting is one line
        a second (`_Notices`); the rest goes to asyncio's own handler."""
        error = context.get("exception")
        if isinstance(error, OSError) and error.errno in OUT_OF_FILES and "accept" in str(context.get("message")):
            self.notices().note(f"tries to accept with the system out of open files"
                                f" ({(error.strerror or 'no files').lower()}); those connections wait")
            return
        loop.default_exception_handler(context)

    def close(self) -> None:
        if self._notices is not None:
            self._notices.close()


class _Guard(asyncio.Protocol):
    """One accepted socket: counted under its address until it is lost, its request deadline, and aiohttp's
    protocol (``inner``) behind it once admitted."""

    def __init__(self, gate: Gate) -> None:
        self.gate = gate
        self.address: str | None = None
        self.weight = 0
        self.inner: asyncio.BaseProtocol | None = None
        self.transport: asyncio.BaseTransport | None = None
        self._deadline: asyncio.TimerHandle | None = None
        self._handshake: asyncio.Task[None] | None = None
        self._early: list[bytes] = []
        """What came through TLS before aiohttp's protocol was made (the handshake's end may bring a request)."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        gate = self.gate
        address = peer_address(transport)
        refusal = gate.refusal(address)
        if refusal is not None:
            gate.notices().note("with the server full" if refusal is FULL
                                else f"with too many open at once from {address}")
            if gate.tls is None and isinstance(transport, asyncio.WriteTransport):
                code = "503 Service Unavailable" if refusal is FULL else "429 Too Many Requests"
                body = refusal + "\n"
                transport.write(f"HTTP/1.1 {code}\r\nContent-Type: text/plain\r\nContent-Length: {len(body)}\r\n"
                                f"Connection: close\r\n\r\n{body}".encode("ascii"))
                transport.close()
            else:
                _abort(transport)
            return
        self.address, self.weight, self.transport = address, 1, transport
        gate.open += 1
        gate.by_address[address] = gate.by_address.get(address, 0) + 1
        self.idle()
        if gate.tls is None:
            self._admit(transport)
        else:
            assert isinstance(transport, asyncio.Transport)
            transport.pause_reading()
            self._handshake = asyncio.get_running_loop().create_task(self._tls(transport, gate.tls))

    async def _tls(self, transport: asyncio.Transport, context: ssl.SSLContext) -> None:
        try:
            secure = await asyncio.get_running_loop().start_tls(
                transport, self, context, server_side=True, ssl_handshake_timeout=self.gate.limits.request_seconds)
        except (OSError, ssl.SSLError, TimeoutError, ConnectionError, RuntimeError):
            _abort(transport)
            self._release()
            return
        if secure is None:  # the connection went while shaking hands
            self._release()
            return
        self._admit(secure)

    def _admit(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport
        self.gate._guards[transport] = self
        self.inner = inner = self.gate.handlers()
        inner.connection_made(transport)
        early, self._early = self._early, []
        if isinstance(inner, asyncio.Protocol):
            for data in early:
                inner.data_received(data)

    def busy(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def idle(self) -> None:
        self.busy()
        if self.weight:
            self._deadline = asyncio.get_running_loop().call_later(self.gate.limits.request_seconds, self._late)

    def _late(self) -> None:
        self._deadline = None
        if self.transport is not None and not self.transport.is_closing():
            _abort(self.transport)

    def _release(self) -> None:
        self.busy()
        if not self.weight:
            return
        gate = self.gate
        gate.open -= self.weight
        if self.address is not None:
            gate._uncount(self.address)
        self.address, self.weight = None, 0
        if self.transport is not None:
            gate._guards.pop(self.transport, None)

    # ----------------------------------------------------------------- aiohttp's protocol, behind the gate
    def connection_lost(self, exc: Exception | None) -> None:
        self._release()
        if self._handshake is not None and not self._handshake.done():
            self._handshake.cancel()
        inner, self.inner = self.inner, None
        if inner is not None:
            inner.connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if isinstance(self.inner, asyncio.Protocol):
            self.inner.data_received(data)
        elif self.weight and self.inner is None:
            self._early.append(data)

    def eof_received(self) -> bool | None:
        if isinstance(self.inner, asyncio.Protocol):
            return self.inner.eof_received()
        return None

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.inner is not None:
            self.inner.resume_writing()


def counted_as(request: web.Request, address: str | None) -> None:
    """Count ``request``'s connection under ``address`` from now on (None: the server's own, see
    `Gate.recount`), where the application has a gate."""
    gate = request.app.get(GATE_KEY)
    if gate is not None:
        gate.recount(request.transport, address)


class GatedSite(web.BaseSite):
    """aiohttp's site listening on ``host`` and ``port`` through ``gate`` (which does TLS itself)."""

    def __init__(self, runner: web.BaseRunner, gate: Gate, host: str, port: int, backlog: int = 128) -> None:
        super().__init__(runner, backlog=backlog)
        self._gate, self._host, self._port = gate, host, port

    @property
    def name(self) -> str:
        scheme = "https" if self._gate.tls else "http"
        return f"{scheme}://{self._host or '0.0.0.0'}:{self._port}"

    async def start(self) -> None:
        await super().start()
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(self._gate, self._host or None, self._port, backlog=self._backlog)


async def gated_runner(app: web.Application, limits: Limits, most_files: int | None, tls: ssl.SSLContext | None,
                       proxies: Proxies) -> tuple[web.AppRunner, Gate]:
    """``app``'s runner, set up behind a `Gate` (its middleware added, and the loop's exception handler its own),
    for a `GatedSite`: the server's (`audiocrib.server.serve`) and a gateway process's (`audiocrib.web`)."""
    runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=5.0)

    def handlers() -> asyncio.BaseProtocol:
        assert runner.server is not None
        return runner.server()

    gate = Gate(handlers, limits, most_files, tls, proxies=proxies)
    app[GATE_KEY] = gate
    app.middlewares.append(gate.middleware)
    await runner.setup()
    asyncio.get_running_loop().set_exception_handler(gate.exception_handler)
    return runner, gate
