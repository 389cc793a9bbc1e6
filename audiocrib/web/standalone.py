"""``audiocrib web``: a gateway process that serves the browser page and its sessions for a server elsewhere.

The page, its files, the sounds and the page's socket ``/web`` are served as the server serves them itself
(`audiocrib.web.routes.add_gateway`); each tab's session is a task on this process's event loop, and connects to the
server's ``/play`` as an ordinary terminal client would, over one shared HTTP client, naming its browser's address
in ``X-Forwarded-For``. The server, told ``--trust-proxy`` with the gateway's address, counts each player under their
own address, so its limits and bans apply per player. A session whose connection drops (the server restarting, say)
connects again by itself, as a terminal does. The gateway keeps nothing: the browser keeps the token, so a tab whose
gateway goes away opens the page's socket again (through the proxy, on another gateway) and is back at its table.

Several gateways may stand behind one proxy (docs/server.md, "More browser players: gateways"). Whatever stops the
gateway from starting is one sentence in a `GatewayError`; Ctrl+C or a termination request stops it, each tab told
"The server is stopping."
"""

from __future__ import annotations

import asyncio
import signal
import ssl
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
from aiohttp import web

from audiocrib.client.address import read_address
from audiocrib.client.link import Opener, web_socket_opener
from audiocrib.server.application import short_collections
from audiocrib.server.gate import GatedSite, gated_runner, open_files
from audiocrib.server.limits import Limits
from audiocrib.server.proxy import FORWARDED_FOR, NO_PROXIES, Proxies
from audiocrib.server.serve import ServeError, check_host, listening_tls, loopback
from audiocrib.web.gateway import MOST_TABS, Connect, Gateway
from audiocrib.web.routes import add_gateway, trusting

__all__ = ["GatewayError", "GatewaySettings", "greeting", "over_the_network", "run_gateway"]


class GatewayError(Exception):
    """What stops the gateway from starting, in one sentence."""


@dataclass(frozen=True, slots=True)
class GatewaySettings:
    """What ``audiocrib web`` was told, checked by the command line."""

    server: str
    """The server's address, as `audiocrib.client.address.read_address` reads it."""
    host: str = "127.0.0.1"
    port: int = 8121
    certfile: Path | None = None
    keyfile: Path | None = None
    server_cert: Path | None = None
    """The server's own certificate, the only one its connections trust (None: the system's certificates)."""
    most_tabs: int = MOST_TABS
    proxies: Proxies = NO_PROXIES
    """The reverse proxies whose X-Forwarded-For is believed (``--trust-proxy``)."""
    limits: Limits = field(default_factory=Limits)


def over_the_network(http: aiohttp.ClientSession, url: str, ssl_context: ssl.SSLContext | None) -> Connect:
    """A session's connection to the server at ``url``: a WebSocket in ``http``, naming its browser's address in
    ``X-Forwarded-For`` (believed by a server that trusts this gateway)."""
    def connect(remote: str) -> Opener:
        return web_socket_opener(http, url, ssl_context, {FORWARDED_FOR: remote})
    return connect


def run_gateway(settings: GatewaySettings, say: Callable[[str], None]) -> int:
    """Run the gateway until it is stopped; ``say`` prints a line. Returns the exit status (0 once stopped)."""
    try:
        check_host(settings.host, settings.port)
    except ServeError as error:
        raise GatewayError(str(error).replace("The server cannot", "The gateway cannot")) from None
    tls = _tls(settings)
    with suppress(KeyboardInterrupt):  # Ctrl+C where the event loop cannot catch it itself (Windows)
        asyncio.run(_run(settings, tls, say))
    say("The gateway has stopped.")
    return 0


def _tls(settings: GatewaySettings) -> ssl.SSLContext | None:
    try:
        return listening_tls(settings.certfile, settings.keyfile)
    except ServeError as error:
        raise GatewayError(str(error)) from None


def _trusting(settings: GatewaySettings) -> ssl.SSLContext | None:
    try:
        return trusting(settings.server_cert)
    except (ssl.SSLError, OSError, ValueError):
        raise GatewayError("--server-cert could not be read as a certificate (a PEM file).") from None


async def _run(settings: GatewaySettings, tls: ssl.SSLContext | None, say: Callable[[str], None]) -> None:
    limits = settings.limits
    address = read_address(settings.server)
    server_tls = _trusting(settings) if address.secure else None
    _, most = open_files(limits.files_reserve)
    # one client for every session; no cap on its pool (aiohttp's default of 100 would hold the 101st tab back)
    http = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0), timeout=aiohttp.ClientTimeout(
        total=None, connect=10, sock_connect=10))  # as a terminal's link: a WebSocket lasts as long as it is open
    try:
        gateway = Gateway(limits, over_the_network(http, address.url, server_tls), settings.server, server_tls,
                          settings.most_tabs, proxies=settings.proxies)
        app = web.Application()
        add_gateway(app, gateway)
        runner, gate = await gated_runner(app, limits, most, tls, settings.proxies)
        loop = asyncio.get_running_loop()
        collecting = loop.create_task(short_collections())
        try:
            site = GatedSite(runner, gate, settings.host, settings.port)
            try:
                await site.start()
            except OSError as error:
                raise GatewayError(f"The gateway cannot listen on {settings.host} port {settings.port}:"
                                   f" {(error.strerror or 'an error of the system').lower()}.") from None
            for line in greeting(settings, runner.addresses[0][1], tls is not None):
                say(line)
            stop = asyncio.Event()
            for number in (signal.SIGINT, signal.SIGTERM):
                with suppress(NotImplementedError, RuntimeError, ValueError):  # where asyncio has no such handler
                    loop.add_signal_handler(number, stop.set)
            await stop.wait()
            say("Stopping: closing the browsers' tabs.")
        finally:
            collecting.cancel()
            await runner.cleanup()  # each tab's session ends, and its socket is closed: "The server is stopping."
            gate.close()
    finally:
        await http.close()


def greeting(settings: GatewaySettings, port: int, tls: bool) -> list[str]:
    """The lines said on start: where the gateway listens, which server it serves and how to stop it, and any
    warning.

    >>> for line in greeting(GatewaySettings("10.0.0.5", proxies=Proxies.of(["127.0.0.1"])), 8121, False):
    ...     print(line)
    audiocrib gateway listening on 127.0.0.1, port 8121.
    Its browsers play on the server at ws://10.0.0.5:4121/play; stop the gateway with Ctrl+C.
    The server must trust this gateway's address: audiocrib serve --trust-proxy ADDRESS.
    Trusting the proxy at 127.0.0.1: each browser's address is read from its X-Forwarded-For.
    """
    host = settings.host
    everywhere = host in ("0.0.0.0", "::", "")
    lines = [f"audiocrib gateway listening on {'every address of this computer' if everywhere else host},"
             f" port {port}.",
             f"Its browsers play on the server at {read_address(settings.server).url}; stop the gateway with"
             " Ctrl+C.",
             "The server must trust this gateway's address: audiocrib serve --trust-proxy ADDRESS."]
    if not loopback(host) and not tls:
        lines.append("Warning: without --certfile and --keyfile nothing is encrypted between the browsers and this"
                     " gateway. Give a certificate, or put a proxy with TLS in front.")
    if settings.proxies.networks:
        trusted = ", ".join(str(net.network_address) if net.num_addresses == 1 else str(net)
                            for net in settings.proxies.networks)
        lines.append(f"Trusting the proxy at {trusted}: each browser's address is read from its X-Forwarded-For.")
    return lines
